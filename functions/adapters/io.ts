import type { IoMessageContent } from '../domain/notices.ts';
import type { IoMessages, IoMessageStatus } from './ports/io.ts';

/**
 * The IO app's services API (reference.md "IO app messages"; pagopa/io-functions-services openapi/index.yaml),
 * over fetch, with the header Ocp-Apim-Subscription-Key:
 *   POST {base}/api/v1/profiles  { fiscal_code }                  → 200 { sender_allowed }, 404: no IO account
 *   POST {base}/api/v1/messages  { fiscal_code, feature_level_type: 'STANDARD', content } → 201 { id }
 *   GET  {base}/api/v1/messages/{fiscal_code}/{id}               → 200 { message, status }
 * A message goes only after a 200 with sender_allowed. 201 means accepted, not delivered: IO processes the
 * message afterwards and its status says PROCESSED (in the inbox) or REJECTED / FAILED.
 *
 * `baseUrl` may end with IO's `/api/v1` or not (the paths below carry it once).
 *
 * Every call of a send shares one deadline (the API function has 29 s). The profile check and the status
 * reads are retried on 5xx, timeouts and refused connections with exponential backoff; a 429 (the gateway's
 * quota, io-infra) waits the seconds its `x-rate-limit-retry-after` says. A wait or an attempt that does not
 * fit before the deadline is not made: `IoUnavailable` at once (with the seconds IO asked for). The message
 * itself is posted only when a whole attempt fits, and **never twice**: IO has no idempotency key, so a POST
 * /messages that timed out, was cut or answered 5xx may have created the message, and a retry would send the
 * citizen a second one. That outcome is `IoUnconfirmed`, for the operator to check; only a 429 (the gateway
 * refused before IO saw it) or a connection never made is tried again. `options.beforeMessage` runs just
 * before the message is posted (the use case records the attempt there).
 *
 * IO's refusals are `IoRefused`, never retried, each with its reason (io-messages CreateMessage/handler.ts,
 * io-functions-services utils/profile.ts, io-functions-commons azure_api_auth.ts and source_ip_check.ts):
 *   NO_PROFILE, SENDER_NOT_ALLOWED — this citizen; AMOUNT_NOT_ALLOWED — above the service's
 *   max_allowed_payment_amount (`maxAllowed` in cents); REJECTED — another 400, with IO's detail;
 *   RECIPIENT_NOT_AUTHORIZED — 403 'Recipient forbidden' (a limited/trial key and a citizen not among its
 *   recipients); FORBIDDEN — another 403 (the key lacks a group, or the caller's IP is not allowed);
 *   UNAUTHORIZED — 401 (the gateway does not know the key); NOT_FOUND — a 404 that is not IO's 'Profile not
 *   found' (io-functions-services utils/profile.ts: ResponseErrorNotFound("Profile not found", …)): a wrong
 *   base URL or path, the portal's configuration.
 */
export type IoRefusalReason =
  | 'NO_PROFILE'
  | 'SENDER_NOT_ALLOWED'
  | 'AMOUNT_NOT_ALLOWED'
  | 'REJECTED'
  | 'RECIPIENT_NOT_AUTHORIZED'
  | 'FORBIDDEN'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND';

/** The refusals that are the council's configuration (its key, its address), not the citizen's: nothing else will pass. */
export const IO_CONFIGURATION_REFUSALS: readonly IoRefusalReason[] = ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'];

export class IoRefused extends Error {
  override name = 'IoRefused';
  constructor(
    readonly reason: IoRefusalReason,
    readonly detail: string = '',
    /** AMOUNT_NOT_ALLOWED: the service's ceiling in cents. */
    readonly maxAllowed: number | null = null,
  ) {
    super(`IO: ${reason}${detail ? ` (${detail})` : ''}`);
  }
}

/** POST /messages timed out, was cut or answered 5xx: IO may have created the message. Never retried. */
export class IoUnconfirmed extends Error {
  override name = 'IoUnconfirmed';
}

export class IoUnavailable extends Error {
  override name = 'IoUnavailable';
  constructor(
    message: string,
    /** Set when IO's gateway asked to wait (429) longer than the time left: the seconds it asked for. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

export interface IoConfig {
  /** e.g. https://api.io.pagopa.it, with or without /api/v1. */
  baseUrl: string;
  apiKey: string;
  /** Per attempt (default 5 s). */
  timeoutMs?: number;
  /** Attempts after the first (default 3). */
  retries?: number;
  /** First backoff (default 250 ms), doubled at every retry, with jitter. */
  backoffMs?: number;
  /** What one call (a send with its profile check, or a status read) may take at most when no deadline is given (default 20 s). */
  budgetMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds (Date.now). */
  now?: () => number;
}

/** IO_BASE_URL and IO_API_KEY (the key from Secrets Manager in the cloud: lib/api-stack.ts); IO_TIMEOUT_MS optional. */
export function ioConfigFromEnv(env: NodeJS.ProcessEnv = process.env): IoConfig {
  const baseUrl = env.IO_BASE_URL?.trim();
  const apiKey = env.IO_API_KEY?.trim();
  if (!baseUrl) throw new Error('Missing environment variable IO_BASE_URL');
  if (!apiKey) throw new Error('Missing environment variable IO_API_KEY');
  const timeoutMs = Number(env.IO_TIMEOUT_MS) || undefined;
  return { baseUrl, apiKey, timeoutMs };
}

/** The least time worth starting a profile check or a status read with. */
const MIN_ATTEMPT_MS = 1000;
const STATUSES: readonly string[] = ['ACCEPTED', 'THROTTLED', 'PROCESSED', 'REJECTED', 'FAILED'];

/** fetch failed before any byte reached the server: the connection was refused, the name did not resolve. */
const neverConnected = (error: unknown) =>
  ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(String((error as { cause?: { code?: string } }).cause?.code));

/** A problem's title and detail (IO answers application/problem+json; the gateway { statusCode, message }). */
async function problemOf(response: Response): Promise<{ title: string; detail: string }> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    return {
      title: String(body.title ?? ''),
      detail: String(body.detail ?? body.message ?? body.title ?? `HTTP ${response.status}`),
    };
  } catch {
    return { title: '', detail: text.slice(0, 200) || `HTTP ${response.status}` };
  }
}

/** A refusal by IO's gateway or functions that no retry changes (401, 403), as its reason. */
async function accessRefusal(response: Response): Promise<IoRefused | null> {
  if (response.status === 401) return new IoRefused('UNAUTHORIZED', (await problemOf(response)).detail);
  if (response.status !== 403) return null;
  const { title, detail } = await problemOf(response);
  return new IoRefused(title === 'Recipient forbidden' ? 'RECIPIENT_NOT_AUTHORIZED' : 'FORBIDDEN', detail);
}

export function makeIo(config: IoConfig): IoMessages {
  const { baseUrl, apiKey, timeoutMs = 5000, retries = 3, backoffMs = 250, budgetMs = 20_000 } = config;
  const doFetch = config.fetch ?? fetch;
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = config.now ?? Date.now;
  const root = baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');

  /**
   * One call, retried on 5xx, 429 and timeouts while the deadline allows; any other answer is returned as it
   * is. An attempt starts only with `minAttemptMs` left, and lasts at most what is left.
   */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    deadline: number,
    minAttemptMs = MIN_ATTEMPT_MS,
    once = false,
  ): Promise<Response> {
    let lastProblem = 'no time left';
    let retryAfterMs: number | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        const wait = retryAfterMs ?? backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
        if (now() + wait + minAttemptMs > deadline) break;
        await sleep(wait);
      }
      const left = deadline - now();
      if (left < minAttemptMs) break;
      retryAfterMs = null;
      try {
        const response = await doFetch(`${root}${path}`, {
          method,
          headers: {
            accept: 'application/json',
            'Ocp-Apim-Subscription-Key': apiKey,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(Math.min(timeoutMs, left)),
        });
        if (response.status !== 429 && response.status < 500) return response;
        lastProblem = `HTTP ${response.status}`;
        if (once && response.status !== 429) {
          await response.body?.cancel().catch(() => undefined);
          throw new IoUnconfirmed(`IO ${method} ${path}: ${lastProblem}`);
        }
        if (response.status === 429) {
          const seconds = Number(
            response.headers.get('x-rate-limit-retry-after') ?? response.headers.get('retry-after'),
          );
          retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
        }
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (error instanceof IoUnconfirmed) throw error;
        lastProblem = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
        // A message whose request may have reached IO is not sent again; one never connected is.
        if (once && !neverConnected(error)) throw new IoUnconfirmed(`IO ${method} ${path}: ${lastProblem}`);
      }
    }
    throw new IoUnavailable(
      `IO ${method} ${path.split('/').slice(0, 4).join('/')}: ${lastProblem}`,
      retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
    );
  }

  return {
    async sendMessage(fiscalCode: string, content: IoMessageContent, options = {}) {
      const deadline = options.deadline ?? now() + budgetMs;
      const profile = await call('POST', '/api/v1/profiles', { fiscal_code: fiscalCode }, deadline);
      if (profile.status === 404) {
        const { title, detail } = await problemOf(profile);
        throw title === 'Profile not found' ? new IoRefused('NO_PROFILE') : new IoRefused('NOT_FOUND', detail);
      }
      const refusedProfile = await accessRefusal(profile);
      if (refusedProfile) throw refusedProfile;
      if (profile.status !== 200) throw new IoRefused('REJECTED', (await problemOf(profile)).detail);
      const { sender_allowed: senderAllowed } = (await profile.json()) as { sender_allowed?: boolean };
      if (senderAllowed !== true) throw new IoRefused('SENDER_NOT_ALLOWED');

      if (deadline - now() < timeoutMs)
        throw new IoUnavailable('IO POST /api/v1/messages: no time left for a whole attempt');
      await options.beforeMessage?.();
      const sent = await call(
        'POST',
        '/api/v1/messages',
        { fiscal_code: fiscalCode, feature_level_type: 'STANDARD', content },
        deadline,
        timeoutMs,
        true,
      );
      if (sent.status === 201 || sent.status === 200) {
        const { id } = (await sent.json()) as { id?: unknown };
        if (typeof id !== 'string' || !id) throw new Error('IO messages: answer without id');
        return { id };
      }
      const refusedMessage = await accessRefusal(sent);
      if (refusedMessage) throw refusedMessage;
      if (sent.status === 404) throw new IoRefused('NOT_FOUND', (await problemOf(sent)).detail);
      const { title, detail } = await problemOf(sent);
      const ceiling = /exceeds the maximum allowed for this service \((\d+) cents\)/.exec(detail);
      if (title === 'Error while sending payment metadata' || ceiling)
        throw new IoRefused('AMOUNT_NOT_ALLOWED', detail, ceiling ? Number(ceiling[1]) : null);
      throw new IoRefused('REJECTED', detail);
    },

    async messageStatus(fiscalCode: string, id: string, options = {}): Promise<IoMessageStatus> {
      const deadline = options.deadline ?? now() + budgetMs;
      const answer = await call(
        'GET',
        `/api/v1/messages/${encodeURIComponent(fiscalCode)}/${encodeURIComponent(id)}`,
        undefined,
        deadline,
      );
      if (answer.status !== 200) {
        if (answer.status === 404 && (await problemOf(answer.clone())).title !== 'Message not found')
          throw new IoRefused('NOT_FOUND', (await problemOf(answer)).detail);
        const refused = await accessRefusal(answer);
        throw refused ?? new IoRefused('REJECTED', (await problemOf(answer)).detail);
      }
      const { status } = (await answer.json()) as { status?: unknown };
      // x-extensible-enum: a value this portal does not know yet is not a verdict.
      return typeof status === 'string' && STATUSES.includes(status) ? (status as IoMessageStatus) : 'ACCEPTED';
    },
  };
}
