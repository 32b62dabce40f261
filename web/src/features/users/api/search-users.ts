import type { User } from '@domain/users';
import { api, query, type Page } from '@/lib/api';
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

/** GET /api/users: one page of the users matching the filters ('Da validare' = state LOADED). */
export const searchUsers = (filters: UserFilters, cursor: string | null): Promise<Page<User>> =>
  api.get<Page<User>>(
    `/api/users${query({ ...filters, loaded: filters.loaded ? 'true' : undefined, limit: USERS_PAGE_SIZE, cursor })}`,
  );

/** The users list for the filters, fifteen per page; new filters go back to the first page. */
export const useUsers = (filters: UserFilters) =>
  useCursorList<User>(['users', 'search', filters], (cursor) => searchUsers(filters, cursor));
