import type { ExportRequest } from '@domain/flow-schemas';
import { currentPeriod } from '@domain/payments';
import { ApiError } from '@/lib/api';

/** The flows feature's 'Invia a MyPay' for a month, which the app hands in (a feature imports no other). */
export type StartExport = (callId: string, request: ExportRequest) => Promise<unknown>;

export const SINGLE_PAYMENT_FAILED = 'Si è verificato un errore. Riprovare più tardi.';
export const SINGLE_PAYMENT_BAD_ANSWER = 'Errore nella risposta dal server.';

/**
 * 'Pagamento singolo': this month's position of one citizen sent to MyPay (an export of one fiscal code).
 * A failure reads as spec part 2 §8 says: the server's message; 'Errore nella risposta dal server.' for an
 * error answer without one; 'Si è verificato un errore. Riprovare più tardi.' when no answer came.
 */
export async function sendSinglePayment(startExport: StartExport, callId: string, fiscalCode: string) {
  try {
    return await startExport(callId, { ...currentPeriod(new Date()), fiscalCode });
  } catch (error) {
    if (error instanceof ApiError && error.fromServer) throw error;
    if (error instanceof ApiError && error.status > 0) throw new ApiError(error.status, SINGLE_PAYMENT_BAD_ANSWER);
    throw new ApiError(0, SINGLE_PAYMENT_FAILED);
  }
}
