import {
  gpdDueDay,
  gpdIupd,
  gpdNoticeNumber,
  gpdPaymentPosition,
  iudOfIupd,
  portalStateOfGpd,
  type GpdCreditor,
} from '../../domain/gpd.ts';
import {
  PLATFORM_CAPABILITIES,
  type PaymentPlatform,
  type PlatformExportResults,
  type PlatformPayment,
  type PlatformPosition,
} from '../../domain/payment-platform.ts';
import { romeDay } from '../../domain/period.ts';
import { GpdRefused, type GpdClient, type GpdPosition } from './client.ts';

/**
 * pagoPA GPD behind the payment-platform port (functions/domain/payment-platform.ts), over the GPD client: the
 * export's steps call it when the deployment's paymentPlatform is 'gpd' (functions/entry/flow-task.ts).
 */

/** Why GPD refused a position, for the operator (GPD's own title stays in `code`). */
const refusalReason = (error: GpdRefused): string => {
  if (error.status === 409)
    return 'pagoPA ha già una posizione diversa con lo stesso identificativo o lo stesso IUV, oppure la posizione non è più modificabile (pagata o annullata)';
  if (error.status === 403)
    return 'pagoPA non consente all’ente questo IUV: verificare il codice di segregazione configurato';
  if (error.status === 400) return `pagoPA ha rifiutato i dati della posizione: ${error.detail}`;
  return `pagoPA ha rifiutato la posizione (${error.status} ${error.title})`;
};

const paymentsOf = (iud: string, position: GpdPosition): PlatformPayment[] =>
  position.paymentOption
    .filter((o) => o.status === 'PO_PAID' || o.status === 'PO_REPORTED' || o.status === 'PO_PARTIALLY_REPORTED')
    .map((o) => ({
      iud,
      iuv: o.iuv,
      amountCents: o.amount,
      // GPD's LocalDateTime is UTC: the day is Rome's, as every day the portal shows.
      paidOn: romeDay(new Date(`${(o.paymentDate ?? position.paymentDate ?? '').slice(0, 19)}Z`)),
      receiptId: o.idReceipt ?? '',
      ...(o.pspCompany ? { psp: o.pspCompany } : {}),
    }));

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export function makeGpdPlatform(client: GpdClient, creditor: GpdCreditor): PaymentPlatform {
  const bodyOf = (p: PlatformPosition) => {
    if (!p.iuv) throw new Error(`GPD: la posizione ${p.iud} non ha uno IUV (su GPD lo genera il portale)`);
    return gpdPaymentPosition(
      {
        iud: p.iud,
        revision: p.revision,
        iuv: p.iuv,
        fiscalCode: p.fiscalCode,
        fullName: p.fullName,
        email: p.email,
        amountCents: p.amountCents,
        description: p.description,
        dueDay: gpdDueDay(p.dueDay, romeDay(new Date())),
      },
      creditor,
    );
  };

  return {
    name: 'gpd',
    capabilities: PLATFORM_CAPABILITIES.gpd,

    export: {
      /** Creates in bulk calls of at most 100, updates and invalidates one by one; GPD answers at once. */
      async submit({ flowId, attempt, positions }, options = {}) {
        const results: PlatformExportResults = { accepted: [], rejected: [] };
        const accept = (p: PlatformPosition) =>
          results.accepted.push({ iud: p.iud, iuv: p.iuv!, nav: gpdNoticeNumber(p.iuv!) });
        const reject = (p: PlatformPosition, error: GpdRefused) =>
          results.rejected.push({ iud: p.iud, code: `GPD_${error.status}`, reason: refusalReason(error) });
        const updated = async (p: PlatformPosition) => {
          try {
            await client.updatePosition(bodyOf(p), options);
            return true;
          } catch (error) {
            if (error instanceof GpdRefused) return false;
            throw error;
          }
        };
        const creates = positions.filter((p) => p.action === 'create');
        for (let i = 0; i < creates.length; i += PLATFORM_CAPABILITIES.gpd.batchSize) {
          const batch = creates.slice(i, i + PLATFORM_CAPABILITIES.gpd.batchSize);
          const { created, refused } = await client.createPositions(batch.map(bodyOf), options);
          for (const p of batch) {
            const iupd = gpdIupd(p.iud, p.revision ?? 0);
            const no = refused.find((r) => r.iupd === iupd);
            // GPD holds this iupd with other content: a create whose answer was lost, changed since (a new amount
            // before the portal learnt it was created). Updating it makes it what the portal holds; if GPD will
            // not (not updatable, or the clash was another position's IUV), the create's refusal stands.
            if (no?.error.status === 409 && (await updated(p))) accept(p);
            else if (no) reject(p, no.error);
            else if (created.includes(iupd)) accept(p);
          }
        }
        for (const p of positions.filter((x) => x.action !== 'create')) {
          try {
            if (p.action === 'update') await client.updatePosition(bodyOf(p), options);
            else await client.invalidatePosition(gpdIupd(p.iud, p.revision ?? 0), options);
            accept(p);
          } catch (error) {
            // A cancellation of a position GPD never received (its create never went through): nothing to invalidate.
            if (error instanceof GpdRefused && error.status === 404 && p.action === 'cancel') accept(p);
            else if (error instanceof GpdRefused) reject(p, error);
            else throw error;
          }
        }
        return { ticket: `${flowId}#${attempt}`, results };
      },
      async progress() {
        throw new Error('GPD risponde subito: non c’è un’elaborazione da attendere');
      },
    },

    checkout: {
      /** A Checkout cart (≤ 5 notices) whose three return addresses are `returnUrl` with the correlation id and the outcome. */
      async open({ notices, returnUrl, correlationId, email }) {
        if (notices.length < 1 || notices.length > PLATFORM_CAPABILITIES.gpd.cartSize)
          throw new RangeError(`Checkout: da 1 a ${PLATFORM_CAPABILITIES.gpd.cartSize} avvisi`);
        const back = (esito: string) => {
          const url = new URL(returnUrl);
          url.searchParams.set('id', correlationId);
          url.searchParams.set('esito', esito);
          return url.toString();
        };
        try {
          const url = await client.openCart({
            paymentNotices: notices.map((n) => ({
              noticeNumber: n.noticeNumber,
              fiscalCode: creditor.fiscalCode,
              amount: n.amountCents,
              companyName: creditor.companyName.slice(0, 140),
              description: n.description.slice(0, 140),
            })),
            returnUrls: { returnOkUrl: back('ok'), returnCancelUrl: back('annullato'), returnErrorUrl: back('errore') },
            idCart: correlationId,
            ...(email ? { emailNotice: email } : {}),
          });
          return { sessionId: correlationId, url };
        } catch (error) {
          // 422 (UAT: a notice that cannot be verified): nothing payable.
          if (error instanceof GpdRefused && error.status === 422) return null;
          throw error;
        }
      },
      /** What the positions say: paid (with GPD's receipt fields) or not yet known — the return never says. */
      async outcome({ notices }) {
        const payments: PlatformPayment[] = [];
        for (const n of notices) {
          const held = await client.getPosition(gpdIupd(n.iud, n.revision ?? 0));
          if (held) payments.push(...paymentsOf(n.iud, held));
        }
        return { status: payments.length > 0 ? 'PAID' : 'UNKNOWN', payments };
      },
    },

    reporting: {
      /** The council's positions paid between the two Rome days, read by payment-date windows of ≤ 30 days (UTC days, one more each side). */
      async paidBetween(from, to, options = {}) {
        const found: PlatformPayment[] = [];
        for (let start = addDays(from, -1); start <= addDays(to, 1); start = addDays(start, 30)) {
          const end = [addDays(start, 29), addDays(to, 1)].sort()[0]!;
          for (const status of ['PAID', 'REPORTED'] as const) {
            for (const position of await client.listPositions(
              { paymentDateFrom: start, paymentDateTo: end, status },
              options,
            )) {
              const own = iudOfIupd(position.iupd);
              if (own) found.push(...paymentsOf(own.iud, position).filter((p) => p.paidOn >= from && p.paidOn <= to));
            }
          }
        }
        return found;
      },
    },

    async positionState({ iud, revision }) {
      const held = await client.getPosition(gpdIupd(iud, revision ?? 0));
      if (!held) return null;
      return { iud, ...portalStateOfGpd(held.status), platformState: held.status, payments: paymentsOf(iud, held) };
    },
  };
}
