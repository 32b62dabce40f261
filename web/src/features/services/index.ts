export { NewServicePage } from './components/new-service-page';
export { ServiceDetailPage } from './components/service-detail-page';
export { ServicesPage } from './components/services-page';
