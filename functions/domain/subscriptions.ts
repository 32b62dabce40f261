import * as z from 'zod/mini';
import { CallState } from './calls.ts';
import { ConflictError, ValidationError } from './errors.ts';
import { validatedIsee } from './latest-isee.ts';
import { fileMessages, uploadedFileSchema } from './files.ts';
import { linkedFileSchema } from './calls.ts';
import { fill, messages } from './messages.ts';
import { pageQuerySchema } from './validation.ts';

/** Subscription (iscrizione) states (part 2 §4). */
export const subscriptionStates = ['ADDED', 'VALIDATED', 'SUSPENDED', 'REFUSED'] as const;
export type SubscriptionState = (typeof subscriptionStates)[number];

/** Up to 5 files with a citizen's request (part 2 §9). */
export const MAX_SUBSCRIPTION_FILES = 5;
/** /iscrizioni shows 5 cards per page (design §4). */
export const SUBSCRIPTIONS_PAGE_SIZE = 5;

/** The action shown on a call the citizen has not asked for yet. */
export const REQUEST_ACTION = 'Richiedi Servizio';
/** Labels on the citizen's call detail (part 2 §4; VALIDATED per design §4). */
export const subscriptionDetailLabels: Record<SubscriptionState, string> = {
  ADDED: 'Richiesta inserita',
  VALIDATED: 'Richiesta approvata',
  SUSPENDED: 'Iscrizione sospesa',
  REFUSED: 'Richiesta rifiutata',
};
/** Labels on the operator's user record (design §4: VALIDATED reads 'Richiesta accettata' there). */
export const subscriptionOperatorLabels: Record<SubscriptionState, string> = {
  ADDED: 'Richiesta inserita',
  VALIDATED: 'Richiesta accettata',
  SUSPENDED: 'Iscrizione sospesa',
  REFUSED: 'Richiesta rifiutata',
};
/** Subscriptions on the operator's user record, 3 per page (design §4). */
export const USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE = 3;
/** Labels in the citizen's list /iscrizioni (part 2 §4). */
export const subscriptionListLabels: Record<SubscriptionState, string> = {
  ADDED: 'RICHIESTA INSERITA',
  VALIDATED: 'RICHIESTA APPROVATA',
  SUSPENDED: 'ISCRIZIONE SOSPESA',
  REFUSED: 'ISCRIZIONE RIFIUTATA',
};

/** A citizen's request: the files uploaded with POST /api/uploads (purpose 'subscription-file'). */
export const subscribeSchema = z.object({
  files: z._default(z.array(uploadedFileSchema).check(z.maxLength(MAX_SUBSCRIPTION_FILES, fileMessages.tooMany)), []),
});
export type SubscribeInput = z.output<typeof subscribeSchema>;

export const subscriptionListQuerySchema = z.extend(pageQuerySchema, { state: z.optional(z.enum(subscriptionStates)) });
/** A subscription id is "<callId>.<userId>": both opaque ids, so it reads its item directly. */
export const subscriptionParamsSchema = z.object({ id: z.string().check(z.minLength(3), z.maxLength(140)) });

export const subscriptionSummarySchema = z.object({
  id: z.string(),
  state: z.enum(subscriptionStates),
  announcementId: z.string(),
  announcement: z.object({
    id: z.string(),
    name: z.string(),
    year: z.number(),
    service: z.object({ id: z.string(), name: z.string() }),
  }),
  rankingScore: z.nullable(z.number()),
  /** Set by the operator when the request is approved. */
  weeklyHour: z.nullable(z.number()),
  /** Monthly cost in euro, once approved. */
  cost: z.nullable(z.number()),
  dataInsert: z.string(),
  dataUpdate: z.string(),
});
export type SubscriptionSummary = z.output<typeof subscriptionSummarySchema>;

export const subscriptionSchema = z.extend(subscriptionSummarySchema, { subscriptionFiles: z.array(linkedFileSchema) });
export type Subscription = z.output<typeof subscriptionSchema>;

export const mySubscriptionSchema = z.object({ subscription: z.nullable(subscriptionSchema) });

export const subscriptionId = (callId: string, userId: string) => `${callId}.${userId}`;
export function parseSubscriptionId(id: string): { callId: string; userId: string } | null {
  const [callId, userId, ...rest] = id.split('.');
  return callId && userId && rest.length === 0 ? { callId, userId } : null;
}

/**
 * Part 2 §4: a citizen may apply only to an OPEN call, and only while their newest ISEE is VALIDATED.
 * Every refusal is a 400 with the spec's message.
 */
export function assertCanSubscribe(call: { state: number }, newestIsee: { state: string } | null): void {
  if (call.state !== CallState.OPEN) throw new ValidationError(messages.call.notOpen);
  if (!validatedIsee(newestIsee)) throw new ValidationError(messages.subscription.noValidatedIsee);
}

/**
 * The operator's moves (part 2 §4): a request is approved or refused; an approved one is suspended, or
 * stays approved with new hours; a suspended one is approved again; a refused one goes back to pending.
 */
export const subscriptionTransitions: Record<SubscriptionState, readonly SubscriptionState[]> = {
  ADDED: ['VALIDATED', 'REFUSED'],
  VALIDATED: ['VALIDATED', 'SUSPENDED'],
  SUSPENDED: ['VALIDATED'],
  REFUSED: ['ADDED'],
};

/** The operator's update codes (part 2 §4): 0 back to pending, 2 approve, 3 refuse, 4 suspend. */
export const subscriptionStateByCode: Readonly<Record<number, SubscriptionState>> = {
  0: 'ADDED',
  2: 'VALIDATED',
  3: 'REFUSED',
  4: 'SUSPENDED',
};

export const canMoveSubscription = (from: SubscriptionState, to: SubscriptionState): boolean =>
  subscriptionTransitions[from].includes(to);

/** The state an operator's update code leads to; a move the rules do not allow is refused (409). */
export function nextSubscriptionState(current: SubscriptionState, code: number): SubscriptionState {
  const next = subscriptionStateByCode[code];
  if (!next || !canMoveSubscription(current, next)) {
    throw new ConflictError(fill(messages.subscription.transition, { from: current, to: next ?? String(code) }));
  }
  return next;
}
