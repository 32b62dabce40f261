export { CallPaymentActions } from './components/call-payment-actions';
