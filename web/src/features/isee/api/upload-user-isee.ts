import type { Isee, OperatorIseeUpload } from '@domain/isee';
import { api } from '@/lib/api';

export const uploadUserIsee = (userId: string, input: OperatorIseeUpload) =>
  api.post<Isee>(`/api/users/${encodeURIComponent(userId)}/isee`, input);
