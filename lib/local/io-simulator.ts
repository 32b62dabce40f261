import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Closable } from './stores.ts';
import { municipality } from '../../web/src/config/municipality.ts';

/**
 * The IO app's services API on this machine, for `npm start` and the tests. It follows IO's own code, not our
 * notes (the files named below are the authority):
 *
 * - In front, the API gateway (pagopa/io-infra src/legacy-apim/prod/api_product/io_services/_base_policy.xml):
 *   the subscription key (401 without a valid `Ocp-Apim-Subscription-Key`, APIM's JSON body) and the rate
 *   limit, 150 calls per 5 s per key, answered 429 with the seconds to wait in `x-rate-limit-retry-after`.
 * - `POST /api/v1/profiles` { fiscal_code } (io-functions-services GetLimitedProfileByPOST/handler.ts,
 *   utils/profile.ts): the key needs the group ApiLimitedProfileRead; the caller's IP must be in the service's
 *   authorised CIDRs; a limited (trial) key, ApiLimitedMessageWrite, reads only its authorised recipients
 *   (403 'Recipient forbidden'); 404 without a profile; 200 { sender_allowed, preferred_languages }.
 * - `POST /api/v1/messages` (io-messages apps/services-func/src/functions/CreateMessage/handler.ts): the group
 *   ApiMessageWrite or ApiLimitedMessageWrite; the NewMessage validated (io-functions-commons
 *   openapi/definitions_v2.yaml: fiscal code pattern with the month letter, subject 10–120, markdown
 *   80–10000, amount 1–9999999999 cents, notice number ^[0123][0-9]{17}$, payee an 11-digit fiscal code);
 *   a `payee` needs the group ApiMessageWriteWithPayee (403 otherwise, not granted by default); IP check;
 *   recipient check of a limited key; an amount above the service's max_allowed_payment_amount is a 400
 *   ('Error while sending payment metadata'). Then 201 { id } (a ULID) with its Location, and the message is
 *   processed afterwards, as IO's ProcessMessage does: PROCESSED, or REJECTED when the citizen has no profile
 *   or blocks the service then — IO does not look at the profile before answering 201.
 * - `GET /api/v1/messages/{fiscal_code}/{id}` (io-messages GetMessage/handler.ts): the group ApiMessageRead;
 *   200 { message, status } with status ACCEPTED until processed (the content once processed), 404 unknown.
 *
 * Admin (JSON): `GET /admin/messages` (received, oldest first, with their status; `?fiscal_code=`),
 * `POST /admin/profiles` { fiscalCode, state: 'active' | 'none' | 'blocked' }, `POST /admin/outcomes`
 * { fiscalCode, status: 'REJECTED' | 'FAILED' | 'ACCEPTED' | 'THROTTLED' | 'PROCESSED' } (what IO's processing
 * makes of this citizen's next messages: accepted with 201, then rejected or failed, or held on the way;
 * PROCESSED switches it off), `POST /admin/service` { groups, maxAllowedPaymentAmount, authorizedRecipients,
 * authorizedCidrs, rateLimit: { calls, renewalPeriodSeconds }, processingMs } (the service and its key, merged),
 * `POST /admin/faults` { operation: 'profiles' | 'messages' | 'status' | '*', kind: '5xx' | 'timeout' | '429' (or, for
 * messages, 'lost-answer' | 'created-5xx': the message is created and its answer lost or a 500), retryAfter?: seconds,
 * times: n | 'always' }, `POST /admin/reset` {} (switches and the service back to the
 * start; { "messages": true } also forgets the messages), `GET /admin/state`. `GET /` lists the messages.
 *
 * State lives in memory: a restart empties it.
 */
/** The service's organisation, the payee IO sets: the council the portal shows (web/src/config/municipality.ts). */
export const LOCAL_IO = {
  apiKey: 'local-io-subscription-key',
  organizationFiscalCode: municipality.fiscalCode,
} as const;

/**
 * The groups a service's key gets by default (io-services-cms apps/backoffice APIM_USER_GROUPS: apimessagewrite,
 * apiinforead, apimessageread, apilimitedprofileread, apiservicewrite): not ApiMessageWriteWithPayee.
 */
export const DEFAULT_IO_GROUPS = [
  'ApiMessageWrite',
  'ApiInfoRead',
  'ApiMessageRead',
  'ApiLimitedProfileRead',
  'ApiServiceWrite',
] as const;

export interface IoServiceSettings {
  /** The API groups of the key (the gateway's x-user-groups; io-functions-commons azure_api_auth.ts). */
  groups: string[];
  /** The service's max_allowed_payment_amount in cents: 0 until approved for payments, then 1,000,000 (io-services-cms). */
  maxAllowedPaymentAmount: number;
  /** The fiscal codes a limited (trial) key may read and write to. */
  authorizedRecipients: string[];
  /** The caller IPs the service accepts (IPv4 CIDRs; 0.0.0.0/0 any). */
  authorizedCidrs: string[];
  /** The gateway's limit: calls per renewal period per key (150 per 5 s for a standard key). */
  rateLimit: { calls: number; renewalPeriodSeconds: number };
  /** How long IO takes to process an accepted message (ProcessMessage runs from a queue). */
  processingMs: number;
}

/** The local service: approved for payments (a new one has 0), a production key with the default groups. */
const defaultService = (): IoServiceSettings => ({
  groups: [...DEFAULT_IO_GROUPS],
  maxAllowedPaymentAmount: 1_000_000,
  authorizedRecipients: [],
  authorizedCidrs: ['0.0.0.0/0'],
  rateLimit: { calls: 150, renewalPeriodSeconds: 5 },
  processingMs: 300,
});

/** io-ts-commons src/strings.ts `FiscalCode`: IO's pattern (no check character, the month letter restricted). */
const FISCAL_CODE = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;
const ORGANIZATION_FISCAL_CODE = /^[0-9]{11}$/;
const NOTICE_NUMBER = /^[0123][0-9]{17}$/;
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

type Operation = 'profiles' | 'messages' | 'status';
/**
 * 5xx, timeout, 429: the gateway stops the call. lost-answer and created-5xx (messages only): IO creates the
 * message, then the answer is lost (the connection held, then dropped) or is a 500 — what a caller that
 * retries turns into a second message (IO has no idempotency key).
 */
type FaultKind = '5xx' | 'timeout' | '429' | 'lost-answer' | 'created-5xx';
interface FaultRule {
  operation: Operation | '*';
  kind: FaultKind;
  retryAfter: number;
  remaining: number | null;
}
/** io-functions-commons `MessageStatusValue` and `RejectionReason`. */
export type IoMessageStatusValue = 'ACCEPTED' | 'THROTTLED' | 'FAILED' | 'PROCESSED' | 'REJECTED';
type Outcome = Exclude<IoMessageStatusValue, 'PROCESSED'>;
export interface ReceivedIoMessage {
  id: string;
  fiscal_code: string;
  feature_level_type: string;
  content: Record<string, any>;
  receivedAt: string;
  status: IoMessageStatusValue;
  rejection_reason?: 'SERVICE_NOT_ALLOWED' | 'USER_NOT_FOUND' | 'UNKNOWN';
}

export interface IoSimulatorOptions {
  port: number;
  host?: string;
  apiKey?: string;
  /** How long a "timeout" fault holds a request before dropping it (default 60 s). */
  holdMs?: number;
  /** The service and its key, over the local defaults (e.g. groups with ApiMessageWriteWithPayee). */
  service?: Partial<IoServiceSettings>;
}

export interface IoSimulator extends Closable {
  url: string;
  apiKey: string;
}

/** The first thing wrong with a NewMessage body, as IO's validation would name it; null when valid. */
export function newMessageProblem(body: any): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body: an object is required';
  if (body.fiscal_code !== undefined && (typeof body.fiscal_code !== 'string' || !FISCAL_CODE.test(body.fiscal_code)))
    return `value ${JSON.stringify(body.fiscal_code)} at root.fiscal_code is not a valid FiscalCode`;
  if (
    body.feature_level_type !== undefined &&
    body.feature_level_type !== 'STANDARD' &&
    body.feature_level_type !== 'ADVANCED'
  )
    return 'feature_level_type: STANDARD or ADVANCED';
  const content = body.content;
  if (!content || typeof content !== 'object' || Array.isArray(content)) return 'content: required';
  if (typeof content.subject !== 'string' || content.subject.length < 10 || content.subject.length > 120)
    return 'content.subject: a string of 10 to 120 characters';
  if (typeof content.markdown !== 'string' || content.markdown.length < 80 || content.markdown.length > 10000)
    return 'content.markdown: a string of 80 to 10000 characters';
  if (
    content.due_date !== undefined &&
    (typeof content.due_date !== 'string' ||
      !UTC_TIMESTAMP.test(content.due_date) ||
      Number.isNaN(Date.parse(content.due_date)))
  ) {
    return 'content.due_date: an ISO-8601 UTC timestamp';
  }
  const payment = content.payment_data;
  if (payment !== undefined) {
    if (!payment || typeof payment !== 'object' || Array.isArray(payment)) return 'content.payment_data: an object';
    if (!Number.isInteger(payment.amount) || payment.amount < 1 || payment.amount > 9999999999)
      return 'content.payment_data.amount: an integer of cents (1–9999999999)';
    if (typeof payment.notice_number !== 'string' || !NOTICE_NUMBER.test(payment.notice_number))
      return 'content.payment_data.notice_number: ^[0123][0-9]{17}$';
    if (payment.invalid_after_due_date !== undefined && typeof payment.invalid_after_due_date !== 'boolean')
      return 'content.payment_data.invalid_after_due_date: a boolean';
    if (
      payment.payee !== undefined &&
      (!payment.payee ||
        typeof payment.payee.fiscal_code !== 'string' ||
        !ORGANIZATION_FISCAL_CODE.test(payment.payee.fiscal_code))
    ) {
      return 'content.payment_data.payee.fiscal_code: an OrganizationFiscalCode (11 digits)';
    }
  }
  return null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A ULID (what IO's ulidGenerator makes): 10 characters of time, 16 of randomness, Crockford's base 32. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function ulid(now = Date.now()): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  return time + Array.from(randomBytes(16), (b) => CROCKFORD[b % 32]).join('');
}

const ipv4 = (address: string) => {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255)
    ? parts.reduce((n, p) => n * 256 + p, 0)
    : null;
};
/** Whether the caller's address is in one of the CIDRs (io-functions-commons utils/source_ip_check.ts). */
function ipAllowed(remote: string | undefined, cidrs: readonly string[]): boolean {
  const address = ipv4((remote ?? '').replace(/^::ffff:/, '').replace(/^::1$/, '127.0.0.1'));
  return cidrs.some((cidr) => {
    const [base, bits = '32'] = cidr.split('/');
    const network = ipv4(base ?? '');
    const size = Number(bits);
    if (address === null || network === null || !(size >= 0 && size <= 32)) return false;
    const block = 2 ** (32 - size);
    return Math.floor(address / block) === Math.floor(network / block);
  });
}

export async function startIoSimulator(options: IoSimulatorOptions): Promise<IoSimulator> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? LOCAL_IO.apiKey;
  const holdMs = options.holdMs ?? 60_000;
  const initialService = (): IoServiceSettings => ({ ...defaultService(), ...options.service });
  let service = initialService();
  const messages: ReceivedIoMessage[] = [];
  const profiles = new Map<string, 'none' | 'blocked'>();
  const outcomes = new Map<string, Outcome>();
  let faults: FaultRule[] = [];
  let window = { start: 0, calls: 0 };
  const held = new Set<ServerResponse>();

  const json = (
    res: ServerResponse,
    status: number,
    body: unknown,
    type = 'application/json',
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...headers });
    res.end(JSON.stringify(body));
  };
  /** io-ts-commons ResponseErrorGeneric: application/problem+json { title, status, detail }. */
  const problem = (res: ServerResponse, status: number, title: string, detail: string) =>
    json(res, status, { title, status, detail }, 'application/problem+json');
  const forbiddenNotAuthorized = (
    res: ServerResponse,
    detail = 'You do not have enough permission to complete the operation you requested',
  ) => problem(res, 403, 'You are not allowed here', detail);
  const readJson = (req: IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve(text ? JSON.parse(text) : {});
        } catch {
          resolve(Symbol.for('invalid-json'));
        }
      });
      req.on('error', () => resolve(Symbol.for('invalid-json')));
    });

  /** Takes a fault for this operation, if one is switched on. */
  const takeFault = (operation: Operation) => {
    const rule = faults.find((f) => f.operation === operation || f.operation === '*');
    if (!rule) return null;
    if (rule.remaining !== null) rule.remaining -= 1;
    faults = faults.filter((f) => f.remaining === null || f.remaining > 0);
    return rule;
  };
  /** The messages answered wrongly after being created (the fault kinds lost-answer and created-5xx). */
  const afterCreate = new WeakMap<ServerResponse, FaultKind>();
  const hold = (res: ServerResponse) => {
    held.add(res);
    const timer = setTimeout(() => {
      held.delete(res);
      res.destroy();
    }, holdMs);
    res.on('close', () => {
      clearTimeout(timer);
      held.delete(res);
    });
  };
  /** APIM's rate-limit-by-key answer: its JSON and the seconds to wait in the policy's header. */
  const tooManyRequests = (res: ServerResponse, seconds: number) =>
    json(
      res,
      429,
      { statusCode: 429, message: `Rate limit is exceeded. Try again in ${seconds} seconds.` },
      'application/json',
      { 'x-rate-limit-retry-after': String(seconds) },
    );

  /** The gateway: a fault switched on, the subscription key, the rate limit. Answers and returns false when it stops the call. */
  function gateway(operation: Operation, req: IncomingMessage, res: ServerResponse): boolean {
    const fault = takeFault(operation);
    if (fault?.kind === 'lost-answer' || fault?.kind === 'created-5xx') afterCreate.set(res, fault.kind);
    if (fault?.kind === '5xx')
      return (problem(res, 503, 'Service Unavailable', 'The service is temporarily unavailable'), false);
    if (fault?.kind === 'timeout') return (hold(res), false);
    if (fault?.kind === '429') return (tooManyRequests(res, fault.retryAfter), false);
    const key = req.headers['ocp-apim-subscription-key'];
    if (key !== apiKey) {
      const message = key
        ? 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.'
        : 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.';
      return (json(res, 401, { statusCode: 401, message }), false);
    }
    const now = Date.now();
    const period = service.rateLimit.renewalPeriodSeconds * 1000;
    if (now - window.start >= period) window = { start: now, calls: 0 };
    window.calls += 1;
    if (window.calls > service.rateLimit.calls)
      return (tooManyRequests(res, Math.max(1, Math.ceil((window.start + period - now) / 1000))), false);
    return true;
  }

  const has = (group: string) => service.groups.includes(group);
  /** io-messages CreateMessage `canWriteMessage`: a limited key writes only to its authorised recipients. */
  const canWriteTo = (fiscalCode: string) =>
    has('ApiLimitedMessageWrite') ? service.authorizedRecipients.includes(fiscalCode) : has('ApiMessageWrite');

  /** What IO's processing makes of a message once its time comes (processingMs after it arrived; ProcessMessage/handler.ts). */
  function settle(message: ReceivedIoMessage) {
    if (
      (message.status !== 'ACCEPTED' && message.status !== 'THROTTLED') ||
      Date.now() < Date.parse(message.receivedAt) + service.processingMs
    )
      return;
    const outcome = outcomes.get(message.fiscal_code);
    const profile = profiles.get(message.fiscal_code);
    if (outcome) {
      message.status = outcome;
      if (outcome === 'REJECTED') message.rejection_reason = 'UNKNOWN';
    } else if (profile) {
      message.status = 'REJECTED';
      message.rejection_reason = profile === 'none' ? 'USER_NOT_FOUND' : 'SERVICE_NOT_ALLOWED';
    } else {
      message.status = 'PROCESSED';
      // Without a payee IO makes the service's organisation the payee.
      const payment = message.content.payment_data;
      if (payment && !payment.payee) payment.payee = { fiscal_code: LOCAL_IO.organizationFiscalCode };
    }
  }

  async function profilesApi(req: IncomingMessage, res: ServerResponse) {
    if (!has('ApiLimitedProfileRead')) return forbiddenNotAuthorized(res);
    const body = (await readJson(req)) as any;
    if (typeof body === 'symbol' || typeof body?.fiscal_code !== 'string' || !FISCAL_CODE.test(body.fiscal_code)) {
      return problem(
        res,
        400,
        'Invalid FiscalCodePayload',
        `value ${JSON.stringify(typeof body === 'symbol' ? null : body?.fiscal_code)} at root.fiscal_code is not a valid FiscalCode`,
      );
    }
    if (!ipAllowed(req.socket.remoteAddress, service.authorizedCidrs)) return forbiddenNotAuthorized(res);
    // Sandboxed keys get 403 for anyone not authorised, so they learn nothing of who has IO.
    if (!canWriteTo(body.fiscal_code))
      return problem(res, 403, 'Recipient forbidden', 'You are not allowed to issue requests for the recipient.');
    const state = profiles.get(body.fiscal_code);
    if (state === 'none')
      return problem(res, 404, 'Profile not found', 'The profile you requested was not found in the system.');
    return json(res, 200, { sender_allowed: state !== 'blocked', preferred_languages: ['it_IT'] });
  }

  async function messagesApi(req: IncomingMessage, res: ServerResponse) {
    if (!has('ApiMessageWrite') && !has('ApiLimitedMessageWrite')) return forbiddenNotAuthorized(res);
    const body = (await readJson(req)) as any;
    if (typeof body === 'symbol') return problem(res, 400, 'Invalid message structure', 'the body is not valid JSON');
    const wrong = newMessageProblem(body);
    if (wrong) return problem(res, 400, 'Invalid message structure', wrong);
    if (body.content.payment_data?.payee !== undefined && !has('ApiMessageWriteWithPayee')) {
      return forbiddenNotAuthorized(res, 'You do not have enough permissions to send a payment message with payee');
    }
    if (!ipAllowed(req.socket.remoteAddress, service.authorizedCidrs)) return forbiddenNotAuthorized(res);
    if (typeof body.fiscal_code !== 'string')
      return problem(
        res,
        400,
        'Bad parameters',
        'The fiscalcode parameter must be specified in the path or in the payload',
      );
    if (!canWriteTo(body.fiscal_code)) {
      return has('ApiLimitedMessageWrite')
        ? problem(res, 403, 'Recipient forbidden', 'You are not allowed to issue requests for the recipient.')
        : problem(res, 403, 'Production call forbidden', 'You are not allowed to issue production calls at this time.');
    }
    const amount = body.content.payment_data?.amount;
    if (amount && amount > service.maxAllowedPaymentAmount) {
      return problem(
        res,
        400,
        'Error while sending payment metadata',
        `The requested amount (${amount} cents) exceeds the maximum allowed for this service (${service.maxAllowedPaymentAmount} cents)`,
      );
    }
    const now = Date.now();
    const message: ReceivedIoMessage = {
      id: ulid(now),
      fiscal_code: body.fiscal_code,
      feature_level_type: body.feature_level_type ?? 'STANDARD',
      content: structuredClone(body.content),
      receivedAt: new Date(now).toISOString(),
      status: 'ACCEPTED',
    };
    messages.push(message);
    const lost = afterCreate.get(res);
    if (lost === 'lost-answer') return hold(res);
    if (lost === 'created-5xx') return problem(res, 500, 'Internal server error', 'Error while processing the message');
    return json(res, 201, { id: message.id }, 'application/json', {
      location: `/api/v1/messages/${message.fiscal_code}/${message.id}`,
    });
  }

  function messageApi(fiscalCode: string, id: string, req: IncomingMessage, res: ServerResponse) {
    if (!has('ApiMessageRead')) return forbiddenNotAuthorized(res);
    if (!FISCAL_CODE.test(fiscalCode))
      return problem(res, 400, 'Invalid FiscalCode', `value ${JSON.stringify(fiscalCode)} is not a valid FiscalCode`);
    if (!ipAllowed(req.socket.remoteAddress, service.authorizedCidrs)) return forbiddenNotAuthorized(res);
    const message = messages.find((m) => m.id === id && m.fiscal_code === fiscalCode);
    if (!message)
      return problem(res, 404, 'Message not found', 'The message that you requested was not found in the system.');
    settle(message);
    const { content, receivedAt, feature_level_type } = message;
    return json(res, 200, {
      message: {
        id,
        fiscal_code: fiscalCode,
        created_at: receivedAt,
        sender_service_id: 'local-service',
        feature_level_type,
        ...(message.status === 'PROCESSED' ? { content } : {}),
      },
      status: message.status,
    });
  }

  async function admin(pathname: string, url: URL, req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && pathname === '/admin/messages') {
      const fiscalCode = url.searchParams.get('fiscal_code');
      messages.forEach(settle);
      return json(res, 200, { messages: fiscalCode ? messages.filter((m) => m.fiscal_code === fiscalCode) : messages });
    }
    if (req.method === 'GET' && pathname === '/admin/state') {
      return json(res, 200, {
        service,
        faults,
        profiles: Object.fromEntries(profiles),
        outcomes: Object.fromEntries(outcomes),
        messages: messages.length,
      });
    }
    if (req.method !== 'POST') return problem(res, 405, 'Method Not Allowed', `${req.method} ${pathname}`);
    const body = (await readJson(req)) as any;
    if (typeof body === 'symbol' || !body || typeof body !== 'object')
      return problem(res, 400, 'Bad Request', 'JSON non valido');
    if (pathname === '/admin/profiles') {
      if (typeof body.fiscalCode !== 'string' || !['active', 'none', 'blocked'].includes(body.state))
        return problem(res, 400, 'Bad Request', '{ fiscalCode, state: active | none | blocked }');
      if (body.state === 'active') profiles.delete(body.fiscalCode.toUpperCase());
      else profiles.set(body.fiscalCode.toUpperCase(), body.state);
      return json(res, 200, { ok: true });
    }
    if (pathname === '/admin/outcomes') {
      if (
        typeof body.fiscalCode !== 'string' ||
        !['REJECTED', 'FAILED', 'ACCEPTED', 'THROTTLED', 'PROCESSED'].includes(body.status)
      ) {
        return problem(
          res,
          400,
          'Bad Request',
          '{ fiscalCode, status: REJECTED | FAILED | ACCEPTED | THROTTLED | PROCESSED }',
        );
      }
      if (body.status === 'PROCESSED') outcomes.delete(body.fiscalCode.toUpperCase());
      else outcomes.set(body.fiscalCode.toUpperCase(), body.status);
      return json(res, 200, { ok: true });
    }
    if (pathname === '/admin/service') {
      const next = { ...service, ...body, rateLimit: { ...service.rateLimit, ...body.rateLimit } } as IoServiceSettings;
      const list = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
      if (
        !list(next.groups) ||
        !list(next.authorizedRecipients) ||
        !list(next.authorizedCidrs) ||
        !Number.isInteger(next.maxAllowedPaymentAmount) ||
        next.maxAllowedPaymentAmount < 0
      ) {
        return problem(
          res,
          400,
          'Bad Request',
          '{ groups, maxAllowedPaymentAmount, authorizedRecipients, authorizedCidrs, rateLimit: { calls, renewalPeriodSeconds }, processingMs }',
        );
      }
      if (!(next.rateLimit.calls > 0 && next.rateLimit.renewalPeriodSeconds > 0 && next.processingMs >= 0))
        return problem(res, 400, 'Bad Request', 'rateLimit and processingMs: positive numbers');
      service = { ...next, authorizedRecipients: next.authorizedRecipients.map((c) => c.toUpperCase()) };
      window = { start: 0, calls: 0 };
      return json(res, 200, { ok: true, service });
    }
    if (pathname === '/admin/faults') {
      const times = body.times ?? 1;
      const retryAfter = body.retryAfter ?? 1;
      if (
        !['profiles', 'messages', 'status', '*'].includes(body.operation) ||
        !['5xx', 'timeout', '429', 'lost-answer', 'created-5xx'].includes(body.kind) ||
        (['lost-answer', 'created-5xx'].includes(body.kind) && body.operation !== 'messages') ||
        !(times === 'always' || (Number.isInteger(times) && times > 0)) ||
        !(Number.isInteger(retryAfter) && retryAfter >= 0)
      ) {
        return problem(
          res,
          400,
          'Bad Request',
          '{ operation: profiles | messages | status | *, kind: 5xx | timeout | 429 (or, for messages, lost-answer | created-5xx), retryAfter?: seconds, times: n | always }',
        );
      }
      faults.push({
        operation: body.operation,
        kind: body.kind,
        retryAfter,
        remaining: times === 'always' ? null : times,
      });
      return json(res, 200, { ok: true });
    }
    if (pathname === '/admin/reset') {
      faults = [];
      profiles.clear();
      outcomes.clear();
      service = initialService();
      window = { start: 0, calls: 0 };
      if (body.messages === true) messages.length = 0;
      return json(res, 200, { ok: true });
    }
    return problem(res, 404, 'Not Found', pathname);
  }

  function page(res: ServerResponse) {
    messages.forEach(settle);
    const rows = messages
      .slice()
      .reverse()
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.receivedAt)}</td><td>${escapeHtml(m.fiscal_code)}</td><td>${escapeHtml(String(m.content.subject))}</td>` +
          `<td>${m.content.payment_data ? `${escapeHtml(String(m.content.payment_data.amount))} cent., avviso ${escapeHtml(String(m.content.payment_data.notice_number))}` : '—'}</td>` +
          `<td>${escapeHtml(m.status)}${m.rejection_reason ? ` (${escapeHtml(m.rejection_reason)})` : ''}</td><td>${escapeHtml(m.id)}</td></tr>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Simulatore app IO</title></head><body><main><h1>Simulatore app IO</h1>` +
        `<p>Messaggi ricevuti: ${messages.length}. Interruttori: <code>POST /admin/profiles</code>, <code>/admin/outcomes</code>, <code>/admin/service</code>, <code>/admin/faults</code>, <code>/admin/reset</code>.</p>` +
        `<table><caption>Messaggi ricevuti (dal più recente)</caption><thead><tr><th scope="col">Ricevuto</th><th scope="col">Codice fiscale</th><th scope="col">Oggetto</th><th scope="col">Pagamento</th><th scope="col">Stato</th><th scope="col">Id</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`,
    );
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://io.local');
    const { pathname } = url;
    const message = /^\/api\/v1\/messages\/([^/]+)\/([^/]+)$/.exec(pathname);
    const handle = async () => {
      if (req.method === 'POST' && pathname === '/api/v1/profiles')
        return gateway('profiles', req, res) && profilesApi(req, res);
      if (req.method === 'POST' && pathname === '/api/v1/messages')
        return gateway('messages', req, res) && messagesApi(req, res);
      if (req.method === 'GET' && message)
        return (
          gateway('status', req, res) &&
          messageApi(decodeURIComponent(message[1]!), decodeURIComponent(message[2]!), req, res)
        );
      if (pathname.startsWith('/admin/')) return admin(pathname, url, req, res);
      if (req.method === 'GET' && pathname === '/') return page(res);
      return problem(res, 404, 'Not Found', pathname);
    };
    handle().catch(() => {
      if (!res.headersSent) problem(res, 500, 'Internal Server Error', 'errore del simulatore');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`,
    apiKey,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
