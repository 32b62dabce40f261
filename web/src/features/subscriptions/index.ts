export { CallPage } from './components/call-page';
export { ServiceOpenCallsPage } from './components/service-open-calls-page';
export { SubscriptionsPage } from './components/subscriptions-page';
export { UserSubscriptions } from './components/user-subscriptions';
