import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import {
  SUBSCRIPTIONS_PAGE_SIZE,
  USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE,
  assertCanSubscribe,
  parseSubscriptionId,
  subscriptionId,
  type SubscribeInput,
  type Subscription,
  type SubscriptionState,
  type SubscriptionSummary,
} from '../domain/subscriptions.ts';
import { userMessages } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { FileStore } from '../adapters/ports/files.ts';
import type { EnsureCitizen } from '../adapters/ports/users.ts';
import { claimFiles, deleteFiles, linkFiles } from '../adapters/kept-files.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { SubscriptionRecord } from '../domain/subscription-record.ts';
import { newSubscription } from '../domain/new-subscription.ts';
import type { FeeBand } from '../domain/fee.ts';
import { subscriptionFee } from '../domain/enrolment-fee.ts';
import { toEuros } from '../domain/money.ts';

type ListQuery = { state?: SubscriptionState; limit?: number; cursor?: string };

export interface SubscriptionRepository {
  getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null>;
  /** False when the citizen already has one for that call (nothing written). */
  createSubscription(record: SubscriptionRecord): Promise<boolean>;
  listSubscriptionsOfUser(userId: string, query: ListQuery, pageSize: number): Promise<Page<SubscriptionRecord>>;
}

export interface SubscriptionDeps {
  subscriptions: SubscriptionRepository;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  /** The call's bands, for the citizen's monthly cost. */
  bands: { getBand(id: string): Promise<FeeBand | null> };
  /** The user's record names their newest ISEE (`lastIsee`, kept by the ISEE use cases): read from the table, not gsi2, which may lag. */
  users: {
    getUserItem(id: string): Promise<{ lastIsee?: { state: string; valueCents: number; year: number } | null } | null>;
  };
  ensureCitizen: EnsureCitizen;
  files: FileStore;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

export const toSummary = (record: SubscriptionRecord): SubscriptionSummary => ({
  id: record.id,
  state: record.state,
  announcementId: record.announcementId,
  announcement: record.announcement,
  rankingScore: record.rankingScore,
  weeklyHour: record.weeklyHour,
  cost: record.cost,
  dataInsert: record.dataInsert,
  dataUpdate: record.dataUpdate,
});

export function makeSubscriptionUseCases({
  subscriptions,
  calls,
  bands,
  users,
  ensureCitizen,
  files,
  audit,
  clock,
  ids,
}: SubscriptionDeps) {
  /**
   * What the citizen sees (issue 7): once approved, `cost` is the current month's fee in euro (design §4,
   * monthlyFee on the call's bands and the latest validated ISEE); null otherwise.
   */
  const withCost = async (record: SubscriptionRecord): Promise<SubscriptionSummary> => {
    const summary = toSummary(record);
    if (record.state !== 'VALIDATED' || record.weeklyHour === null) return { ...summary, cost: null };
    const call = await calls.getCall(record.announcementId);
    const callBands = call
      ? (await Promise.all(call.bandsId.map((id) => bands.getBand(id)))).filter((b): b is FeeBand => b !== null)
      : [];
    const fee = subscriptionFee(record, callBands, clock.now());
    return { ...summary, cost: fee ? toEuros(fee.amountCents) : null };
  };

  const withLinks = async (record: SubscriptionRecord): Promise<Subscription> => ({
    ...(await withCost(record)),
    subscriptionFiles: await linkFiles(files, record.files),
  });

  const summaries = async (page: Promise<Page<SubscriptionRecord>>): Promise<Page<SubscriptionSummary>> => {
    const { items, nextCursor } = await page;
    return { items: await Promise.all(items.map(withCost)), nextCursor };
  };

  return {
    /**
     * A citizen asks to join a call, with up to 5 files (domain: assertCanSubscribe). Every refusal is a
     * 400 (or 404) and writes nothing; eligibility is checked before any file is claimed.
     */
    async subscribe(callId: string, input: SubscribeInput, actor: Actor): Promise<Subscription> {
      const userId = await ensureCitizen(actor);
      const call = await calls.getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      const newestIsee = (await users.getUserItem(userId))?.lastIsee ?? null;
      assertCanSubscribe(call, newestIsee);
      if (await subscriptions.getSubscription(call.id, userId))
        throw new ValidationError(messages.subscription.alreadySubscribed);

      const id = subscriptionId(call.id, userId);
      const claimed = await claimFiles(files, ids, actor.sub, `subscriptions/${id}`, input.files);
      const now = clock.now();
      const record = newSubscription({
        call,
        person: { userId, fiscalCode: actor.fiscalCode!, firstName: actor.firstName, lastName: actor.lastName },
        now,
        files: claimed,
        isee: newestIsee ? { valueCents: newestIsee.valueCents, year: newestIsee.year, state: newestIsee.state } : null,
      });
      if (!(await subscriptions.createSubscription(record))) {
        // Two requests at once: the other one won; this one's files go.
        await deleteFiles(files, claimed);
        throw new ValidationError(messages.subscription.alreadySubscribed);
      }
      await audit.record({ actor, entity: 'subscription', id, action: 'create', before: null, after: record }, now);
      return withLinks(record);
    },

    /** The signed-in citizen's own subscription to a call, or null. */
    async getMySubscription(callId: string, actor: Actor): Promise<{ subscription: Subscription | null }> {
      const record = await subscriptions.getSubscription(callId, await ensureCitizen(actor));
      return { subscription: record ? await withLinks(record) : null };
    },

    listMySubscriptions: async (query: ListQuery, actor: Actor) =>
      summaries(subscriptions.listSubscriptionsOfUser(await ensureCitizen(actor), query, SUBSCRIPTIONS_PAGE_SIZE)),

    /** A user's subscriptions, for the operator's (and the delegate's) user record. */
    async listUserSubscriptions(userId: string, query: ListQuery) {
      if (!(await users.getUserItem(userId))) throw new NotFoundError(userMessages.notFound);
      return summaries(subscriptions.listSubscriptionsOfUser(userId, query, USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE));
    },

    /** One of the citizen's own subscriptions; anyone else's is "not there" (404), as design §3 says. */
    async getSubscription(id: string, actor: Actor): Promise<Subscription> {
      const userId = await ensureCitizen(actor);
      const ids = parseSubscriptionId(id);
      const record = ids && ids.userId === userId ? await subscriptions.getSubscription(ids.callId, ids.userId) : null;
      if (!record) throw new NotFoundError(messages.subscription.notFound);
      return withLinks(record);
    },
  };
}
