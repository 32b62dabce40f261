import type { Isee, IseeDecision } from '@domain/isee';
import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

export const decideIsee = (id: string, decision: IseeDecision) =>
  api.put<Isee>(`/api/isee/${encodeURIComponent(id)}/decision`, decision);
export const useDecideIsee = () => useApiMutation(decideIsee);
