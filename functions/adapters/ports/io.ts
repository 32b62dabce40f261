import type { IoMessageContent } from '../../domain/notices.ts';

/** IO's processing status of a message (io-functions-commons `MessageStatusValue`). */
export type IoMessageStatus = 'ACCEPTED' | 'THROTTLED' | 'PROCESSED' | 'REJECTED' | 'FAILED';

/**
 * The IO app (reference.md "IO app messages"): the profile check, then the message with payment data, then
 * its status. The adapter is functions/adapters/io.ts; locally it talks to lib/local/io-simulator.ts. Errors
 * by name: `IoRefused` (with its `reason`: the citizen's profile, the amount, the key's permissions, a 400;
 * reported, never retried), `IoUnavailable` (5xx, timeouts or a 429 still in the way when the time is up;
 * no message was posted) and `IoUnconfirmed` (the message's POST got no clear answer: IO may have created it,
 * and it is never posted again by itself). `deadline` (epoch ms): no call goes on past it; `beforeMessage`
 * runs just before the message is posted.
 */
export interface IoMessages {
  sendMessage(
    fiscalCode: string,
    content: IoMessageContent,
    options?: { deadline?: number; beforeMessage?: () => Promise<void> },
  ): Promise<{ id: string }>;
  messageStatus(fiscalCode: string, id: string, options?: { deadline?: number }): Promise<IoMessageStatus>;
}
