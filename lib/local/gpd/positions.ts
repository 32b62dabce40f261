/**
 * GPD's positions API (pagopa/pagopa-debt-position openapi_external_v1.json, v2 for the bulk), as its service
 * behaves: the body checks of the OpenAPI and DebtPositionValidation.java, the states of DebtPositionStatus.java
 * and PublishPaymentUtil.java, the ProblemJson errors of AppError.java.
 */
import {
  APP_ERRORS,
  ALREADY_PAID,
  NOT_INVALIDABLE,
  NOT_PUBLISHABLE,
  NOT_UPDATABLE,
  type DebtPosition,
  type GpdOrganization,
  type PaymentOption,
  type State,
  type Status,
} from './model.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(title);
  }
}
const fail = (kind: keyof typeof APP_ERRORS, detail: string): never => {
  const [status, title] = APP_ERRORS[kind];
  throw new ApiError(status, title, detail);
};
const badRequest = (detail: string): never => fail('BAD_REQUEST', detail);

/** LocalDateTime as GPD reads it: no zone, compared with UTC now (an offset, if sent, is dropped: *uncertain* upstream). */
const localDateTime = (value: unknown, field: string): string => {
  const text = String(value ?? '');
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)/.exec(text);
  if (!match || Number.isNaN(Date.parse(`${match[1]}Z`))) badRequest(`${field}: must be a date-time`);
  return match![1]!.length === 16 ? `${match![1]}:00` : match![1]!.slice(0, 19);
};
const utc = (local: string) => Date.parse(`${local}Z`);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const maxLen = (value: unknown, field: string, max: number) => {
  if (value !== undefined && (typeof value !== 'string' || value.length > max))
    badRequest(`${field}: size must be between 0 and ${max}`);
};

/** A position body checked as GPD checks it at create ('create') or update ('update'). */
function readPosition(
  body: unknown,
  organization: GpdOrganization,
  action: 'create' | 'update',
  now: Date,
): Omit<DebtPosition, 'status' | 'insertedDate' | 'lastUpdatedDate'> {
  if (!body || typeof body !== 'object') badRequest('body: must not be null');
  const p = body as Record<string, unknown>;
  for (const field of ['iupd', 'type', 'fiscalCode', 'fullName', 'companyName'] as const)
    if (!str(p[field])) badRequest(`${field}: must not be null`);
  if (typeof p.switchToExpired !== 'boolean') badRequest('switchToExpired: must not be null');
  if (!['F', 'G'].includes(p.type as string)) badRequest('type: must be F or G');
  maxLen(p.companyName, 'companyName', 140);
  maxLen(p.officeName, 'officeName', 140);
  if (p.country !== undefined && !/^[A-Z]{2}$/.test(String(p.country))) badRequest('country: must match "[A-Z]{2}"');
  const options = Array.isArray(p.paymentOption) ? (p.paymentOption as Record<string, unknown>[]) : [];
  if (options.length === 0) badRequest('paymentOption: must not be empty');
  const nowLocal = now.toISOString().slice(0, 19);
  const validityDate =
    p.validityDate === undefined || p.validityDate === null ? undefined : localDateTime(p.validityDate, 'validityDate');
  if (action === 'create' && validityDate && !(utc(validityDate) > now.getTime()))
    badRequest(
      `Dates congruence error: validity_date must be >= current_date [validity_date=${validityDate}; current_date=${nowLocal}]`,
    );
  const paymentOption = options.map((o, i): PaymentOption => {
    const at = `paymentOption[${i}]`;
    for (const field of ['iuv', 'description'] as const)
      if (typeof o[field] !== 'string') badRequest(`${at}.${field}: must not be null`);
    if (typeof o.isPartialPayment !== 'boolean') badRequest(`${at}.isPartialPayment: must not be null`);
    if (!Number.isSafeInteger(o.amount) || (o.amount as number) < 1)
      badRequest(`${at}.amount: must be greater than or equal to 1`);
    maxLen(o.description, `${at}.description`, 140);
    const dueDate = localDateTime(o.dueDate, `${at}.dueDate`);
    // DebtPositionValidation.isDueDateInvalid: due ≥ validity (now when none); at create also ≥ now.
    const validity = validityDate ? utc(validityDate) : now.getTime();
    if (utc(dueDate) < validity || (action === 'create' && utc(dueDate) < now.getTime()))
      badRequest(
        `Dates congruence error: due_date must be >= validity_date (if provided) or due_date must be >= current_date [due_date=${dueDate}; validity_date=${validityDate ?? null}; current_date=${nowLocal}]`,
      );
    const iuv = o.iuv as string;
    if (!organization.segregationCodes.some((code) => iuv.startsWith(code)))
      fail(
        'FORBIDDEN',
        `The caller does not have proper authorization to access or modify the IUVs in the payment position. [Organization Fiscal Code=${organization.fiscalCode}, IUPD=${String(p.iupd)}]`,
      );
    const transfers = Array.isArray(o.transfer) ? (o.transfer as Record<string, unknown>[]) : [];
    if (transfers.length > 5)
      badRequest(
        `Number of transfers congruence error: Each payment option must have a maximum of 5 transactions [transactions found=${transfers.length}]`,
      );
    let total = 0;
    const transfer = transfers.map((t, j) => {
      const tat = `${at}.transfer[${j}]`;
      if (!['1', '2', '3', '4', '5'].includes(String(t.idTransfer)))
        badRequest(`${tat}.idTransfer: must be one of 1, 2, 3, 4, 5`);
      if (!Number.isSafeInteger(t.amount) || (t.amount as number) < 1)
        badRequest(`${tat}.amount: must be greater than or equal to 1`);
      if (typeof t.category !== 'string' || !t.category) badRequest(`${tat}.category: must not be null`);
      if (typeof t.remittanceInformation !== 'string') badRequest(`${tat}.remittanceInformation: must not be null`);
      maxLen(t.remittanceInformation, `${tat}.remittanceInformation`, 140);
      if (t.iban !== undefined && !/^[A-Za-z0-9]{1,35}$/.test(String(t.iban)))
        badRequest(`${tat}.iban: must match "^[A-Za-z0-9]{1,35}$"`);
      if (!t.iban && !t.stamp)
        badRequest(
          `The Iban may be present (optionally combined with the Postal Iban) or the Stamp. Not all at the same time [iuv=${iuv}, transaction id=${String(t.idTransfer)}].`,
        );
      total += t.amount as number;
      return {
        idTransfer: String(t.idTransfer),
        amount: t.amount as number,
        organizationFiscalCode: str(t.organizationFiscalCode),
        remittanceInformation: t.remittanceInformation as string,
        category: t.category as string,
        iban: str(t.iban),
        postalIban: str(t.postalIban),
        status: 'T_UNREPORTED' as const,
      };
    });
    if (total !== o.amount)
      badRequest(
        `Amounts congruence error: payment option amount must coincide with the total of the transfers amount [payment_option_amount(in cent)=${String(o.amount)}; total_tranfers_amount(in cent)=${total}]`,
      );
    // The NAV is the aux digit 3 + IUV when the EC does not send one.
    return {
      nav: str(o.nav) ?? `3${iuv}`,
      iuv,
      amount: o.amount as number,
      description: o.description as string,
      isPartialPayment: o.isPartialPayment as boolean,
      dueDate,
      status: 'PO_UNPAID',
      transfer,
    };
  });
  return {
    organizationFiscalCode: organization.fiscalCode,
    iupd: p.iupd as string,
    type: p.type as 'F' | 'G',
    fiscalCode: p.fiscalCode as string,
    fullName: p.fullName as string,
    email: str(p.email),
    companyName: p.companyName as string,
    officeName: str(p.officeName),
    switchToExpired: p.switchToExpired as boolean,
    validityDate,
    paymentOption,
  };
}

/** PublishPaymentUtil: toPublish with a future validity date → PUBLISHED, without → VALID (validity = now); otherwise DRAFT. */
function published(position: DebtPosition, toPublish: boolean, now: Date): DebtPosition {
  if (!toPublish) return { ...position, status: 'DRAFT' };
  const nowLocal = now.toISOString().slice(0, 19);
  if (position.validityDate && utc(position.validityDate) > now.getTime())
    return { ...position, status: 'PUBLISHED', publishDate: nowLocal };
  return { ...position, status: 'VALID', publishDate: nowLocal, validityDate: position.validityDate ?? nowLocal };
}

/** PaymentPositionOrder: what the list can be ordered by. */
const ORDER_BY = ['INSERTED_DATE', 'IUPD', 'STATUS', 'COMPANY_NAME'] as const;

export function createPositions(state: State, now: () => Date) {
  const key = (org: string, iupd: string) => `${org}|${iupd}`;
  const allOf = (org: string) => Object.values(state.positions).filter((p) => p.organizationFiscalCode === org);
  const requirePosition = (org: string, iupd: string) =>
    state.positions[key(org, iupd)] ??
    fail('NOT_FOUND', `Not found a debt position for Organization Fiscal Code ${org} and IUPD ${iupd}`);
  const uniqueness = (
    org: string,
    positions: readonly Pick<DebtPosition, 'iupd' | 'paymentOption'>[],
    except?: string,
  ) => {
    const held = allOf(org).filter((p) => p.iupd !== except);
    const iupds = new Set(held.map((p) => p.iupd));
    const iuvs = new Set(held.flatMap((p) => p.paymentOption.map((o) => o.iuv)));
    for (const p of positions) {
      const mine = p.paymentOption.map((o) => o.iuv);
      if (iupds.has(p.iupd) || mine.some((iuv) => iuvs.has(iuv)))
        fail(
          'UNIQUE_VIOLATION',
          `Already exists a debt position for the Organization Fiscal Code ${org} or one of its payment options is not unique`,
        );
      iupds.add(p.iupd);
      mine.forEach((iuv) => iuvs.add(iuv));
    }
  };
  const stamp = (p: Omit<DebtPosition, 'status' | 'insertedDate' | 'lastUpdatedDate'>): DebtPosition => {
    const at = now().toISOString().slice(0, 19);
    return { ...p, status: 'DRAFT', insertedDate: at, lastUpdatedDate: at };
  };

  return {
    get: (org: string, iupd: string) => requirePosition(org, iupd),
    create(org: GpdOrganization, body: unknown, toPublish: boolean): DebtPosition {
      const read = readPosition(body, org, 'create', now());
      uniqueness(org.fiscalCode, [read]);
      const position = published(stamp(read), toPublish, now());
      state.positions[key(org.fiscalCode, position.iupd)] = position;
      return position;
    },
    /** v2 bulk: every position checked first; one bad or duplicate one refuses them all. */
    createMany(org: GpdOrganization, body: unknown, toPublish: boolean): void {
      const list = (body as { paymentPositions?: unknown } | null)?.paymentPositions;
      if (!Array.isArray(list) || list.length === 0) badRequest('paymentPositions: must not be empty');
      if ((list as unknown[]).length > 100) badRequest(`paymentPositions: size must be between 1 and 100`);
      const read = (list as unknown[]).map((b) => readPosition(b, org, 'create', now()));
      uniqueness(org.fiscalCode, read);
      for (const r of read) state.positions[key(org.fiscalCode, r.iupd)] = published(stamp(r), toPublish, now());
    },
    update(org: GpdOrganization, iupd: string, body: unknown, toPublish: boolean): DebtPosition {
      const held = requirePosition(org.fiscalCode, iupd);
      if (NOT_UPDATABLE.includes(held.status))
        fail(
          'NOT_UPDATABLE',
          `A payment transaction has already been carried out or, the debt position with Organization Fiscal Code ${org.fiscalCode} and IUPD ${iupd}, is not in updatable state`,
        );
      const read = readPosition({ ...(body as object), iupd }, org, 'update', now());
      uniqueness(org.fiscalCode, [read], iupd);
      const position = published(
        { ...held, ...read, validityDate: read.validityDate, lastUpdatedDate: now().toISOString().slice(0, 19) },
        toPublish,
        now(),
      );
      state.positions[key(org.fiscalCode, iupd)] = position;
      return position;
    },
    remove(org: string, iupd: string) {
      const held = requirePosition(org, iupd);
      if (ALREADY_PAID.includes(held.status))
        fail(
          'PAYMENT_FOUND',
          `A payment transaction has already been carried out on the debt position with Organization Fiscal Code ${org} and IUPD ${iupd}`,
        );
      delete state.positions[key(org, iupd)];
    },
    publish(org: string, iupd: string): DebtPosition {
      const held = requirePosition(org, iupd);
      if (NOT_PUBLISHABLE.includes(held.status))
        fail(
          'NOT_PUBLISHABLE',
          `A payment transaction has already been carried out or, the debt position with Organization Fiscal Code ${org} and IUPD ${iupd}, is not in publishable state`,
        );
      const position = published(held, true, now());
      state.positions[key(org, iupd)] = position;
      return position;
    },
    invalidate(org: string, iupd: string): DebtPosition {
      const held = requirePosition(org, iupd);
      if (NOT_INVALIDABLE.includes(held.status))
        fail(
          'NOT_INVALIDABLE',
          `A payment transaction has already been carried out or, the debt position with Organization Fiscal Code ${org} and IUPD ${iupd}, is not in invalidable state`,
        );
      held.status = 'INVALID';
      held.lastUpdatedDate = now().toISOString().slice(0, 19);
      return held;
    },
    /**
     * GET …/debtpositions (DebtPositionController.getOrganizationDebtPositions, PaymentPositionCRUDService): due-date
     * or payment-date windows of at most 30 days (one of the two, not both: ExclusiveParamGroup), a missing end set 30
     * days from the other; pages of at most 50 (default 10) ordered by `orderby` (INSERTED_DATE, IUPD, STATUS,
     * COMPANY_NAME; default INSERTED_DATE) and `ordering` (default DESC); page_info as CommonUtil.buildPageInfo fills
     * it: items_found is the number of positions on this page, total_pages the number of pages.
     */
    list(org: string, query: URLSearchParams) {
      const limit = Number(query.get('limit') ?? 10);
      const page = Number(query.get('page') ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || limit > 50)
        badRequest('getOrganizationDebtPositions.limit: must be less than or equal to 50');
      if (!Number.isInteger(page) || page < 0)
        badRequest('getOrganizationDebtPositions.page: must be greater than or equal to 0');
      const has = (...names: string[]) => names.some((n) => query.has(n));
      if (has('due_date_from', 'due_date_to') && has('payment_date_from', 'payment_date_to'))
        badRequest('Parameters due_date_to, due_date_from and payment_date_from, payment_date_to are mutual exclusive');
      const orderBy = query.get('orderby') ?? 'INSERTED_DATE';
      const ordering = query.get('ordering') ?? 'DESC';
      if (!ORDER_BY.includes(orderBy as never)) badRequest(`orderby: must be one of ${ORDER_BY.join(', ')}`);
      if (!['ASC', 'DESC'].includes(ordering)) badRequest('ordering: must be ASC or DESC');
      const window = (fromName: string, toName: string) => {
        const from = query.get(fromName);
        const to = query.get(toName);
        if (!from && !to) return null;
        const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
        const f = from ? day(from) : day(to!) - 30 * 86_400_000;
        const t = to ? day(to) : day(from!) + 30 * 86_400_000;
        if (Number.isNaN(f) || Number.isNaN(t) || t < f || (t - f) / 86_400_000 > 30)
          fail(
            'NOT_RECOVERABLE',
            `Debt positions cannot be recovered. Verify that due_date_to >= due_date_from and that the interval between the two dates not exceed the maximum number of days allowed [due_date_from= ${from}, due_date_to= ${to}, days_between_from_to= ${Math.round((t - f) / 86_400_000)}, max_days_interval= 30]`,
          );
        return [f, t + 86_400_000] as const;
      };
      const due = window('due_date_from', 'due_date_to');
      const paid = window('payment_date_from', 'payment_date_to');
      const status = query.get('status') as Status | null;
      const within = (value: string | undefined, range: readonly [number, number] | null) =>
        !range || (value !== undefined && utc(value) >= range[0] && utc(value) < range[1]);
      const sortKey = (p: DebtPosition) =>
        orderBy === 'IUPD'
          ? p.iupd
          : orderBy === 'STATUS'
            ? p.status
            : orderBy === 'COMPANY_NAME'
              ? p.companyName
              : p.insertedDate;
      const direction = ordering === 'ASC' ? 1 : -1;
      // Ties (the same inserted date, a bulk's hundred) in the database's order: by id, here by iupd.
      const found = allOf(org)
        .filter((p) => !status || p.status === status)
        .filter((p) => (!due || p.paymentOption.some((o) => within(o.dueDate, due))) && within(p.paymentDate, paid))
        .sort((a, b) => direction * sortKey(a).localeCompare(sortKey(b)) || a.iupd.localeCompare(b.iupd));
      const shown = found.slice(page * limit, page * limit + limit);
      return {
        payment_position_list: shown,
        page_info: { page, limit, items_found: shown.length, total_pages: Math.ceil(found.length / limit) },
      };
    },
  };
}
