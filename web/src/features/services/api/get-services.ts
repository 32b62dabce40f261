import type { Service } from '@domain/services';
import { api, query, type Page } from '@/lib/api';

/** Twenty services per page, like the bands (the spec gives no size for this list). */
export const SERVICES_PAGE_SIZE = 20;

/** GET /api/services: one page of services, ordered by name. */
export const getServices = (page: { limit?: number; cursor?: string | null } = {}): Promise<Page<Service>> =>
  api.get<Page<Service>>(`/api/services${query({ limit: page.limit ?? SERVICES_PAGE_SIZE, cursor: page.cursor })}`);
