import * as z from 'zod/mini';
import { idParamsSchema } from '../domain/validation.ts';
import type { RouteDef } from '../http/route.ts';

/**
 * 'Avviso PDF' where the list cannot link the notice itself (issue 37: on pagoPA GPD the portal prints it, and the
 * printer does not fit the user-positions function's bundle): a link of a few minutes to the position's notice PDF,
 * made on request. Citizens get their own positions' only (another's is a 404); operators and delegates any
 * (the full table is functions/routes.ts).
 */
export const noticeDownloadRoutes = [
  {
    operationId: 'downloadNotice',
    method: 'GET',
    path: '/api/positions/{id}/notice',
    resource: 'notice-downloads',
    access: ['CITIZEN', 'OPERATOR', 'DELEGATE'],
    summary: 'Avviso di pagamento PDF: un link di pochi minuti (il cittadino solo i propri)',
    params: idParamsSchema,
    status: 200,
    response: z.object({ url: z.string() }),
    problems: [409, 422],
  },
] as const satisfies readonly RouteDef<'notice-downloads'>[];
