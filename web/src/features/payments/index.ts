export { CallPaymentActions } from './components/call-payment-actions';
export { PaymentListPage } from './components/payment-list-page';
