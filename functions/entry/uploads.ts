import { createUpload } from '../adapters/files.ts';
import { resourceHandler } from '../http/handler.ts';
import { uploadRoutes } from '../uploads/routes.ts';

export const handler = resourceHandler(uploadRoutes, {
  createUpload: ({ actor, body }) => createUpload(actor.sub, body),
});
