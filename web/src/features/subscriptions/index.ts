export { UserSubscriptions } from './components/user-subscriptions';
