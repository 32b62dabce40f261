/**
 * The feature's pages, which the app's router loads (web/src/app/router.tsx). Not in index.ts, which other
 * features import: a feature reaching another's pages through it closed import circles between features.
 */
export { NewServicePage } from './components/new-service-page';
export { ServiceDetailPage } from './components/service-detail-page';
export { ServicesPage } from './components/services-page';
