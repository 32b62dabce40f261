import type { NewUserInput, User, UserUpdateInput } from '@domain/users';
import { api, query, type Page } from '@/lib/api';
import { useAsync, useAsyncAction } from '@/components/use-async';
import { useCursorList } from '@/components/cursor-pagination';

/** Spec part 1 §9: fifteen users per page. */
export const USERS_PAGE_SIZE = 15;

export interface UserFilters {
  firstName: string;
  lastName: string;
  fiscalCode: string;
  email: string;
  phoneNumber: string;
  loaded: boolean;
}

export const searchUsers = (filters: UserFilters, cursor: string | null) =>
  api.get<Page<User>>(`/api/users${query({ ...filters, loaded: filters.loaded ? 'true' : undefined, limit: USERS_PAGE_SIZE, cursor })}`);

export const useUsers = (filters: UserFilters) =>
  useCursorList<User>((cursor) => searchUsers(filters, cursor), { resetKey: JSON.stringify(filters) });

export const getUser = (id: string) => api.get<User>(`/api/users/${encodeURIComponent(id)}`);
export const useUser = (id: string | null) => useAsync(() => getUser(id!), [id], { enabled: Boolean(id) });
export const createUser = (input: NewUserInput) => api.post<User>('/api/users', input);
export const updateUser = (id: string, input: UserUpdateInput) => api.put<User>(`/api/users/${encodeURIComponent(id)}`, input);
export const setUserStatus = (id: string, suspended: boolean) => api.put<User>(`/api/users/${encodeURIComponent(id)}/status`, { suspended });
export const useSetUserStatus = () => useAsyncAction(setUserStatus);
export const deleteUser = (id: string) => api.delete(`/api/users/${encodeURIComponent(id)}`);
export const useDeleteUser = () => useAsyncAction(deleteUser);
export const countLoadedUsers = () => api.get<{ count: number }>('/api/users/loaded/count');
