import type { Isee, IseeDecision } from '@domain/isee';
import { api } from '@/lib/api';
import { useAsyncAction } from '@/components/use-async';

export const decideIsee = (id: string, decision: IseeDecision) =>
  api.put<Isee>(`/api/isee/${encodeURIComponent(id)}/decision`, decision);
export const useDecideIsee = () => useAsyncAction(decideIsee);
