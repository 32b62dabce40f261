export { CallPaymentActions } from './components/call-payment-actions';
export { CallPositionsSection } from './components/call-positions-section';
export { EditPositionDialog } from './components/edit-position-dialog';
export { SyncPositionsButton } from './components/sync-positions-button';
export { NoticeBadges, NoticeButtons, type NoticeButtonsProps } from './components/notice-buttons';
