import type { Isee } from '@domain/isee';
import { api } from '@/lib/api';

export const uploadMyIsee = (input: { document: { uploadKey: string; name: string }; value: number }) =>
  api.post<Isee>('/api/isee', input);
