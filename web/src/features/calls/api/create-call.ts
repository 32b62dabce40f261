import type { Call, CallInput } from '@domain/calls';
import { api } from '@/lib/api';

/** POST /api/calls (201): the new call, in state CREATE. The input must pass `callInputSchema`. */
export const createCall = (input: CallInput): Promise<Call> => api.post<Call>('/api/calls', input);
