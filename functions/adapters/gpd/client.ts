import * as z from 'zod/mini';
import { GPD_STATUSES, sameGpdPosition, type GpdPaymentPosition } from '../../domain/gpd.ts';
import { makePacer, type Pacer } from '../pacer.ts';

/**
 * pagoPA's GPD, Checkout and receipts service over fetch (reference.md "pagoPA GPD"). Each behaviour follows an
 * upstream file, named where it is used:
 *   positions  {base}/gpd/debt-positions-service/v1|v2  (pagopa/pagopa-debt-position openapi/openapi_external_v1.json, v2)
 *   receipts   {base}/gpd/payments-receipts-service/v1  (pagopa/pagopa-api openapi/gpd_payments.json)
 *   Checkout   {base}/checkout/ec/v1/carts             (pagopa/pagopa-api openapi/checkout_v1.json)
 * with the header Ocp-Apim-Subscription-Key (a key per service and environment).
 *
 * Every call of one operation shares a deadline (`options.deadline`, epoch ms; else budgetMs from now): an attempt
 * or a wait that does not fit is not made, and the call fails with `GpdUnavailable`. 5xx, timeouts and refused
 * connections are retried with backoff; a 429 (APIM's 100 calls per 10 s per key, no body) slows the shared pacer
 * down and is tried again at its turn. The pacer keeps every call of the process under the limit to begin with.
 *
 * Creation is not idempotent at GPD (no idempotency key), so it is made safe here: a create retried after a lost
 * answer meets 409, and a 409 is read as "maybe created already": the position is read back by iupd and compared
 * (domain/gpd.ts sameGpdPosition). The same: it counts as created. Different: `GpdRefused` with status 409 (a real
 * clash of iupd or IUV, for an operator).
 *
 * Errors, by name: `GpdUnavailable` (try again later; nothing is known to have changed, except after a create,
 * which the 409 read-back settles), `GpdRefused` (GPD said no: 400, 403, 404, 409, 422; the same request gets
 * the same no; `status`, `title`, `detail` as GPD's ProblemJson says them).
 */
export class GpdUnavailable extends Error {
  override name = 'GpdUnavailable';
}
export class GpdRefused extends Error {
  override name = 'GpdRefused';
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(`GPD ${status}: ${title}${detail ? ` (${detail})` : ''}`);
  }
}

export interface GpdConfig {
  /** https://api.uat.platform.pagopa.it or https://api.platform.pagopa.it (locally the simulator's address). */
  baseUrl: string;
  /** The council's fiscal code: the organization of every path. */
  organizationFiscalCode: string;
  /** Subscription key of the positions API. */
  apiKey: string;
  /** Subscription key of the receipts service (its own product at pagoPA). */
  receiptsKey: string;
  /** Subscription key for Checkout, if the council's has one (checkout_v1.json lists apiKeyHeader as security). */
  checkoutKey?: string;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Attempts after the first on 5xx, timeouts, refused connections (default 3). */
  retries?: number;
  /** First backoff (default 250 ms), doubled each retry. */
  backoffMs?: number;
  /** What one operation may take when no deadline is given (default 25 s). */
  budgetMs?: number;
  /** Calls per second for every caller of the process (default 10: APIM's 100 per 10 s). */
  pacer?: Pacer;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Reads a receipt's paSendRTV2 document (functions/adapters/gpd/receipt-xml.ts readReceipt): given by whoever reads
   * receipts, so the export's function, which never does, bundles no XML parser.
   */
  readReceipt?: (xml: string) => GpdReceipt;
}

const transferSchema = z.looseObject({
  idTransfer: z.string(),
  amount: z.number(),
  category: z.optional(z.string()),
  iban: z.optional(z.nullable(z.string())),
});
const optionSchema = z.looseObject({
  nav: z.optional(z.nullable(z.string())),
  iuv: z.string(),
  amount: z.number(),
  description: z.optional(z.nullable(z.string())),
  dueDate: z.string(),
  status: z.optional(z.nullable(z.string())),
  paymentDate: z.optional(z.nullable(z.string())),
  idReceipt: z.optional(z.nullable(z.string())),
  pspCompany: z.optional(z.nullable(z.string())),
  paymentMethod: z.optional(z.nullable(z.string())),
  fee: z.optional(z.nullable(z.number())),
  transfer: z.optional(z.nullable(z.array(transferSchema))),
});
/** PaymentPositionModelBaseResponse (GET) and PaymentPositionModel (POST, PUT, publish, invalidate): what the portal reads of both. */
export const gpdPositionSchema = z.looseObject({
  iupd: z.string(),
  status: z.enum(GPD_STATUSES),
  paymentDate: z.optional(z.nullable(z.string())),
  validityDate: z.optional(z.nullable(z.string())),
  paymentOption: z.array(optionSchema),
});
export type GpdPosition = z.infer<typeof gpdPositionSchema>;
const positionsPageSchema = z.looseObject({
  payment_position_list: z.array(gpdPositionSchema),
  page_info: z.looseObject({ page: z.number(), limit: z.number(), items_found: z.number(), total_pages: z.number() }),
});
const receiptsPageSchema = z.looseObject({
  currentPageNumber: z.number(),
  totalPages: z.number(),
  results: z.array(
    z.looseObject({
      organizationFiscalCode: z.optional(z.string()),
      iuv: z.string(),
      debtor: z.optional(z.nullable(z.string())),
      paymentDateTime: z.optional(z.nullable(z.string())),
      status: z.optional(z.nullable(z.string())),
    }),
  ),
});
const problemSchema = z.looseObject({
  title: z.optional(z.string()),
  status: z.optional(z.number()),
  detail: z.optional(z.string()),
});

/** A receipt's paSendRTV2 document, what the portal records of it (paForNode.xsd ctReceiptV2). */
export interface GpdReceipt {
  receiptId: string;
  noticeNumber: string;
  iuv: string;
  /** Cents (paymentAmount is euro with two decimals). */
  amountCents: number;
  /** yyyy-MM-ddTHH:mm:ss as the receipt says it. */
  paymentDateTime: string;
  idPsp: string;
  pspCompanyName: string;
  debtorFiscalCode: string;
}

export interface GpdCartRequest {
  paymentNotices: {
    noticeNumber: string;
    fiscalCode: string;
    amount: number;
    companyName: string;
    description: string;
  }[];
  returnUrls: { returnOkUrl: string; returnCancelUrl: string; returnErrorUrl: string };
  idCart?: string;
  emailNotice?: string;
}

type Options = { deadline?: number };
/** The list's filters (yyyy-MM-dd days): a due-date window or a payment-date window, and a status. */
export interface PositionsQuery {
  paymentDateFrom?: string;
  paymentDateTo?: string;
  dueDateFrom?: string;
  dueDateTo?: string;
  status?: GpdPosition['status'];
}
/** The most positions GPD gives in one page of its list (openapi_external_v1.json: limit ≤ 50). */
export const LIST_PAGE_SIZE = 50;
type Service = 'positions' | 'receipts' | 'checkout';

export function makeGpdClient(config: GpdConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');
  const org = encodeURIComponent(config.organizationFiscalCode);
  const doFetch = config.fetch ?? fetch;
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pacer = config.pacer ?? makePacer(10, sleep);
  const timeoutMs = config.timeoutMs ?? 10_000;
  const retries = config.retries ?? 3;
  const backoffMs = config.backoffMs ?? 250;
  const budgetMs = config.budgetMs ?? 25_000;
  const keyOf: Record<Service, string | undefined> = {
    positions: config.apiKey,
    receipts: config.receiptsKey,
    checkout: config.checkoutKey,
  };

  /** One operation: attempts within the deadline; answers the last response that is not a retryable failure. */
  async function call(
    service: Service,
    method: string,
    path: string,
    options: Options & { body?: unknown; redirect?: 'manual' } = {},
  ): Promise<Response> {
    const deadline = Math.min(options.deadline ?? Infinity, Date.now() + budgetMs);
    let failures = 0;
    for (;;) {
      await pacer.pace();
      const left = deadline - Date.now();
      if (left <= 0) throw new GpdUnavailable(`GPD ${method} ${path}: tempo esaurito`);
      const key = keyOf[service];
      let response: Response | null = null;
      let why: string;
      try {
        response = await doFetch(`${base}${path}`, {
          method,
          headers: {
            accept: 'application/json',
            ...(key ? { 'ocp-apim-subscription-key': key } : {}),
            ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
          redirect: options.redirect ?? 'follow',
          signal: AbortSignal.timeout(Math.min(timeoutMs, left)),
        });
        why = `HTTP ${response.status}`;
      } catch (error) {
        why = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
      }
      if (response?.status === 429) {
        await response.body?.cancel();
        const retryAfter = Number(response.headers.get('retry-after'));
        const waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000;
        if (Date.now() + waitMs >= deadline)
          throw new GpdUnavailable(`GPD ${method} ${path}: limite di chiamate (429) oltre il tempo disponibile`);
        await pacer.rateLimited(waitMs);
        continue;
      }
      // The body is read within the attempt's timeout (its signal covers it): a caller that reads it later, after
      // another call (a 409 read back), must not find it aborted.
      if (response && response.status < 500) {
        try {
          return new Response(
            response.status === 204 || response.status === 304 ? null : await response.arrayBuffer(),
            { status: response.status, statusText: response.statusText, headers: response.headers },
          );
        } catch (error) {
          why = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
          response = null;
        }
      }
      await response?.body?.cancel();
      failures += 1;
      const wait = backoffMs * 2 ** (failures - 1);
      if (failures > retries || Date.now() + wait >= deadline)
        throw new GpdUnavailable(`GPD ${method} ${path}: ${why}`);
      await sleep(wait);
    }
  }

  const refused = async (response: Response): Promise<never> => {
    const text = await response.text();
    let problem: z.infer<typeof problemSchema> = {};
    try {
      problem = problemSchema.parse(JSON.parse(text));
    } catch {
      /* 401 and APIM's 403 have no ProblemJson */
    }
    throw new GpdRefused(response.status, problem.title ?? response.statusText, problem.detail ?? text.slice(0, 300));
  };
  const read = async <T>(response: Response, schema: z.ZodMiniType<T>, ok: number[] = [200]): Promise<T> => {
    if (!ok.includes(response.status)) return refused(response);
    const parsed = schema.safeParse(await response.json().catch(() => null));
    if (!parsed.success)
      throw new GpdUnavailable(`GPD: risposta inattesa (${parsed.error.issues[0]?.message ?? 'schema'})`);
    return parsed.data;
  };
  const positionPath = (iupd: string) =>
    `/gpd/debt-positions-service/v1/organizations/${org}/debtpositions/${encodeURIComponent(iupd)}`;

  async function getPosition(iupd: string, options: Options = {}): Promise<GpdPosition | null> {
    const response = await call('positions', 'GET', positionPath(iupd), options);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return read(response, gpdPositionSchema);
  }

  /** A 409 on create: the position read back and compared (created by an earlier attempt whose answer was lost, or a clash). */
  async function settleConflict(
    position: GpdPaymentPosition,
    options: Options,
    conflict: Response,
  ): Promise<GpdPosition> {
    const held = await getPosition(position.iupd, options);
    if (held && sameGpdPosition(position, held)) {
      await conflict.body?.cancel();
      return held;
    }
    return refused(conflict);
  }

  /** POST …/debtpositions?toPublish=true (openapi_external_v1.json createPosition): 201, or a 409 that reads back as the same. */
  async function createPosition(
    position: GpdPaymentPosition,
    options: Options = {},
  ): Promise<{ position: GpdPosition; created: boolean }> {
    const response = await call(
      'positions',
      'POST',
      `/gpd/debt-positions-service/v1/organizations/${org}/debtpositions?toPublish=true`,
      { ...options, body: position },
    );
    if (response.status === 409) return { position: await settleConflict(position, options, response), created: false };
    return { position: await read(response, gpdPositionSchema, [201]), created: true };
  }

  /**
   * One page of GET …/debtpositions (openapi_external_v1.json getOrganizationDebtPositions): GPD's largest (50),
   * ordered by iupd (ascending), so that the pages stay put while GPD inserts and a reader can go straight to the
   * iupds it wants; with how many pages there are in all. Due-date and payment-date windows are each at most 30 days,
   * and not both at once.
   */
  async function positionPage(
    query: PositionsQuery,
    page: number,
    options: Options = {},
  ): Promise<{ positions: GpdPosition[]; page: number; totalPages: number }> {
    const params = new URLSearchParams({
      limit: String(LIST_PAGE_SIZE),
      page: String(page),
      orderby: 'IUPD',
      ordering: 'ASC',
    });
    if (query.paymentDateFrom) params.set('payment_date_from', query.paymentDateFrom);
    if (query.paymentDateTo) params.set('payment_date_to', query.paymentDateTo);
    if (query.dueDateFrom) params.set('due_date_from', query.dueDateFrom);
    if (query.dueDateTo) params.set('due_date_to', query.dueDateTo);
    if (query.status) params.set('status', query.status);
    const result = await read(
      await call(
        'positions',
        'GET',
        `/gpd/debt-positions-service/v1/organizations/${org}/debtpositions?${params}`,
        options,
      ),
      positionsPageSchema,
    );
    return { positions: result.payment_position_list, page, totalPages: result.page_info.total_pages };
  }

  /** Every page of the list (positionPage), from the first. */
  async function* positionPages(
    query: PositionsQuery,
    options: Options = {},
  ): AsyncGenerator<{ positions: GpdPosition[]; page: number; totalPages: number }> {
    for (let page = 0; ; page += 1) {
      const result = await positionPage(query, page, options);
      yield result;
      if (page + 1 >= result.totalPages) return;
    }
  }

  return {
    getPosition,
    createPosition,

    /**
     * POST v2 …/debtpositions?toPublish=true (openapi_external_v2.json createMultiplePositions): at most 100, all or
     * nothing, 201 without a body. On 409 (one of them exists already) each is read back: the ones GPD holds as sent
     * count as created, a different one is refused, and the rest go again in one more call. On 400 (one of them is
     * malformed, GPD does not say which in a way to rely on) or 403 (DEBT_POSITION_FORBIDDEN: an IUV outside the
     * council's segregation codes) each is sent alone, so every position gets its own answer.
     */
    async createPositions(
      positions: readonly GpdPaymentPosition[],
      options: Options = {},
    ): Promise<{ created: string[]; refused: { iupd: string; error: GpdRefused }[] }> {
      if (positions.length > 100) throw new RangeError('GPD: al più 100 posizioni per chiamata');
      const created: string[] = [];
      const refusedOnes: { iupd: string; error: GpdRefused }[] = [];
      /** Each position in a call of its own, so that each gets GPD's own answer. */
      const eachAlone = async (alone: readonly GpdPaymentPosition[]) => {
        for (const position of alone) {
          try {
            await createPosition(position, options);
            created.push(position.iupd);
          } catch (error) {
            if (error instanceof GpdRefused) refusedOnes.push({ iupd: position.iupd, error });
            else throw error;
          }
        }
      };
      let pending = [...positions];
      while (pending.length > 0) {
        const response = await call(
          'positions',
          'POST',
          `/gpd/debt-positions-service/v2/organizations/${org}/debtpositions?toPublish=true`,
          { ...options, body: { paymentPositions: pending } },
        );
        if (response.status === 201) {
          await response.body?.cancel();
          created.push(...pending.map((p) => p.iupd));
          break;
        }
        if (![400, 403, 409].includes(response.status)) return refused(response);
        await response.body?.cancel();
        if (response.status !== 409) {
          await eachAlone(pending);
          break;
        }
        const next: GpdPaymentPosition[] = [];
        for (const position of pending) {
          const held = await getPosition(position.iupd, options);
          if (!held) next.push(position);
          else if (sameGpdPosition(position, held)) created.push(position.iupd);
          else
            refusedOnes.push({
              iupd: position.iupd,
              error: new GpdRefused(
                409,
                'The debt position violated constraints of uniqueness',
                `iupd ${position.iupd}: GPD ne ha una diversa`,
              ),
            });
        }
        // Nothing read back as existing: the clash is on an IUV of another position; each alone says which.
        if (next.length === pending.length) {
          await eachAlone(next);
          break;
        }
        pending = next;
      }
      return { created, refused: refusedOnes };
    },

    /** PUT …/{iupd}?toPublish=true: always published (an update without it sends the position back to DRAFT, unpayable). */
    async updatePosition(position: GpdPaymentPosition, options: Options = {}): Promise<GpdPosition> {
      const response = await call('positions', 'PUT', `${positionPath(position.iupd)}?toPublish=true`, {
        ...options,
        body: position,
      });
      return read(response, gpdPositionSchema);
    },

    /** POST …/{iupd}/publish: a DRAFT made payable again. */
    async publishPosition(iupd: string, options: Options = {}): Promise<GpdPosition> {
      return read(await call('positions', 'POST', `${positionPath(iupd)}/publish`, options), gpdPositionSchema);
    },

    /** POST …/{iupd}/invalidate: cancelled for good. Idempotent: a 409 on a position already INVALID is the same outcome. */
    async invalidatePosition(iupd: string, options: Options = {}): Promise<GpdPosition> {
      const response = await call('positions', 'POST', `${positionPath(iupd)}/invalidate`, options);
      if (response.status === 409) {
        const held = await getPosition(iupd, options);
        if (held?.status === 'INVALID') {
          await response.body?.cancel();
          return held;
        }
      }
      return read(response, gpdPositionSchema);
    },

    positionPage,
    positionPages,

    /** GET …/debtpositions, every page: the positions paid between two days (≤ 30 days apart), or due between them. */
    async listPositions(query: PositionsQuery, options: Options = {}): Promise<GpdPosition[]> {
      const found: GpdPosition[] = [];
      for await (const page of positionPages(query, options)) found.push(...page.positions);
      return found;
    },

    /** GET /payments/{cf}/receipts (gpd_payments.json): every receipt of the days from–to (yyyy-MM-dd), pages of 100. */
    async receipts(
      from: string,
      to: string,
      options: Options = {},
    ): Promise<{ iuv: string; debtor: string | null; paymentDateTime: string | null }[]> {
      const found: { iuv: string; debtor: string | null; paymentDateTime: string | null }[] = [];
      for (let pageNum = 0; ; pageNum += 1) {
        const params = new URLSearchParams({ pageNum: String(pageNum), pageSize: '100', from, to });
        const result = await read(
          await call(
            'receipts',
            'GET',
            `/gpd/payments-receipts-service/v1/payments/${org}/receipts?${params}`,
            options,
          ),
          receiptsPageSchema,
        );
        found.push(
          ...result.results.map((r) => ({
            iuv: r.iuv,
            debtor: r.debtor ?? null,
            paymentDateTime: r.paymentDateTime ?? null,
          })),
        );
        if (pageNum + 1 >= result.totalPages) return found;
      }
    },

    /** GET /payments/{cf}/receipts/{iuv}: the paSendRTV2 document, read. null: no receipt (404). */
    async receipt(iuv: string, options: Options = {}): Promise<GpdReceipt | null> {
      const response = await call(
        'receipts',
        'GET',
        `/gpd/payments-receipts-service/v1/payments/${org}/receipts/${encodeURIComponent(iuv)}`,
        options,
      );
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (response.status !== 200) return refused(response);
      if (!config.readReceipt)
        throw new Error('GPD: manca il lettore delle ricevute (readReceipt, gpd/receipt-xml.ts)');
      return config.readReceipt(await response.text());
    },

    /** POST /carts (checkout_v1.json): 302 with the Checkout address to send the citizen to. */
    async openCart(cart: GpdCartRequest, options: Options = {}): Promise<string> {
      const response = await call('checkout', 'POST', '/checkout/ec/v1/carts', {
        ...options,
        body: cart,
        redirect: 'manual',
      });
      const location = response.headers.get('location');
      if (response.status === 302 && location) {
        await response.body?.cancel();
        return new URL(location, base).toString();
      }
      return refused(response);
    },
  };
}

export type GpdClient = ReturnType<typeof makeGpdClient>;
