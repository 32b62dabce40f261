export { ProfilePage } from './components/profile-page';
export { ProfileBanner } from './components/profile-banner';
