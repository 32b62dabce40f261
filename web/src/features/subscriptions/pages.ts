/**
 * The feature's pages, which the app's router loads (web/src/app/router.tsx). Not in index.ts, which other
 * features import: a feature reaching another's pages through it closed import circles between features.
 */
export { CallPage } from './components/call-page';
export { ServiceOpenCallsPage } from './components/service-open-calls-page';
export { SubscriptionsPage } from './components/subscriptions-page';
