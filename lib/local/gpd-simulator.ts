/**
 * The GPD simulator: a working stand-in for pagoPA's debt positions service (GPD), its Checkout cart and its
 * receipts service (reference.md "pagoPA GPD"), started by `npm start` beside the MyPay simulator. pagoPA offers
 * no simulator of its own; this one follows the upstream OpenAPI documents and code named in lib/local/gpd/model.ts.
 *
 * - Positions, under /gpd/debt-positions-service/v1/organizations/{cf}/…: POST debtpositions?toPublish (201; 400,
 *   403 segregation code, 409 uniqueness), GET …/{iupd}, PUT …/{iupd}?toPublish (an update without toPublish=true
 *   goes back to DRAFT; 409 once paid or invalid), DELETE, POST …/{iupd}/publish (DRAFT only), POST …/{iupd}/invalidate,
 *   GET debtpositions (pages ≤ 50, due- or payment-date windows ≤ 30 days, status), POST paymentoptions/paids/{nav};
 *   v2 bulk: POST /gpd/debt-positions-service/v2/organizations/{cf}/debtpositions (≤ 100, all or nothing; 201, no body).
 * - Receipts, under /gpd/payments-receipts-service/v1/payments/{cf}/receipts (by day, pages ≤ 100) and …/{iuv}
 *   (the paSendRTV2 XML), with their own key.
 * - Checkout: POST /checkout/ec/v1/carts → 302 to /c/<id>, a page standing for pagoPA's where the tester pays,
 *   cancels or fails; the citizen goes back to returnOkUrl, returnCancelUrl or returnErrorUrl, as given.
 * - Header Ocp-Apim-Subscription-Key (401 without a known key, 403 for another EC); 100 calls per key in 10 s,
 *   then 429 without a body (pagoPA's APIM policy). The calls let through are counted by operation (`counters`,
 *   also in GET /admin/state), as the benches and tests count what the portal asks of GPD.
 * - The tester's switches (JSON under /admin, and the page at /): 5xx, timeout or lost answer on an operation
 *   (once, N times, always), the next N calls over the key's quota (429), a position paid outside the portal,
 *   receipts held back and delivered late.
 *
 * State in memory and in <dataDir>/gpd/state.json (written within half a second of a change, and on close).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createFaults } from './mypay/faults.ts';
import { json, page, readBody } from './mypay/http.ts';
import { escapeHtml } from './mypay/values.ts';
import {
  CHECKOUT_V1,
  DEFAULT_API_KEY,
  DEFAULT_ORGANIZATION,
  DEFAULT_RECEIPTS_KEY,
  FAULT_TARGETS,
  POSITIONS_V1,
  POSITIONS_V2,
  RECEIPTS_V1,
  type FaultKind,
  type GpdSimulatorOptions,
  type State,
  type Switches,
} from './gpd/model.ts';
import { createPayments } from './gpd/payments.ts';
import { ApiError, createPositions } from './gpd/positions.ts';

export {
  DEFAULT_API_KEY,
  DEFAULT_ORGANIZATION,
  DEFAULT_RECEIPTS_KEY,
  FAULT_TARGETS,
  type GpdSimulatorOptions,
} from './gpd/model.ts';

export interface GpdSimulator {
  /** The simulator's address: the base of every API path (the deployment's gpdBaseUrl). */
  url: string;
  switches: Switches;
  state: State;
  /** Calls answered 429 so far, and the calls let through by operation (what a bench or a test counts). */
  counters: Counters;
  close(): Promise<void>;
}

type Operation = (typeof FAULT_TARGETS)[number];
type Counters = { rateLimited: number; calls: Partial<Record<Operation, number>> };

const RATE_WINDOW_MS = 10_000;
const SAVE_AFTER_MS = 500;

export async function startGpdSimulator(options: GpdSimulatorOptions): Promise<GpdSimulator> {
  const host = options.host ?? '127.0.0.1';
  // Port 0 (tests): the address is known once the server listens.
  let url = `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;
  const organizations = options.organizations ?? [DEFAULT_ORGANIZATION];
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const receiptsKey = options.receiptsKey ?? DEFAULT_RECEIPTS_KEY;
  const rateLimit = options.rateLimit ?? 100;
  const rateWindowMs = options.rateWindowMs ?? RATE_WINDOW_MS;
  const counters: Counters = { rateLimited: 0, calls: {} };
  const now = options.now ?? (() => new Date());
  const directory = path.join(options.dataDir, 'gpd');
  fs.mkdirSync(directory, { recursive: true });
  const stateFile = path.join(directory, 'state.json');
  const empty = (): State => ({ positions: {}, receipts: {}, pendingReceipts: [], carts: {} });
  const state: State = fs.existsSync(stateFile)
    ? { ...empty(), ...JSON.parse(fs.readFileSync(stateFile, 'utf8')) }
    : empty();
  const switches: Switches = { faults: [], holdReceipts: false, rateLimited: 0 };
  // state.json written atomically (temp file + rename); saves asked for during a write coalesce into one more.
  // An API call does not wait for it: its change is written at most SAVE_AFTER_MS later (one write for every call of
  // that time, not one per call: at 10,000 positions each write is megabytes), reads write nothing, close() writes
  // what is left.
  let saving: Promise<void> | null = null;
  let later: NodeJS.Timeout | null = null;
  let dirty = false;
  const save = async (): Promise<void> => {
    dirty = true;
    if (saving) return saving;
    saving = (async () => {
      while (dirty) {
        dirty = false;
        await fs.promises.writeFile(`${stateFile}.tmp`, JSON.stringify(state));
        await fs.promises.rename(`${stateFile}.tmp`, stateFile);
      }
    })().finally(() => (saving = null));
    return saving;
  };
  const saveSoon = () => {
    later ??= setTimeout(() => {
      later = null;
      void save();
    }, SAVE_AFTER_MS);
  };

  const positions = createPositions(state, now);
  const payments = createPayments(state, switches, organizations, now, save);
  const { applyFault, held } = createFaults(switches, options.holdMs ?? 60_000);

  // The APIM rate limit: calls per key in the last 10 s (Date.now, not the simulator's clock: it is wall time).
  const calls = new Map<string, number[]>();
  const overLimit = (key: string) => {
    const t = Date.now();
    const recent = (calls.get(key) ?? []).filter((at) => at > t - rateWindowMs);
    const spent = switches.rateLimited > 0;
    if (spent) switches.rateLimited -= 1;
    const over = spent || recent.length >= rateLimit;
    if (over) counters.rateLimited += 1;
    else recent.push(t);
    calls.set(key, recent);
    return over;
  };

  const problem = (res: http.ServerResponse, error: ApiError) =>
    json(res, error.status, { title: error.title, status: error.status, detail: error.detail });
  const bodyOf = async (req: http.IncomingMessage) => {
    const text = (await readBody(req)).toString('utf8');
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      throw new ApiError(400, 'BAD REQUEST', 'JSON parse error');
    }
  };
  const toPublish = (q: URLSearchParams) => q.get('toPublish') === 'true';

  /** An API call: the key, the organization, the rate limit and the fault switches, then the operation. */
  async function api(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    service: 'positions' | 'receipts',
    fiscalCode: string,
    target: Operation,
    run: () => Promise<unknown> | unknown,
    status = 200,
  ) {
    const key = String(req.headers['ocp-apim-subscription-key'] ?? '');
    if (key !== (service === 'positions' ? apiKey : receiptsKey)) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          statusCode: 401,
          message:
            'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
        }),
      );
    }
    if (overLimit(key)) {
      res.writeHead(429);
      return res.end();
    }
    const organization = organizations.find((o) => o.fiscalCode === fiscalCode);
    if (!organization)
      return json(res, 403, { statusCode: 403, message: 'You are not allowed to access this resource.' });
    counters.calls[target] = (counters.calls[target] ?? 0) + 1;
    if (applyFault(target, res)) return;
    const answer = await run();
    if (req.method !== 'GET') saveSoon();
    if (status === 201 && answer === undefined) {
      res.writeHead(201);
      return res.end();
    }
    if (typeof answer === 'string') {
      res.writeHead(status, { 'content-type': 'application/xml' });
      return res.end(answer);
    }
    json(res, status, answer);
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const parsed = new URL(req.url ?? '/', url);
    const { pathname, searchParams: q } = parsed;
    const method = req.method ?? 'GET';
    const org = (fiscalCode: string) => organizations.find((o) => o.fiscalCode === fiscalCode)!;

    let m = new RegExp(
      `^${POSITIONS_V1}/organizations/([^/]+)/debtpositions(?:/([^/]+)(?:/(publish|invalidate))?)?$`,
    ).exec(pathname);
    if (m) {
      const [, cf, rawIupd, verb] = m as unknown as [string, string, string | undefined, string | undefined];
      const iupd = rawIupd && decodeURIComponent(rawIupd);
      if (!iupd && method === 'POST')
        return api(
          req,
          res,
          'positions',
          cf,
          'create',
          async () => positions.create(org(cf), await bodyOf(req), toPublish(q)),
          201,
        );
      if (!iupd && method === 'GET') return api(req, res, 'positions', cf, 'list', () => positions.list(cf, q));
      if (iupd && !verb && method === 'GET')
        return api(req, res, 'positions', cf, 'get', () => positions.get(cf, iupd));
      if (iupd && !verb && method === 'PUT')
        return api(req, res, 'positions', cf, 'update', async () =>
          positions.update(org(cf), iupd, await bodyOf(req), toPublish(q)),
        );
      if (iupd && !verb && method === 'DELETE')
        return api(req, res, 'positions', cf, 'delete', () => (positions.remove(cf, iupd), 'OK'));
      if (iupd && verb === 'publish' && method === 'POST')
        return api(req, res, 'positions', cf, 'publish', () => positions.publish(cf, iupd));
      if (iupd && verb === 'invalidate' && method === 'POST')
        return api(req, res, 'positions', cf, 'invalidate', () => positions.invalidate(cf, iupd));
    }
    m = new RegExp(`^${POSITIONS_V1}/organizations/([^/]+)/paymentoptions/paids/([^/]+)$`).exec(pathname);
    if (m && method === 'POST')
      return api(req, res, 'positions', m[1]!, 'paid', () => payments.paidOutside(m![1]!, m![2]!));
    m = new RegExp(`^${POSITIONS_V2}/organizations/([^/]+)/debtpositions$`).exec(pathname);
    if (m && method === 'POST')
      return api(
        req,
        res,
        'positions',
        m[1]!,
        'bulk-create',
        async () => positions.createMany(org(m![1]!), await bodyOf(req), toPublish(q)),
        201,
      );
    m = new RegExp(`^${RECEIPTS_V1}/payments/([^/]+)/receipts(?:/([^/]+))?$`).exec(pathname);
    if (m && method === 'GET')
      return m[2]
        ? api(req, res, 'receipts', m[1]!, 'receipt', () => payments.receipt(m![1]!, m![2]!))
        : api(req, res, 'receipts', m[1]!, 'receipts', () => payments.receipts(m![1]!, q));

    if (pathname === `${CHECKOUT_V1}/carts` && method === 'POST') {
      if (applyFault('carts', res)) return;
      const location = payments.createCart(await bodyOf(req), url);
      await save();
      res.writeHead(302, { location });
      return res.end();
    }
    m = /^\/c\/([0-9a-f-]{36})$/.exec(pathname);
    if (m) return cartPage(req, res, m[1]!);
    m = /^\/admin\/([a-z-]+)$/.exec(pathname);
    if (m) return admin(req, res, m[1]!);
    if (pathname === '/' && method === 'GET') return home(res);
    json(res, 404, { title: 'Not Found', status: 404, detail: `${method} ${pathname}` });
  }

  /** The page standing for pagoPA Checkout: the cart's notices, and the tester's choice of outcome. */
  async function cartPage(req: http.IncomingMessage, res: http.ServerResponse, id: string) {
    const cart = payments.cart(id);
    if (!cart) return page(res, 'Carrello non trovato', '<h1>Carrello non trovato</h1>', 404);
    if (req.method === 'POST') {
      const outcome = new URLSearchParams((await readBody(req)).toString('utf8')).get('esito');
      const problems = payments.cartProblems(cart);
      const chosen = outcome === 'OK' && problems.length === 0 ? 'OK' : outcome === 'CANCEL' ? 'CANCEL' : 'ERROR';
      res.writeHead(302, { location: await payments.finishCart(cart, chosen) });
      return res.end();
    }
    const problems = cart.outcome ? [] : payments.cartProblems(cart);
    const total = cart.notices.reduce((sum, n) => sum + n.amount, 0);
    const euro = (cents: number) =>
      new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(cents / 100);
    page(
      res,
      'pagoPA - Checkout (simulatore)',
      `<main><h1>Paga con pagoPA (simulatore)</h1>
      <table><caption>Avvisi nel carrello</caption><thead><tr><th scope="col">Codice avviso</th><th scope="col">Ente</th><th scope="col">Oggetto</th><th scope="col">Importo</th></tr></thead><tbody>
      ${cart.notices.map((n) => `<tr><td>${n.noticeNumber}</td><td>${escapeHtml(n.companyName)}</td><td>${escapeHtml(n.description)}</td><td>${euro(n.amount)}</td></tr>`).join('')}
      </tbody></table><p>Totale: <strong>${euro(total)}</strong></p>
      ${cart.outcome ? `<p>Carrello già concluso (${cart.outcome}).</p>` : ''}
      ${problems.map((p) => `<p role="alert">${escapeHtml(p)}</p>`).join('')}
      <form method="post"><button name="esito" value="OK"${problems.length || cart.outcome ? ' disabled' : ''}>Paga</button>
      <button name="esito" value="CANCEL">Annulla</button><button name="esito" value="ERROR">Simula un errore</button></form></main>`,
    );
  }

  async function admin(req: http.IncomingMessage, res: http.ServerResponse, action: string) {
    if (req.method === 'GET' && action === 'state') return json(res, 200, { switches, counters, ...state });
    if (req.method !== 'POST') return json(res, 405, { error: 'POST' });
    const fromForm = !(req.headers['content-type'] ?? '').includes('application/json');
    const raw = (await readBody(req)).toString('utf8');
    const body: Record<string, unknown> = fromForm
      ? Object.fromEntries(new URLSearchParams(raw))
      : raw
        ? JSON.parse(raw)
        : {};
    const done = async (answer: unknown) => {
      await save();
      if (fromForm) {
        res.writeHead(303, { location: '/' });
        return res.end();
      }
      json(res, 200, answer);
    };
    switch (action) {
      case 'faults': {
        const target = String(body.operation ?? '');
        const kind = String(body.kind ?? '') as FaultKind;
        if (![...FAULT_TARGETS, '*'].includes(target as never))
          return json(res, 400, { error: `operation: one of ${FAULT_TARGETS.join(', ')}, *` });
        if (!['5xx', 'timeout', 'lost-answer'].includes(kind))
          return json(res, 400, { error: 'kind: 5xx, timeout or lost-answer' });
        const times = body.times === 'always' ? null : Math.max(1, Number(body.times ?? 1) || 1);
        switches.faults.push({ target, kind, remaining: times });
        return done({ switches });
      }
      case 'paid': {
        // Positions paid outside the portal (a bank's app, a counter with the notice): by iupd or notice number, with a receipt.
        const list = (v: unknown) =>
          (Array.isArray(v) ? v : String(v ?? '').split(/[\s,;]+/)).map(String).filter(Boolean);
        const iupds = list(body.iupds);
        const navs = list(body.navs);
        const chosen = Object.values(state.positions).filter(
          (p) =>
            ['VALID', 'PARTIALLY_PAID'].includes(p.status) &&
            (iupds.includes(p.iupd) || p.paymentOption.some((o) => navs.includes(o.nav))),
        );
        const paid = chosen.map((p) => payments.pay(p, 'BBT'));
        return done({ paid: paid.map((r) => r.iuv) });
      }
      case 'receipts': {
        switches.holdReceipts = body.hold === true || body.hold === 'true';
        const delivered = switches.holdReceipts ? [] : payments.deliverReceipts();
        return done({ switches, delivered });
      }
      case 'rate-limited': {
        // The key's quota spent by another of the council's systems: the next `times` calls get APIM's 429.
        const times = Number(body.times ?? 1);
        if (!Number.isInteger(times) || times < 0) return json(res, 400, { error: 'times: a whole number, 0 or more' });
        switches.rateLimited = times;
        return done({ switches });
      }
      case 'reset': {
        switches.faults = [];
        switches.holdReceipts = false;
        switches.rateLimited = 0;
        if (body.state === true || body.state === 'true') Object.assign(state, empty());
        return done({ switches });
      }
      default:
        return json(res, 404, { error: 'unknown admin action' });
    }
  }

  function home(res: http.ServerResponse) {
    const list = Object.values(state.positions).slice(-100).reverse();
    page(
      res,
      'Simulatore pagoPA GPD',
      `<main><h1>Simulatore pagoPA GPD</h1>
      <p>Posizioni: <code>${url}${POSITIONS_V1}</code>; ricevute: <code>${url}${RECEIPTS_V1}</code>; Checkout: <code>${url}${CHECKOUT_V1}/carts</code>.
      Enti: ${organizations.map((o) => `<code>${o.fiscalCode}</code> (segregazione ${o.segregationCodes.join(', ')})`).join(', ')}. Stato: <a href="/admin/state">/admin/state</a>.</p>
      <h2>Interruttori di guasto</h2><p>Attivi: <code>${escapeHtml(JSON.stringify(switches))}</code></p>
      <form method="post" action="/admin/faults"><fieldset><legend>Errore su un'operazione</legend>
        <label for="f-op">Operazione</label><select id="f-op" name="operation"><option>*</option>${FAULT_TARGETS.map((t) => `<option>${t}</option>`).join('')}</select>
        <label for="f-kind">Tipo</label><select id="f-kind" name="kind"><option value="5xx">5xx</option><option value="timeout">timeout</option><option value="lost-answer">risposta persa</option></select>
        <label for="f-times">Volte</label><input id="f-times" name="times" value="1" size="6"> (numero o <code>always</code>)<button>Attiva</button></fieldset></form>
      <form method="post" action="/admin/paid"><fieldset><legend>Pagata fuori dal portale</legend>
        <label for="p-navs">Codici avviso</label><input id="p-navs" name="navs" size="60"><button>Segna pagate</button></fieldset></form>
      <form method="post" action="/admin/receipts"><fieldset><legend>Ricevute in ritardo</legend>
        <label for="r-hold">Trattieni le ricevute</label><select id="r-hold" name="hold"><option value="true">sì</option><option value="false">no, consegna quelle trattenute</option></select><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/rate-limited"><fieldset><legend>Limite di chiamate superato (429)</legend>
        <label for="l-times">Prossime chiamate rifiutate</label><input id="l-times" name="times" value="3" size="6"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/reset"><button>Spegni tutti gli interruttori</button></form>
      <h2>Posizioni (ultime 100 di ${Object.keys(state.positions).length})</h2>
      <table><thead><tr><th scope="col">iupd</th><th scope="col">Codice avviso</th><th scope="col">Debitore</th><th scope="col">Importo (centesimi)</th><th scope="col">Scadenza</th><th scope="col">Stato</th></tr></thead><tbody>
      ${list.map((p) => `<tr><td>${escapeHtml(p.iupd)}</td><td>${p.paymentOption[0]?.nav ?? ''}</td><td>${escapeHtml(p.fullName)} ${escapeHtml(p.fiscalCode)}</td><td>${p.paymentOption[0]?.amount ?? ''}</td><td>${p.paymentOption[0]?.dueDate ?? ''}</td><td>${p.status}</td></tr>`).join('')}
      </tbody></table></main>`,
    );
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((error) => {
      if (error instanceof ApiError) return problem(res, error);
      if (!res.headersSent)
        json(res, 500, { title: 'Internal Server Error', status: 500, detail: (error as Error).message });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  if (options.port === 0) url = url.replace(/:0$/, `:${(server.address() as { port: number }).port}`);

  return {
    url,
    switches,
    state,
    counters,
    async close() {
      for (const r of held) r.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (later) {
        clearTimeout(later);
        later = null;
        await save();
      }
      await saving;
    },
  };
}
