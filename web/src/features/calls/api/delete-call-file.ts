import { api } from '@/lib/api';

/** DELETE /api/calls/{id}/files/{fileId} (204): one of the call's attached forms. */
export const deleteCallFile = (id: string, fileId: string): Promise<void> =>
  api.delete(`/api/calls/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`);
