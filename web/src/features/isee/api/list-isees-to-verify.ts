import { ISEE_PAGE_SIZE, type Isee } from '@domain/isee';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/isee: uploaded and not yet validated, oldest first. */
export const useIseesToVerify = () =>
  useCursorList<Isee>(['isee', 'to-verify'], (cursor) =>
    api.get<Page<Isee>>(`/api/isee${query({ limit: ISEE_PAGE_SIZE, cursor })}`),
  );
