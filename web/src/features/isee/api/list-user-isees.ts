import { ISEE_PAGE_SIZE, type Isee } from '@domain/isee';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** The ISEE of one user (operator's record), newest first. */
export const useUserIsees = (userId: string) =>
  useCursorList<Isee>(['isee', 'of-user', userId], (cursor) =>
    api.get<Page<Isee>>(`/api/users/${encodeURIComponent(userId)}/isee${query({ limit: ISEE_PAGE_SIZE, cursor })}`),
  );
