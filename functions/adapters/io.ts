import type { IoMessageContent } from '../domain/notices.ts';
import type { IoMessages } from './ports.ts';

/**
 * The IO app's REST API (reference.md "IO app messages"; io-functions-services), over fetch:
 *   POST {base}/api/v1/profiles  { fiscal_code }            → 200 { sender_allowed }, 404: no IO account
 *   POST {base}/api/v1/messages  { fiscal_code, feature_level_type: 'STANDARD', content } → 201 { id }
 * both with the header Ocp-Apim-Subscription-Key. A message goes only after a 200 with sender_allowed.
 *
 * 5xx, 429, timeouts and refused connections are retried with exponential backoff (a few attempts, so the
 * request stays well inside the API's 29 s); a 404 profile, a sender not allowed or a 4xx on the message
 * are reported at once (`IoRefused`) and never retried. Note: IO has no idempotency key, so a retried
 * message whose first attempt reached IO but whose answer was lost may arrive twice.
 */
export class IoRefused extends Error {
  override name = 'IoRefused';
  constructor(
    readonly reason: 'NO_PROFILE' | 'SENDER_NOT_ALLOWED' | 'REJECTED',
    readonly detail: string = '',
  ) {
    super(`IO: ${reason}${detail ? ` (${detail})` : ''}`);
  }
}

export class IoUnavailable extends Error {
  override name = 'IoUnavailable';
}

export interface IoConfig {
  /** e.g. https://api.io.pagopa.it (no trailing /api/v1). */
  baseUrl: string;
  apiKey: string;
  /** Per attempt (default 5 s). */
  timeoutMs?: number;
  /** Attempts after the first (default 3). */
  retries?: number;
  /** First backoff (default 250 ms), doubled at every retry, with jitter. */
  backoffMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
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

const retryable = (status: number) => status >= 500 || status === 429;

/** A problem's detail (IO answers application/problem+json), or the status. */
async function problemText(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    return String(body.detail ?? body.title ?? body.message ?? `HTTP ${response.status}`);
  } catch {
    return text.slice(0, 200) || `HTTP ${response.status}`;
  }
}

export function makeIo(config: IoConfig): IoMessages {
  const { baseUrl, apiKey, timeoutMs = 5000, retries = 3, backoffMs = 250 } = config;
  const doFetch = config.fetch ?? fetch;
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const root = baseUrl.replace(/\/+$/, '');

  /** One POST, retried on 5xx/429/timeouts; any other answer is returned as it is. */
  async function post(path: string, body: unknown): Promise<Response> {
    let lastProblem = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2));
      try {
        const response = await doFetch(`${root}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'Ocp-Apim-Subscription-Key': apiKey },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!retryable(response.status)) return response;
        lastProblem = `HTTP ${response.status}`;
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        lastProblem = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
      }
    }
    throw new IoUnavailable(`IO ${path}: ${lastProblem} after ${retries + 1} attempts`);
  }

  return {
    async sendMessage(fiscalCode: string, content: IoMessageContent) {
      const profile = await post('/api/v1/profiles', { fiscal_code: fiscalCode });
      if (profile.status === 404) throw new IoRefused('NO_PROFILE');
      if (profile.status !== 200) throw new Error(`IO profiles: ${await problemText(profile)}`);
      const { sender_allowed: senderAllowed } = (await profile.json()) as { sender_allowed?: boolean };
      if (senderAllowed !== true) throw new IoRefused('SENDER_NOT_ALLOWED');

      const sent = await post('/api/v1/messages', { fiscal_code: fiscalCode, feature_level_type: 'STANDARD', content });
      if (sent.status === 201 || sent.status === 200) {
        const { id } = (await sent.json()) as { id?: unknown };
        if (typeof id !== 'string' || !id) throw new Error('IO messages: answer without id');
        return { id };
      }
      if (sent.status === 401 || sent.status === 403) throw new Error(`IO messages: ${await problemText(sent)}`);
      throw new IoRefused('REJECTED', await problemText(sent));
    },
  };
}
