import { flowEmailResultSchema, ioNoticeQuerySchema } from '../domain/notice-schemas.ts';
import { positionSchema } from '../domain/payments.ts';
import { idParamsSchema } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/**
 * Payment notices to the citizen (issue 9): by e-mail with MyPay's PDF, and to the IO app; one position
 * (id = its IUD) or every notice of a flow. Operators only: delegates read, citizens download their PDF.
 */
export const noticeRoutes = [
  {
    operationId: 'emailNotice',
    method: 'POST',
    path: '/api/positions/{id}/email',
    resource: 'notices',
    access: OPERATOR,
    summary: 'Avviso e-mail',
    params: idParamsSchema,
    status: 200,
    response: positionSchema,
    problems: [409],
  },
  {
    operationId: 'ioNotice',
    method: 'POST',
    path: '/api/positions/{id}/io',
    resource: 'notices',
    access: OPERATOR,
    summary: 'Avviso su IO (resend=true: un nuovo invio confermato dall’operatore)',
    params: idParamsSchema,
    query: ioNoticeQuerySchema,
    status: 200,
    response: positionSchema,
    problems: [409, 422, 502, 503],
  },
  // 'Verifica': reads IO's status of the message sent (a POST: it records what IO says).
  {
    operationId: 'ioNoticeStatus',
    method: 'POST',
    path: '/api/positions/{id}/io/status',
    resource: 'notices',
    access: OPERATOR,
    summary: 'Verifica dell’avviso su IO',
    params: idParamsSchema,
    status: 200,
    response: positionSchema,
    problems: [409, 502, 503],
  },
  {
    operationId: 'emailFlow',
    method: 'POST',
    path: '/api/flows/{id}/email',
    resource: 'notices',
    access: OPERATOR,
    summary: 'Avvisi e-mail del flusso (in background)',
    params: idParamsSchema,
    status: 202,
    response: flowEmailResultSchema,
    problems: [409],
  },
  {
    operationId: 'flowEmailStatus',
    method: 'GET',
    path: '/api/flows/{id}/email',
    resource: 'notices',
    access: OPERATOR,
    summary: 'Stato dell’invio delle e-mail del flusso',
    params: idParamsSchema,
    status: 200,
    response: flowEmailResultSchema,
  },
] as const satisfies readonly RouteDef<'notices'>[];
