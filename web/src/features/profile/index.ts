export { ProfileBanner } from './components/profile-banner';
