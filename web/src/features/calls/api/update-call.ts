import type { Call, CallUpdate } from '@domain/calls';
import { api } from '@/lib/api';

/** PUT /api/calls/{id}: the call's fields, year and state; `files` are the new forms. Answers the saved call. */
export const updateCall = (id: string, input: CallUpdate): Promise<Call> =>
  api.put<Call>(`/api/calls/${encodeURIComponent(id)}`, input);
