import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Closable } from './stores.ts';

/**
 * The IO app's API on this machine (reference.md "IO app messages"), for `npm start` and the tests. It
 * implements the contract, not canned answers:
 *
 * - `POST /api/v1/profiles` { fiscal_code } → 200 { sender_allowed, preferred_languages } or 404 when the
 *   citizen has no IO account. Every fiscal code has an active profile unless switched (`/admin/profiles`).
 * - `POST /api/v1/messages` { fiscal_code, feature_level_type, content } → 201 { id }, after validating the
 *   body as IO does: subject 10–120 characters, markdown 80–10000, due_date ISO-8601 UTC, payment_data with
 *   an integer amount in cents, notice_number ^[0123][0-9]{17}$, invalid_after_due_date boolean, payee with
 *   an 11-digit fiscal code. 400 (problem+json naming the field) otherwise; 404 without a profile, 403 when
 *   the citizen does not allow the sender. Both need the header Ocp-Apim-Subscription-Key (401 without).
 * - Admin (JSON): `GET /admin/messages` (received, oldest first; `?fiscal_code=`), `POST /admin/profiles`
 *   { fiscalCode, state: 'active' | 'none' | 'blocked' }, `POST /admin/faults` { operation: 'profiles' |
 *   'messages' | '*', kind: '5xx' | 'timeout', times: n | 'always' }, `POST /admin/reset` {} (switches off;
 *   { "messages": true } also forgets the messages), `GET /admin/state`. `GET /` lists the messages.
 *
 * State lives in memory: a restart empties it.
 */
/** The demo council's fiscal code is web/src/config/municipality.ts's. */
export const LOCAL_IO = { apiKey: 'local-io-subscription-key', payeeFiscalCode: '80012340123' } as const;

const FISCAL_CODE = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;
const ORGANIZATION_FISCAL_CODE = /^[0-9]{11}$/;
const NOTICE_NUMBER = /^[0123][0-9]{17}$/;
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

type Operation = 'profiles' | 'messages';
interface FaultRule {
  operation: Operation | '*';
  kind: '5xx' | 'timeout';
  remaining: number | null;
}
export interface ReceivedIoMessage {
  id: string;
  fiscal_code: string;
  feature_level_type: string;
  content: Record<string, any>;
  receivedAt: string;
}

export interface IoSimulatorOptions {
  port: number;
  host?: string;
  apiKey?: string;
  /** How long a "timeout" fault holds a request before dropping it (default 60 s). */
  holdMs?: number;
}

export interface IoSimulator extends Closable {
  url: string;
  apiKey: string;
}

/** The first thing wrong with a NewMessage body, as IO's validation would name it; null when valid. */
export function newMessageProblem(body: any): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body: un oggetto JSON è obbligatorio';
  if (typeof body.fiscal_code !== 'string' || !FISCAL_CODE.test(body.fiscal_code)) return 'fiscal_code: codice fiscale non valido';
  if (body.feature_level_type !== undefined && body.feature_level_type !== 'STANDARD' && body.feature_level_type !== 'ADVANCED') return 'feature_level_type: STANDARD o ADVANCED';
  const content = body.content;
  if (!content || typeof content !== 'object' || Array.isArray(content)) return 'content: obbligatorio';
  if (typeof content.subject !== 'string' || content.subject.length < 10 || content.subject.length > 120) return 'content.subject: da 10 a 120 caratteri';
  if (typeof content.markdown !== 'string' || content.markdown.length < 80 || content.markdown.length > 10000) return 'content.markdown: da 80 a 10000 caratteri';
  if (content.due_date !== undefined && (typeof content.due_date !== 'string' || !UTC_TIMESTAMP.test(content.due_date) || Number.isNaN(Date.parse(content.due_date)))) {
    return 'content.due_date: data e ora ISO-8601 UTC';
  }
  const payment = content.payment_data;
  if (payment !== undefined) {
    if (!payment || typeof payment !== 'object' || Array.isArray(payment)) return 'content.payment_data: un oggetto';
    if (!Number.isInteger(payment.amount) || payment.amount < 1 || payment.amount > 9999999999) return 'content.payment_data.amount: intero in centesimi (1–9999999999)';
    if (typeof payment.notice_number !== 'string' || !NOTICE_NUMBER.test(payment.notice_number)) return 'content.payment_data.notice_number: ^[0123][0-9]{17}$';
    if (payment.invalid_after_due_date !== undefined && typeof payment.invalid_after_due_date !== 'boolean') return 'content.payment_data.invalid_after_due_date: booleano';
    if (!payment.payee || typeof payment.payee.fiscal_code !== 'string' || !ORGANIZATION_FISCAL_CODE.test(payment.payee.fiscal_code)) {
      return 'content.payment_data.payee.fiscal_code: 11 cifre';
    }
  }
  return null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startIoSimulator(options: IoSimulatorOptions): Promise<IoSimulator> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? LOCAL_IO.apiKey;
  const holdMs = options.holdMs ?? 60_000;
  const messages: ReceivedIoMessage[] = [];
  const profiles = new Map<string, 'none' | 'blocked'>();
  let faults: FaultRule[] = [];
  const held = new Set<ServerResponse>();

  const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
    res.end(JSON.stringify(body));
  };
  const problem = (res: ServerResponse, status: number, title: string, detail: string) =>
    json(res, status, { type: 'about:blank', title, status, detail }, 'application/problem+json');
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
    return rule.kind;
  };
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

  async function api(operation: Operation, req: IncomingMessage, res: ServerResponse) {
    const fault = takeFault(operation);
    if (fault === '5xx') return problem(res, 503, 'Service Unavailable', 'Servizio temporaneamente non disponibile');
    if (fault === 'timeout') return hold(res);
    if (req.headers['ocp-apim-subscription-key'] !== apiKey) return problem(res, 401, 'Unauthorized', 'Ocp-Apim-Subscription-Key mancante o non valida');
    const body = (await readJson(req)) as any;
    if (typeof body === 'symbol') return problem(res, 400, 'Bad Request', 'body: JSON non valido');
    if (operation === 'profiles') {
      if (typeof body?.fiscal_code !== 'string' || !FISCAL_CODE.test(body.fiscal_code)) return problem(res, 400, 'Bad Request', 'fiscal_code: codice fiscale non valido');
      const state = profiles.get(body.fiscal_code);
      if (state === 'none') return problem(res, 404, 'Profile not found', 'Il codice fiscale non ha un profilo IO');
      return json(res, 200, { sender_allowed: state !== 'blocked', preferred_languages: ['it_IT'] });
    }
    const wrong = newMessageProblem(body);
    if (wrong) return problem(res, 400, 'Invalid NewMessage', wrong);
    const state = profiles.get(body.fiscal_code);
    if (state === 'none') return problem(res, 404, 'Profile not found', 'Il codice fiscale non ha un profilo IO');
    if (state === 'blocked') return problem(res, 403, 'Sender not allowed', 'Il cittadino non accetta messaggi da questo servizio');
    const message: ReceivedIoMessage = {
      id: randomUUID().replace(/-/g, '').toUpperCase().slice(0, 26),
      fiscal_code: body.fiscal_code,
      feature_level_type: body.feature_level_type ?? 'STANDARD',
      content: body.content,
      receivedAt: new Date().toISOString(),
    };
    messages.push(message);
    res.setHeader('location', `/api/v1/messages/${message.fiscal_code}/${message.id}`);
    return json(res, 201, { id: message.id });
  }

  async function admin(pathname: string, url: URL, req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && pathname === '/admin/messages') {
      const fiscalCode = url.searchParams.get('fiscal_code');
      return json(res, 200, { messages: fiscalCode ? messages.filter((m) => m.fiscal_code === fiscalCode) : messages });
    }
    if (req.method === 'GET' && pathname === '/admin/state') {
      return json(res, 200, { faults, profiles: Object.fromEntries(profiles), messages: messages.length });
    }
    if (req.method !== 'POST') return problem(res, 405, 'Method Not Allowed', `${req.method} ${pathname}`);
    const body = (await readJson(req)) as any;
    if (typeof body === 'symbol' || !body || typeof body !== 'object') return problem(res, 400, 'Bad Request', 'JSON non valido');
    if (pathname === '/admin/profiles') {
      if (typeof body.fiscalCode !== 'string' || !['active', 'none', 'blocked'].includes(body.state)) return problem(res, 400, 'Bad Request', '{ fiscalCode, state: active | none | blocked }');
      if (body.state === 'active') profiles.delete(body.fiscalCode.toUpperCase());
      else profiles.set(body.fiscalCode.toUpperCase(), body.state);
      return json(res, 200, { ok: true });
    }
    if (pathname === '/admin/faults') {
      const times = body.times ?? 1;
      if (!['profiles', 'messages', '*'].includes(body.operation) || !['5xx', 'timeout'].includes(body.kind) || !(times === 'always' || (Number.isInteger(times) && times > 0))) {
        return problem(res, 400, 'Bad Request', '{ operation: profiles | messages | *, kind: 5xx | timeout, times: n | always }');
      }
      faults.push({ operation: body.operation, kind: body.kind, remaining: times === 'always' ? null : times });
      return json(res, 200, { ok: true });
    }
    if (pathname === '/admin/reset') {
      faults = [];
      profiles.clear();
      if (body.messages === true) messages.length = 0;
      return json(res, 200, { ok: true });
    }
    return problem(res, 404, 'Not Found', pathname);
  }

  function page(res: ServerResponse) {
    const rows = messages
      .slice()
      .reverse()
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.receivedAt)}</td><td>${escapeHtml(m.fiscal_code)}</td><td>${escapeHtml(String(m.content.subject))}</td>` +
          `<td>${m.content.payment_data ? `${escapeHtml(String(m.content.payment_data.amount))} cent., avviso ${escapeHtml(String(m.content.payment_data.notice_number))}` : '—'}</td><td>${escapeHtml(m.id)}</td></tr>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Simulatore app IO</title></head><body><main><h1>Simulatore app IO</h1>` +
        `<p>Messaggi ricevuti: ${messages.length}. Interruttori: <code>POST /admin/faults</code>, <code>/admin/profiles</code>, <code>/admin/reset</code>.</p>` +
        `<table><caption>Messaggi ricevuti (dal più recente)</caption><thead><tr><th scope="col">Ricevuto</th><th scope="col">Codice fiscale</th><th scope="col">Oggetto</th><th scope="col">Pagamento</th><th scope="col">Id</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`,
    );
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://io.local');
    const { pathname } = url;
    const handle = async () => {
      if (req.method === 'POST' && pathname === '/api/v1/profiles') return api('profiles', req, res);
      if (req.method === 'POST' && pathname === '/api/v1/messages') return api('messages', req, res);
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
