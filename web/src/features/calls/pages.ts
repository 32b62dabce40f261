/**
 * The feature's pages, which the app's router loads (web/src/app/router.tsx). Not in index.ts, which other
 * features import: a feature reaching another's pages through it closed import circles between features.
 */
export { CallDetailPage } from './components/call-detail-page';
export { CallsPage } from './components/calls-page';
export { EditCallPage } from './components/edit-call-page';
export { NewCallPage } from './components/new-call-page';
