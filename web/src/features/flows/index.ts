export { FlowsPage } from './components/flows-page';
export { SendToMyPay } from './components/send-to-mypay';
