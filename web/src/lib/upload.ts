import { ACCEPTED_TYPES, MAX_FILE_BYTES, fileMessages, type UploadPurpose, type UploadTicket } from '@domain/files';
import { api, ApiError } from './api';

/** The check a form makes before uploading; the API checks the stored bytes again. */
export function checkFile(file: File): string | null {
  if (!(ACCEPTED_TYPES as readonly string[]).includes(file.type)) return fileMessages.unsupported;
  if (file.size === 0) return fileMessages.empty;
  if (file.size > MAX_FILE_BYTES) return fileMessages.tooLarge;
  return null;
}

/**
 * Uploads a file straight to storage (presigned POST) and returns the key the form then sends to the API,
 * which checks the file and keeps it. Throws ApiError with an Italian message.
 */
export async function uploadFile(file: File, purpose: UploadPurpose): Promise<{ uploadKey: string; name: string }> {
  const problem = checkFile(file);
  if (problem) throw new ApiError(400, problem);
  const ticket = await api.post<UploadTicket>('/api/uploads', {
    purpose,
    fileName: file.name,
    contentType: file.type,
    size: file.size,
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', file);
  const response = await fetch(ticket.url, { method: 'POST', body: form }).catch(() => null);
  if (!response?.ok) throw new ApiError(response?.status ?? 0, 'Il caricamento del file non è riuscito. Riprova.');
  return { uploadKey: ticket.uploadKey, name: file.name };
}
