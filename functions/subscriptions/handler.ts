import { CallState } from '../domain/calls.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import { SUBSCRIPTIONS_PAGE_SIZE, USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE, parseSubscriptionId, subscriptionId, type SubscribeInput, type Subscription } from '../domain/subscriptions.ts';
import { recordAudit } from '../adapters/audit-log.ts';
import { resourceHandler } from '../http/handler.ts';
import { subscriptionRoutes } from './routes.ts';
import { claimFiles, deleteFiles, linkFiles } from '../calls/files.ts';
import { getCall } from '../calls/repository.ts';
import { hasValidatedIsee } from '../isee/repository.ts';
import { userMessages } from '../domain/users.ts';
import { ensureCitizen } from '../users/citizens.ts';
import { getUser } from '../users/repository.ts';
import * as subscriptions from './repository.ts';
import type { SubscriptionRecord } from './repository.ts';

const withLinks = async (record: SubscriptionRecord): Promise<Subscription> => ({
  ...subscriptions.summary(record),
  subscriptionFiles: await linkFiles(record.files),
});

export const handler = resourceHandler(subscriptionRoutes, {
  /** A citizen asks to join an OPEN call, with up to 5 files. Every refusal is a 400 (or 404) and writes nothing. */
  subscribe: async ({ params, body, actor }) => {
    const input = body as SubscribeInput;
    const userId = await ensureCitizen(actor!);
    const call = await getCall(params.id);
    if (!call) throw new NotFoundError(messages.call.notFound);
    if (call.state !== CallState.OPEN) throw new ValidationError(messages.call.notOpen);

    // Eligibility, before any file is claimed: applying is blocked until the newest ISEE is validated (part 2 §4).
    if (!(await hasValidatedIsee(userId))) throw new ValidationError(messages.subscription.noValidatedIsee);

    if (await subscriptions.getSubscription(call.id, userId)) throw new ValidationError(messages.subscription.alreadySubscribed);

    const id = subscriptionId(call.id, userId);
    const files = await claimFiles(actor!.sub, `subscriptions/${id}`, input.files);
    const now = new Date().toISOString();
    const record: SubscriptionRecord = {
      id,
      state: 'ADDED',
      announcementId: call.id,
      announcement: { id: call.id, name: call.name, year: call.year, service: { id: call.serviceId, name: call.serviceName } },
      rankingScore: null,
      weeklyHour: null,
      cost: null,
      dataInsert: now,
      dataUpdate: now,
      userId,
      fiscalCode: actor!.fiscalCode!,
      firstName: actor!.firstName,
      lastName: actor!.lastName,
      files,
    };
    if (!(await subscriptions.createSubscription(record))) {
      // Two requests at once: the other one won; this one's files go.
      await deleteFiles(files);
      throw new ValidationError(messages.subscription.alreadySubscribed);
    }
    await recordAudit({ actor: actor!, entity: 'subscription', id, action: 'create', before: null, after: record });
    return withLinks(record);
  },

  /** The signed-in citizen's own subscription to a call, or null. */
  getMySubscription: async ({ params, actor }) => {
    const userId = await ensureCitizen(actor!);
    const record = await subscriptions.getSubscription(params.id, userId);
    return { subscription: record ? await withLinks(record) : null };
  },

  listMySubscriptions: async ({ query, actor }) =>
    subscriptions.listSubscriptionsOfUser(await ensureCitizen(actor!), query, SUBSCRIPTIONS_PAGE_SIZE),

  /** A user's subscriptions, for the operator's (and the delegate's) user record. */
  listUserSubscriptions: async ({ params, query }) => {
    if (!(await getUser(params.id))) throw new NotFoundError(userMessages.notFound);
    return subscriptions.listSubscriptionsOfUser(params.id, query, USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE);
  },

  /** One of the citizen's own subscriptions; anyone else's is "not there" (404), as design §3 says. */
  getSubscription: async ({ params, actor }) => {
    const userId = await ensureCitizen(actor!);
    const ids = parseSubscriptionId(params.id);
    const record = ids && ids.userId === userId ? await subscriptions.getSubscription(ids.callId, ids.userId) : null;
    if (!record) throw new NotFoundError(messages.subscription.notFound);
    return withLinks(record);
  },
});
