import { ISEE_PAGE_SIZE, type Isee } from '@domain/isee';
import { api, query, type Page } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';
import { useCursorList } from '@/components/cursor-pagination';

/** The citizen's own ISEE, newest first. */
export const useMyIsees = () =>
  useCursorList<Isee>(['isee', 'mine'], (cursor) =>
    api.get<Page<Isee>>(`/api/me/isee${query({ limit: ISEE_PAGE_SIZE, cursor })}`),
  );

/** The newest ISEE of the signed-in citizen (home banners), or null: the same endpoint, one item. */
export const useNewestIsee = () =>
  useApiQuery(
    ['isee', 'mine', 'newest'],
    async () => (await api.get<Page<Isee>>(`/api/me/isee${query({ limit: 1 })}`)).items[0] ?? null,
  );
