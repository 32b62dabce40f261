import type { Band } from '@domain/bands';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** Spec part 1 §9: twenty bands per page. */
export const BANDS_PAGE_SIZE = 20;

/** GET /api/bands: one page of bands, ordered by their lower bound. */
export const getBands = (page: { limit?: number; cursor?: string | null } = {}): Promise<Page<Band>> =>
  api.get<Page<Band>>(`/api/bands${query({ limit: page.limit ?? BANDS_PAGE_SIZE, cursor: page.cursor })}`);

/** The bands list, twenty per page, with its cursor pagination. */
export const useBands = () => useCursorList<Band>(['bands', 'list'], (cursor) => getBands({ cursor }));
