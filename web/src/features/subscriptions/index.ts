export { SubscriptionsPage } from './components/subscriptions-page';
export { UserSubscriptions } from './components/user-subscriptions';
