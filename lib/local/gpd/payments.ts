/**
 * Money reaching the council, as pagoPA delivers it: a payment turns the GPD position PAID with the option's
 * receipt fields (PaymentsModelResponse: paymentDate, idReceipt, pspCompany, paymentMethod, fee) and writes a
 * receipt to the receipts service (pagopa-gpd-payments PartnerService.paSendRTV2: the list's fields and the
 * marshalled paSendRTV2 request as `document`). The Checkout cart (pagopa-api checkout_v1.json POST /carts) sends the
 * citizen to a page standing for pagoPA's, which comes back to one of the three return addresses as given.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DebtPosition, GpdOrganization, Receipt, State, Switches, Cart } from './model.ts';
import { PAYABLE } from './model.ts';
import { ApiError } from './positions.ts';

const PSP = { id: 'BCITITMM', fiscalCode: '00799960158', name: 'Banca Simulata S.p.A.' };
const euroOf = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const xml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The paSendRTV2 request JAXB marshals into the receipt's document (paForNode.xsd ctReceiptV2, element order kept). */
function receiptDocument(
  position: DebtPosition,
  organization: GpdOrganization,
  receiptId: string,
  paidAt: string,
  method: string,
): string {
  const option = position.paymentOption[0]!;
  const day = paidAt.slice(0, 10);
  const transfers = option.transfer
    .map(
      (t) =>
        `<transfer><idTransfer>${t.idTransfer}</idTransfer><transferAmount>${euroOf(t.amount)}</transferAmount><fiscalCodePA>${t.organizationFiscalCode ?? organization.fiscalCode}</fiscalCodePA>` +
        `<companyName>${xml(position.companyName)}</companyName><IBAN>${t.iban ?? ''}</IBAN><remittanceInformation>${xml(t.remittanceInformation)}</remittanceInformation><transferCategory>${xml(t.category)}</transferCategory></transfer>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<PaSendRTV2Request><idPA>${organization.fiscalCode}</idPA><idBrokerPA>${organization.fiscalCode}</idBrokerPA><idStation>${organization.fiscalCode}_01</idStation><receipt>
<receiptId>${receiptId}</receiptId><noticeNumber>${option.nav}</noticeNumber><fiscalCode>${organization.fiscalCode}</fiscalCode><outcome>OK</outcome><creditorReferenceId>${option.iuv}</creditorReferenceId>
<paymentAmount>${euroOf(option.amount)}</paymentAmount><description>${xml(option.description)}</description><companyName>${xml(position.companyName)}</companyName>
<debtor><uniqueIdentifier><entityUniqueIdentifierType>${position.type}</entityUniqueIdentifierType><entityUniqueIdentifierValue>${xml(position.fiscalCode)}</entityUniqueIdentifierValue></uniqueIdentifier><fullName>${xml(position.fullName)}</fullName></debtor>
<transferList>${transfers}</transferList><idPSP>${PSP.id}</idPSP><pspFiscalCode>${PSP.fiscalCode}</pspFiscalCode><PSPCompanyName>${PSP.name}</PSPCompanyName><idChannel>${PSP.id}_01</idChannel><channelDescription>app</channelDescription>
<paymentMethod>${method}</paymentMethod><fee>1.00</fee><paymentDateTime>${paidAt}</paymentDateTime><applicationDate>${day}</applicationDate><transferDate>${day}</transferDate></receipt></PaSendRTV2Request>`;
}

export function createPayments(
  state: State,
  switches: Switches,
  organizations: GpdOrganization[],
  now: () => Date,
  save: () => Promise<void>,
) {
  const organization = (fiscalCode: string) => organizations.find((o) => o.fiscalCode === fiscalCode);
  const byNav = (fiscalCode: string, nav: string) =>
    Object.values(state.positions).find(
      (p) => p.organizationFiscalCode === fiscalCode && p.paymentOption.some((o) => o.nav === nav),
    );

  /** A position paid: PAID with the receipt's fields on its option, and its receipt (held back while holdReceipts is on). */
  function pay(position: DebtPosition, method: string, amountCents?: number): Receipt {
    const option = position.paymentOption[0]!;
    const paidAt = now().toISOString().slice(0, 19);
    const receiptId = randomBytes(16).toString('hex');
    const org = organization(position.organizationFiscalCode)!;
    Object.assign(option, {
      status: 'PO_PAID',
      paymentDate: paidAt,
      idReceipt: receiptId,
      pspCompany: PSP.name,
      paymentMethod: method,
      fee: 100,
    });
    if (amountCents !== undefined) option.amount = amountCents;
    Object.assign(position, { status: 'PAID', paymentDate: paidAt, lastUpdatedDate: paidAt });
    const receipt: Receipt = {
      organizationFiscalCode: org.fiscalCode,
      iuv: option.iuv,
      debtor: position.fiscalCode,
      paymentDateTime: paidAt,
      status: 'PAID',
      document: receiptDocument(position, org, receiptId, paidAt, method),
    };
    if (switches.holdReceipts) state.pendingReceipts.push(receipt);
    else state.receipts[`${org.fiscalCode}|${option.iuv}`] = receipt;
    return receipt;
  }

  return {
    pay,
    /** Delivers the receipts held back (a receipt arriving late). */
    deliverReceipts(): string[] {
      const delivered = state.pendingReceipts.splice(0);
      for (const r of delivered) state.receipts[`${r.organizationFiscalCode}|${r.iuv}`] = r;
      return delivered.map((r) => r.iuv);
    },
    /** POST /organizations/{cf}/paymentoptions/paids/{nav}: paid outside pagoPA (at a counter), no receipt. */
    paidOutside(fiscalCode: string, nav: string) {
      const position = byNav(fiscalCode, nav);
      if (!position)
        throw new ApiError(
          404,
          'Not found the payment option',
          `Not found a payment option for Organization Fiscal Code ${fiscalCode} and NAV ${nav}`,
        );
      if (['PAID', 'REPORTED'].includes(position.status))
        throw new ApiError(
          409,
          'The payment option is already paid',
          `The payment option with Organization Fiscal Code ${fiscalCode} and NAV ${nav} is already paid`,
        );
      if (!PAYABLE.includes(position.status))
        throw new ApiError(
          422,
          'Not in payable state',
          `The payment option with Organization Fiscal Code ${fiscalCode} and NAV ${nav} is not in payable state`,
        );
      const option = position.paymentOption[0]!;
      const at = now().toISOString().slice(0, 19);
      Object.assign(option, { status: 'PO_PAID', paymentDate: at });
      Object.assign(position, { status: 'PAID', paymentDate: at, lastUpdatedDate: at });
      return option;
    },
    /** GET …/receipts: by payment day (from/to: yyyy-MM-dd or a date-time), pages of at most 100. */
    receipts(fiscalCode: string, query: URLSearchParams) {
      const pageNum = Number(query.get('pageNum') ?? 0);
      const pageSize = Number(query.get('pageSize') ?? 20);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
        throw new ApiError(400, 'BAD REQUEST', 'getOrganizationReceipts.pageSize: must be less than or equal to 100');
      if (!Number.isInteger(pageNum) || pageNum < 0)
        throw new ApiError(400, 'BAD REQUEST', 'getOrganizationReceipts.pageNum: must be greater than or equal to 0');
      const from = query.get('from');
      const to = query.get('to');
      const bound = (value: string, end: boolean) =>
        value.length === 10 ? `${value}T${end ? '23:59:59' : '00:00:00'}` : value.slice(0, 19);
      const found = Object.values(state.receipts)
        .filter((r) => r.organizationFiscalCode === fiscalCode)
        .filter(
          (r) => (!from || r.paymentDateTime >= bound(from, false)) && (!to || r.paymentDateTime <= bound(to, true)),
        )
        .filter((r) => !query.get('debtor') || r.debtor === query.get('debtor'))
        .sort((a, b) => a.paymentDateTime.localeCompare(b.paymentDateTime) || a.iuv.localeCompare(b.iuv));
      const results = found
        .slice(pageNum * pageSize, pageNum * pageSize + pageSize)
        .map(({ document: _document, ...listed }) => listed);
      return {
        currentPageNumber: pageNum,
        length: results.length,
        totalPages: Math.ceil(found.length / pageSize),
        results,
      };
    },
    receipt(fiscalCode: string, iuv: string): string {
      const receipt = state.receipts[`${fiscalCode}|${iuv}`];
      if (!receipt)
        throw new ApiError(
          404,
          'Not found the receipt',
          `Not found a receipt for Organization Fiscal Code ${fiscalCode} and IUV ${iuv}`,
        );
      return receipt.document;
    },

    /** POST /carts (checkout_v1.json CartRequest): 1–5 notices, three return URLs; the cart's page address. */
    createCart(body: unknown, baseUrl: string): string {
      const problem = (detail: string): never => {
        throw new ApiError(400, 'Bad Request', detail);
      };
      const b = (body ?? {}) as Record<string, unknown>;
      const notices = b.paymentNotices;
      if (!Array.isArray(notices) || notices.length < 1 || notices.length > 5)
        problem('paymentNotices: size must be between 1 and 5');
      for (const [i, n] of (notices as Record<string, unknown>[]).entries()) {
        if (!/^[0-9]{18}$/.test(String(n.noticeNumber ?? '')))
          problem(`paymentNotices[${i}].noticeNumber: size must be 18`);
        if (String(n.fiscalCode ?? '').length !== 11) problem(`paymentNotices[${i}].fiscalCode: size must be 11`);
        if (!Number.isInteger(n.amount) || (n.amount as number) < 1)
          problem(`paymentNotices[${i}].amount: must be greater than or equal to 1`);
        for (const field of ['companyName', 'description'])
          if (typeof n[field] !== 'string' || (n[field] as string).length > 140)
            problem(`paymentNotices[${i}].${field}: size must be between 0 and 140`);
      }
      const urls = (b.returnUrls ?? {}) as Record<string, unknown>;
      for (const field of ['returnOkUrl', 'returnCancelUrl', 'returnErrorUrl']) {
        try {
          new URL(String(urls[field] ?? ''));
        } catch {
          problem(`returnUrls.${field}: must be a valid URI`);
        }
      }
      const cart: Cart = {
        id: randomUUID(),
        notices: notices as Cart['notices'],
        returnUrls: {
          returnOkUrl: String(urls.returnOkUrl),
          returnCancelUrl: String(urls.returnCancelUrl),
          returnErrorUrl: String(urls.returnErrorUrl),
        },
        emailNotice: typeof b.emailNotice === 'string' ? b.emailNotice : undefined,
        idCart: typeof b.idCart === 'string' ? b.idCart : undefined,
        createdAt: now().toISOString(),
      };
      state.carts[cart.id] = cart;
      return `${baseUrl}/c/${cart.id}`;
    },
    cart: (id: string) => state.carts[id],
    /** The notices of a cart GPD can be paid for now (Checkout verifies each with the EC before it lets the citizen pay). */
    cartProblems(cart: Cart): string[] {
      return cart.notices.flatMap((n) => {
        const position = byNav(n.fiscalCode, n.noticeNumber);
        if (!position) return [`L'avviso ${n.noticeNumber} non esiste presso l'ente.`];
        if (!PAYABLE.includes(position.status))
          return [
            `L'avviso ${n.noticeNumber} non è pagabile (${position.status === 'PAID' || position.status === 'REPORTED' ? 'già pagato' : position.status}).`,
          ];
        if (position.paymentOption[0]!.amount !== n.amount)
          return [`L'importo dell'avviso ${n.noticeNumber} non corrisponde.`];
        return [];
      });
    },
    /** The citizen's choice on the cart's page: pay (every notice), cancel or fail; answers where to send them back. */
    async finishCart(cart: Cart, outcome: 'OK' | 'CANCEL' | 'ERROR'): Promise<string> {
      if (!cart.outcome) {
        cart.outcome = outcome;
        if (outcome === 'OK') for (const n of cart.notices) pay(byNav(n.fiscalCode, n.noticeNumber)!, 'CP');
        await save();
      }
      const urls = cart.returnUrls;
      return cart.outcome === 'OK'
        ? urls.returnOkUrl
        : cart.outcome === 'CANCEL'
          ? urls.returnCancelUrl
          : urls.returnErrorUrl;
    },
  };
}
