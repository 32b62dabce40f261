export { CallPaymentActions } from './components/call-payment-actions';
export { MyPayments } from './components/my-payments';
export { PaymentsPage } from './components/payments-page';
export { PositionsTable, PaymentBadge, NoticeLink } from './components/positions-table';
export { ReportingButton, REPORTING_BUTTON } from './components/reporting-button';
export { UserPayments } from './components/user-payments';
