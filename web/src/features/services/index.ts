export { NewServicePage } from './components/new-service-page';
export { ServicesPage } from './components/services-page';
export { getServices } from './api/get-services';
export { useService } from './api/get-service';
