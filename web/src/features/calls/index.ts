export { CallDetailPage } from './components/call-detail-page';
export { CallsPage } from './components/calls-page';
export { EditCallPage } from './components/edit-call-page';
export { NewCallPage } from './components/new-call-page';
export { ServiceCallsList } from './components/service-calls-list';
