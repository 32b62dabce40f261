import { api } from '@/lib/api';

/** DELETE /api/calls/{id} (204); 409 'Il bando non può essere eliminato perché ha delle iscrizioni.' */
export const deleteCall = (id: string): Promise<void> => api.delete(`/api/calls/${encodeURIComponent(id)}`);
