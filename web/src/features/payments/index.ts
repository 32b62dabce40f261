export { CallPaymentActions } from './components/call-payment-actions';
export { NoticeBadges, NoticeButtons, type NoticeButtonsProps } from './components/notice-buttons';
