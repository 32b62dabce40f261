import { uploadRequestSchema, uploadTicketSchema } from '../domain/files.ts';
import { type RouteDef } from '../http/route.ts';

/** File uploads: a presigned POST straight to the documents bucket; the feature that uses the file claims it: the routes of the uploads function (the full table is functions/routes.ts). */
export const uploadRoutes = [
  {
    operationId: 'createUpload',
    method: 'POST',
    path: '/api/uploads',
    resource: 'uploads',
    access: ['OPERATOR', 'CITIZEN'],
    summary: 'Autorizzazione a caricare un file (PDF, JPEG, PNG) direttamente nello storage',
    body: uploadRequestSchema,
    status: 201,
    response: uploadTicketSchema,
  },
] as const satisfies readonly RouteDef<'uploads'>[];
