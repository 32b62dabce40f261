/**
 * Paying a position the council imported, as MyPay4 offers it to the council's own system:
 * - paaSILVerificaAvviso (ws/impl/PagamentiTelematiciDovutiPagatiImpl.java): the council's codIpaEnte
 *   (header) and password, the IUV and the page to come back to; the positions of that IUV must be DA_PAGARE,
 *   of an active payment type, not past a required due date (PAA_IUV_NON_VALIDO, PAA_IUV_SCADUTO). MyPay
 *   keeps a basket for an hour (StorageService) under a new session id with its time in it
 *   (Utilities.getRandomUUIDWithTimestamp) and answers the landing URL;
 * - the landing /public/landing/inviaDovuti?id= (controller/LandingController.java) and the checkout it starts
 *   (service/PaymentManagerService.checkoutCarrello): a basket older than its storage is 'Id not valid'; each
 *   position is validated again (debitValidation: DA_PAGARE in a loaded flow — dao/DovutoDao.java's
 *   idStatoFlussoCaricato —, the type active, a required due date not past; the payer's CAP 5 digits when
 *   Italian, DovutoService.validateAndNormalizeAnagraficaPagatore); a failure is MyPay's own error page. In WISP
 *   mode a session older than the storage is refused (placeOrder, 'sessione scaduta') and the cart exists from
 *   here on; with the modello unico only a multi-cart is made, and the session's cart appears when pagoPA's
 *   receipt arrives (PagamentiTelematiciCCPPaImpl.paSendRT, payment note IDS-<idSession>);
 * - what paaSILChiediPagati answers for a session that has no cart: NON_INIZIATO while its basket is stored,
 *   SCADUTO once older than the storage plus 5 minutes' grace, ID_SESSION_NON_VALIDO in between.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { page } from './http.ts';
import {
  BASKET_STORAGE_MS,
  SESSION_EXPIRY_GRACE_MS,
  type BasketRecord,
  type Position,
  type SimulatedEntity,
} from './model.ts';
import { SoapFault, entityChecker, str, withFaults } from './soap.ts';
import type { SimulatorStore } from './store.ts';
import { escapeHtml, now, today, token } from './values.ts';

/** MyPay4 Utilities.getRandomUUIDWithTimestamp: a UUID whose last group is the time (yyMMddHHmmssSSS) in hex. */
export function sessionIdWithTimestamp(at = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${two(at.getUTCFullYear() % 100)}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}${String(at.getUTCMilliseconds()).padStart(3, '0')}`;
  return `${randomUUID().split('-').slice(0, 4).join('-')}-${BigInt(stamp).toString(16)}`;
}

/** The time in a session id of sessionIdWithTimestamp (Utilities.parseDateFromUUIDWithTimestamp), or null. */
export function timeOfSessionId(idSession: string): number | null {
  const hex = idSession.slice(idSession.lastIndexOf('-') + 1);
  if (!/^[0-9a-f]{1,16}$/.test(hex)) return null;
  const d = BigInt(`0x${hex}`).toString().padStart(15, '0');
  const time = Date.parse(
    `20${d.slice(0, 2)}-${d.slice(2, 4)}-${d.slice(4, 6)}T${d.slice(6, 8)}:${d.slice(8, 10)}:${d.slice(10, 12)}.${d.slice(12, 15)}Z`,
  );
  return Number.isNaN(time) ? null : time;
}

const tipoActive = (e: SimulatedEntity, p: Position) => e.tipiDovuto[p.tipoDovuto] === true;
const pastDue = (e: SimulatedEntity, p: Position) =>
  (e.scadenzaObbligatoria ?? []).includes(p.tipoDovuto) && p.dueDate < today();

export function createVerificaAvviso(store: SimulatorStore) {
  const { url, options, entity, state, save, positionKey } = store;
  const checkEntity = entityChecker(entity);
  const modelloUnico = options.modelloUnico ?? true;

  const basketAge = (basket: BasketRecord) => Date.now() - Date.parse(basket.createdAt);

  const operations = {
    paaSILVerificaAvviso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const iuv = str(args.identificativoUnivocoVersamento) ?? '';
      const found = Object.values(state.positions).filter((p) => p.codIpa === e.codIpa && p.iuv === iuv);
      const payable: Position[] = [];
      let disabled: string | undefined;
      for (const p of found) {
        if (!tipoActive(e, p)) {
          disabled ??= `il dovuto [${p.tipoDovuto}] associato allo IUV risulta disabilitato o non presente`;
          continue;
        }
        if (p.status !== 'DA_PAGARE')
          throw new SoapFault('PAA_IUV_NON_VALIDO', `non ci sono dovuti pagabili per il dato IUV [${iuv}]`);
        if (pastDue(e, p))
          throw new SoapFault('PAA_IUV_SCADUTO', `alcuni dovuti sono scaduti per il dato IUV [${iuv}]`);
        payable.push(p);
      }
      if (!payable.length)
        throw new SoapFault(
          'PAA_IUV_NON_VALIDO',
          `Error nessun dovuto trovato per IUV [${iuv}] ed ente [${e.codIpa}]`,
          disabled,
        );
      const basket: BasketRecord = {
        token: token(),
        idSession: sessionIdWithTimestamp(),
        codIpa: e.codIpa,
        backUrl: str(args.enteSILInviaRispostaPagamentoUrl) ?? '',
        iuds: payable.map((p) => p.iud),
        createdAt: now(),
      };
      state.baskets[basket.token] = basket;
      state.basketOfSession[basket.idSession] = basket.token;
      await save();
      return {
        esito: 'OK',
        idSession: basket.idSession,
        redirect: 1,
        url: `${url}/public/landing/inviaDovuti?id=${basket.token}`,
      };
    }),
  };

  /** MyPay4's error page: the message of its catalogue (messages_it.properties), nothing the citizen can act on. */
  function errorPage(res: ServerResponse, message: string) {
    page(res, 'MyPay - Errore', `<h1>Si è verificato un errore</h1><p role="alert">${escapeHtml(message)}</p>`, 400);
  }

  /** Why MyPay4's checkout refuses a position of the basket (PaymentManagerService.debitValidation), or null. */
  function refusal(p: Position | undefined): string | null {
    if (!p) return 'Il dovuto è inesistente.';
    const flow = p.flow ? state.imports[p.flow] : undefined;
    if (p.status !== 'DA_PAGARE' || (flow && (flow.state !== 'IMPORT_ESEGUITO' || flow.codErrore)))
      return 'Questo dovuto e´ gia´ stato pagato oppure e´ in corso di pagamento.';
    const e = entity(p.codIpa)!;
    if (!tipoActive(e, p))
      return 'Il dovuto selezionato e´ disabilitato, contatti l´ente beneficiario per capire come effettuare il pagamento';
    if (pastDue(e, p)) return 'Il dovuto selezionato e´ scaduto.';
    if (p.cap && (p.nazione || 'IT').toUpperCase() === 'IT' && !/^[0-9]{5}$/.test(p.cap))
      return 'Il cap intestatario non è valido.';
    return null;
  }

  /** GET /public/landing/inviaDovuti?id=<basket>: validates again and opens the checkout of the basket's session. */
  async function landingInviaDovuti(req: IncomingMessage, res: ServerResponse) {
    const id = new URL(req.url ?? '/', url).searchParams.get('id') ?? '';
    const basket = state.baskets[id];
    if (!basket || basketAge(basket) > BASKET_STORAGE_MS) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`Id not valid: ${id}`);
    }
    const positions = basket.iuds.map((iud) => state.positions[positionKey(basket.codIpa, iud)]);
    const refused = positions.map(refusal).find(Boolean);
    if (refused) return errorPage(res, refused);
    const existing = state.sessions[basket.idSession];
    if (existing?.status === 'PAGATO')
      return errorPage(res, 'Questo dovuto e´ gia´ stato pagato oppure e´ in corso di pagamento.');
    // A new attempt after one that ended without a payment replaces it (CarrelloMultiBeneficiarioService).
    if (!existing || !['NON_INIZIATO', 'IN_CORSO'].includes(existing.status)) {
      state.sessions[basket.idSession] = {
        idSession: basket.idSession,
        codIpa: basket.codIpa,
        returnUrl: basket.backUrl,
        iuds: basket.iuds,
        status: 'IN_CORSO',
        createdAt: basket.createdAt,
        // Modello unico: only the multi-cart exists until the receipt arrives.
        ...(modelloUnico ? { linked: false } : {}),
      };
      await save();
    }
    res.writeHead(302, { location: `${url}/checkout/${basket.idSession}` });
    res.end();
  }

  /**
   * paaSILChiediPagati for a session without a cart (MyPay4: carrello == null): NON_INIZIATO while the basket
   * is stored, SCADUTO past the storage and its grace, else ID_SESSION_NON_VALIDO.
   */
  function noCartFault(idSession: string): SoapFault {
    const basket = state.baskets[state.basketOfSession[idSession] ?? ''];
    if (basket && basketAge(basket) <= BASKET_STORAGE_MS)
      return new SoapFault(
        'PAA_PAGAMENTO_NON_INIZIATO',
        `Pagamento non iniziato per l'idSession specificato [${idSession}]`,
      );
    const created = basket ? Date.parse(basket.createdAt) : timeOfSessionId(idSession);
    if (created !== null && Date.now() - created > BASKET_STORAGE_MS + SESSION_EXPIRY_GRACE_MS)
      return new SoapFault('PAA_PAGAMENTO_SCADUTO', `Pagamento scaduto per l'idSession specificato [${idSession}]`);
    return new SoapFault('PAA_ID_SESSION_NON_VALIDO', `idSession [${idSession}] non valido per l Ente specificato`);
  }

  /** Ages a basket (the admin action 'age'), as if `minutes` had gone by since paaSILVerificaAvviso. */
  function age(idSession: string, minutes: number): BasketRecord | null {
    const basket = state.baskets[state.basketOfSession[idSession] ?? ''];
    if (!basket) return null;
    basket.createdAt = new Date(Date.parse(basket.createdAt) - minutes * 60_000).toISOString();
    return basket;
  }

  return { operations, landingInviaDovuti, noCartFault, age, modelloUnico };
}
