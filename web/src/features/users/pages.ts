/**
 * The feature's pages, which the app's router loads (web/src/app/router.tsx). Not in index.ts, which other
 * features import: a feature reaching another's pages through it closed import circles between features.
 */
export { NewUserPage } from './components/new-user-page';
export { UserRecordPage } from './components/user-record-page';
export { UsersPage } from './components/users-page';
