export { FlowsPage } from './components/flows-page';
export { SendToMyPay } from './components/send-to-mypay';
export { startExport } from './api/start-export';
