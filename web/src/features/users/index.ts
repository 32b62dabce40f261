export { NewUserPage } from './components/new-user-page';
export { UsersPage } from './components/users-page';
export { UserFields, PROFILE_REQUIRED } from './components/user-fields';
export { userFields, userToForm, validateProfile } from './utils/user-form';
export { countLoadedUsers } from './api/count-loaded-users';
export { searchUsers, type UserFilters } from './api/search-users';
export { getUser } from './api/get-user';
