/**
 * The calls' pages, which only the app's router loads (web/src/app/router.tsx). They compose other features
 * (payments, enrolments, flows, isee) that import this feature's index.ts for its parts (getCalls,
 * CallCards…): with the pages in index.ts, those imports closed import circles between the features.
 */
export { CallDetailPage } from './components/call-detail-page';
export { CallsPage } from './components/calls-page';
export { EditCallPage } from './components/edit-call-page';
export { NewCallPage } from './components/new-call-page';
