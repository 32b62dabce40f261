import { createUpload } from '../adapters/files.ts';
import { resourceHandler } from '../http/handler.ts';

export const handler = resourceHandler('uploads', {
  createUpload: ({ actor, body }) => createUpload(actor!.sub, body),
});
