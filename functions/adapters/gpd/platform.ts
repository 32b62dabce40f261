import { gpdDueDay, gpdNoticeNumber, iupdOfPosition, gpdPaymentPosition, type GpdCreditor } from '../../domain/gpd.ts';
import {
  PLATFORM_CAPABILITIES,
  type PaymentPlatform,
  type PlatformExportResults,
  type PlatformPayment,
  type PlatformPosition,
} from '../../domain/payment-platform.ts';
import { romeDay } from '../../domain/period.ts';
import { GpdRefused, type GpdClient } from './client.ts';
import { dayOf, gpdPositionStates, gpdReporting } from './reporting.ts';

/**
 * pagoPA GPD behind the payment-platform port (functions/domain/payment-platform.ts), over the GPD client: the
 * export's steps (functions/entry/flow-task-gpd.ts), 'Paga' (a Checkout cart) and the reporting call it when the
 * deployment's paymentPlatform is 'gpd'. A payment counts once pagoPA's receipt has reached the council (the receipts
 * service): never on the return from Checkout alone.
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

export function makeGpdPlatform(client: GpdClient, creditor: GpdCreditor): PaymentPlatform {
  const bodyOf = (p: PlatformPosition) => {
    if (!p.iuv) throw new Error(`GPD: la posizione ${p.iud} non ha uno IUV (su GPD lo genera il portale)`);
    return gpdPaymentPosition(
      {
        iud: p.iud,
        iupd: p.iupd ?? null,
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
            const iupd = iupdOfPosition(p);
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
            else await client.invalidatePosition(iupdOfPosition(p), options);
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
      /**
       * A Checkout cart (≤ 5 notices) whose three return addresses are `returnUrl` with the correlation id as
       * `idSession` (the parameter the portal's page reads back on either platform) and Checkout's outcome as `esito`,
       * which the portal never reads as proof.
       */
      async open({ notices, returnUrl, correlationId, email }) {
        if (notices.length < 1 || notices.length > PLATFORM_CAPABILITIES.gpd.cartSize)
          throw new RangeError(`Checkout: da 1 a ${PLATFORM_CAPABILITIES.gpd.cartSize} avvisi`);
        const back = (esito: string) => {
          const url = new URL(returnUrl);
          url.searchParams.set('idSession', correlationId);
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
      /**
       * What pagoPA's receipts say (amount, date, PSP, receipt id from each paSendRTV2): paid once a receipt is there,
       * otherwise not known yet — the return never says, and a receipt may reach the council minutes later.
       */
      async outcome({ notices }, options = {}) {
        const payments: PlatformPayment[] = [];
        for (const n of notices) {
          const receipt = await client.receipt(n.iuv, options);
          if (receipt)
            payments.push({
              iud: n.iud,
              iuv: receipt.iuv,
              amountCents: receipt.amountCents,
              paidOn: dayOf(receipt.paymentDateTime),
              receiptId: receipt.receiptId,
              psp: receipt.pspCompanyName || receipt.idPsp,
            });
        }
        return { status: payments.length > 0 ? 'PAID' : 'UNKNOWN', payments };
      },
    },

    reporting: gpdReporting(client),

    positionStates: gpdPositionStates(client),
  };
}
