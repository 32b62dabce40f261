import type { CallSummary } from '@domain/calls';
import { useCursorList } from '@/components/cursor-pagination';
import { getOpenCalls } from './get-open-calls';

// Apart from get-open-calls.ts, which the landing page imports: the query layer stays out of the first load.
/** The open calls of one service, 6 per page (/sessione_servizi). */
export const useServiceOpenCalls = (serviceId: string) =>
  useCursorList<CallSummary>(['calls', 'open', 'of-service', serviceId], (cursor) =>
    getOpenCalls({ serviceId, cursor }),
  );
