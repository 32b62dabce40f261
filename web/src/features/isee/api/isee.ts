import type { Isee, IseeDecision, OperatorIseeUpload } from '@domain/isee';
import { api, query, type Page } from '@/lib/api';
import { useAsync, useAsyncAction } from '@/components/use-async';
import { useCursorList } from '@/components/cursor-pagination';

/** Spec: ISEE lists show five per page. */
export const ISEE_PAGE_SIZE = 5;

export const getIsee = (id: string) => api.get<Isee>(`/api/isee/${encodeURIComponent(id)}`);
export const useIsee = (id: string | null) => useAsync(() => getIsee(id!), [id], { enabled: Boolean(id) });

/** GET /api/isee: uploaded and not yet validated, oldest first. */
export const useIseesToVerify = () =>
  useCursorList<Isee>((cursor) => api.get<Page<Isee>>(`/api/isee${query({ limit: ISEE_PAGE_SIZE, cursor })}`));

/** The citizen's own ISEE, newest first. */
export const useMyIsees = () => useCursorList<Isee>((cursor) => api.get<Page<Isee>>(`/api/me/isee${query({ limit: ISEE_PAGE_SIZE, cursor })}`));

/** The ISEE of one user (operator's record), newest first. */
export const useUserIsees = (userId: string) =>
  useCursorList<Isee>((cursor) => api.get<Page<Isee>>(`/api/users/${encodeURIComponent(userId)}/isee${query({ limit: ISEE_PAGE_SIZE, cursor })}`), { resetKey: userId });

/** The newest ISEE of the signed-in citizen (home banners), or null. */
export const useNewestIsee = () =>
  useAsync(async () => (await api.get<Page<Isee>>(`/api/me/isee${query({ limit: 1 })}`)).items[0] ?? null, []);

export const uploadMyIsee = (input: { document: { uploadKey: string; name: string }; value: number }) => api.post<Isee>('/api/isee', input);
export const uploadUserIsee = (userId: string, input: OperatorIseeUpload) => api.post<Isee>(`/api/users/${encodeURIComponent(userId)}/isee`, input);
export const decideIsee = (id: string, decision: IseeDecision) => api.put<Isee>(`/api/isee/${encodeURIComponent(id)}/decision`, decision);
export const useDecideIsee = () => useAsyncAction(decideIsee);

export const countIseesToVerify = () => api.get<{ count: number }>('/api/isee/to-verify/count');
