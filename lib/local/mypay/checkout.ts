/**
 * The citizen's payment: a cart sent with paaSILInviaDovuti, the positions MyPay holds listed by
 * paaSILChiediPosizioniAperte with their landing (/public/landing/precaricato), the checkout page standing for
 * pagoPA's (/checkout/<idSession>) and the outcome read back with paaSILChiediPagati.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseXml } from '@rgrove/parse-xml';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { isMyPayFiscalCode } from './fiscal-code.ts';
import { formOrJson, page } from './http.ts';
import { CART_EXPIRY_MS, DOVUTI_XSD_PATH, TIPI_VERSAMENTO, type Position, type SessionRecord } from './model.ts';
import { entityChecker, SoapFault, str, withFaults } from './soap.ts';
import type { SimulatorStore } from './store.ts';
import type { createVerificaAvviso } from './verifica-avviso.ts';
import {
  centsFromDecimal,
  childOf,
  decimalFromCents,
  elementsOf,
  escapeHtml,
  euro,
  localName,
  now,
  textOf,
  today,
  token,
} from './values.ts';

let dovutiValidator: XsdValidator | undefined;
/** The schema's first complaint about a Dovuti XML (libxml2's XSD validation), or null when it is valid. */
export function dovutiSchemaErrors(xml: string): string | null {
  dovutiValidator ??= XsdValidator.fromDoc(XmlDocument.fromString(fs.readFileSync(DOVUTI_XSD_PATH, 'utf8')));
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (error) {
    return `XML non ben formato: ${(error as Error).message}`;
  }
  try {
    dovutiValidator.validate(doc);
    return null;
  } catch (error) {
    return (error as Error).message.trim();
  } finally {
    doc.dispose();
  }
}

/** A position as MyPay4's paaSILChiediPosizioniAperte describes it (ChiediPosizioniAperteService.mapDebitoToNewDovuti). */
function dovutiXml(p: Position): string {
  const el = (name: string, value: string) => (value ? `<${name}>${escapeHtml(value)}</${name}>` : '');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><Dovuti xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/"><versioneOggetto>6.2</versioneOggetto>` +
    `<soggettoPagatore><identificativoUnivocoPagatore>${el('tipoIdentificativoUnivoco', p.tipoIdentificativoUnivoco)}${el('codiceIdentificativoUnivoco', p.fiscalCode)}</identificativoUnivocoPagatore>` +
    `${el('anagraficaPagatore', p.anagrafica)}${el('e-mailPagatore', p.email)}</soggettoPagatore>` +
    `<datiVersamento><tipoVersamento>ALL</tipoVersamento>${el('identificativoUnivocoVersamento', p.iuv)}<datiSingoloVersamento>` +
    `${el('identificativoUnivocoDovuto', p.iud)}<importoSingoloVersamento>${decimalFromCents(p.amountCents)}</importoSingoloVersamento>` +
    `${el('identificativoTipoDovuto', p.tipoDovuto)}${el('causaleVersamento', p.causale)}${el('datiSpecificiRiscossione', p.datiSpecificiRiscossione)}` +
    `</datiSingoloVersamento></datiVersamento></Dovuti>`
  );
}

/** A cart never started within MyPay4's 15 minutes is expired (ScadenzaCarrelloTaskService). */
function expireIfStale(session: SessionRecord, at = Date.now()) {
  if (session.status === 'NON_INIZIATO' && at - Date.parse(session.createdAt) > CART_EXPIRY_MS)
    session.status = 'SCADUTO';
}

export function createCheckout(store: SimulatorStore, verifica: ReturnType<typeof createVerificaAvviso>) {
  const { url, options, entities, entity, state, save, positionKey, newIuv } = store;
  const checkEntity = entityChecker(entity);

  const operations = {
    /**
     * A new cart of positions MyPay does not hold yet (MyPay4 PagamentiTelematiciDovutiPagatiImpl.paaSILInviaDovuti):
     * `dovuti` must be valid against PagInf_Dovuti_Pagati_6_2_0.xsd (PAA_XML_NON_VALIDO), carry no IUV
     * (PAA_IUV_NON_VALIDO: deprecated) and no IUD the entity already has (PAA_IUD_DUPLICATO). The new
     * positions' due date is today: MyPay has no other.
     */
    paaSILInviaDovuti: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const xml = Buffer.from(str(args.dovuti) ?? '', 'base64').toString('utf8');
      const invalid = dovutiSchemaErrors(xml);
      if (invalid) throw new SoapFault('PAA_XML_NON_VALIDO', 'XML dei dovuti non valido', invalid);
      const dovuti = parseXml(xml).root!;
      const versamento = childOf(dovuti, 'datiVersamento');
      if (textOf(versamento, 'identificativoUnivocoVersamento'))
        throw new SoapFault('PAA_IUV_NON_VALIDO', "l'inserimento dello IUV è deprecato");
      const tipoVersamento = textOf(versamento, 'tipoVersamento');
      if (!tipoVersamento.split('|').every((t) => TIPI_VERSAMENTO.has(t)))
        throw new SoapFault('PAA_TIPO_VERSAMENTO_NON_VALIDO', `Tipo versamento non valido [${tipoVersamento}]`);
      const payer = childOf(dovuti, 'soggettoPagatore');
      const id = childOf(payer, 'identificativoUnivocoPagatore');
      const fiscalCode = textOf(id, 'codiceIdentificativoUnivoco').toUpperCase();
      if (
        textOf(id, 'tipoIdentificativoUnivoco') === 'F'
          ? !isMyPayFiscalCode(fiscalCode)
          : !/^[0-9]{11}$/.test(fiscalCode)
      ) {
        throw new SoapFault('PAA_CODICE_FISCALE_NON_VALIDO', `Codice fiscale non valido [${fiscalCode}]`);
      }
      const items = elementsOf(versamento).filter((c) => localName(c.name) === 'datiSingoloVersamento');
      const iuds: string[] = [];
      for (const item of items) {
        const iud = textOf(item, 'identificativoUnivocoDovuto');
        if (state.positions[positionKey(e.codIpa, iud)] || iuds.includes(iud))
          throw new SoapFault('PAA_IUD_DUPLICATO', `IUD [${iud}] già inviato`);
        if (centsFromDecimal(textOf(item, 'importoSingoloVersamento')) <= 0)
          throw new SoapFault('PAA_IMPORTO_SINGOLO_VERSAMENTO_NON_VALIDO', 'ImportoSingoloVersamento non valido');
        if (!textOf(item, 'causaleVersamento'))
          throw new SoapFault('PAA_CAUSALE_NON_PRESENTE', 'Causale versamento obbligatoria mancante');
        iuds.push(iud);
      }
      for (const item of items) {
        const iud = textOf(item, 'identificativoUnivocoDovuto');
        state.positions[positionKey(e.codIpa, iud)] = {
          codIpa: e.codIpa,
          iud,
          iuv: newIuv(e),
          status: 'DA_PAGARE',
          amountCents: centsFromDecimal(textOf(item, 'importoSingoloVersamento')),
          tipoIdentificativoUnivoco: textOf(id, 'tipoIdentificativoUnivoco'),
          fiscalCode,
          anagrafica: textOf(payer, 'anagraficaPagatore'),
          email: textOf(payer, 'e-mailPagatore'),
          causale: textOf(item, 'causaleVersamento'),
          dueDate: today(),
          tipoDovuto: textOf(item, 'identificativoTipoDovuto'),
          datiSpecificiRiscossione: textOf(item, 'datiSpecificiRiscossione'),
          updatedAt: now(),
        };
      }
      const idSession = randomUUID();
      state.sessions[idSession] = {
        idSession,
        codIpa: e.codIpa,
        returnUrl: str(args.enteSILInviaRispostaPagamentoUrl) ?? '',
        iuds,
        status: 'NON_INIZIATO',
        createdAt: now(),
      };
      await save();
      return { esito: 'OK', idSession, redirect: 1, url: `${url}/checkout/${idSession}` };
    }),

    /**
     * MyPay4 ChiediPosizioniAperteService: the person's unpaid positions (of one entity, when codIpaEnte is
     * given), each with its Dovuti XML (base64Binary) and the landing that pays it. The password is the
     * default entity's. Each position gets a session fixed the first time it is listed.
     */
    paaSILChiediPosizioniAperte: withFaults(async (args) => {
      const admin = entity(options.defaultEntity ?? entities[0]!.codIpa)!;
      if (str(args.password) !== admin.password)
        throw new SoapFault('PAA_ENTE_NON_VALIDO', `Password non valida per ente [${admin.codIpa}]`);
      const codIpa = str(args.codIpaEnte);
      if (codIpa && !entity(codIpa))
        throw new SoapFault('PAA_ENTE_NON_VALIDO', `codice IPA Ente [${codIpa}] non valido`);
      const person = (args.identificativoUnivocoPersonaFG ?? {}) as Record<string, unknown>;
      const kind = str(person.tipoIdentificativoUnivoco);
      const code = (str(person.codiceIdentificativoUnivoco) ?? '').toUpperCase();
      if (!(kind === 'F' ? isMyPayFiscalCode(code) : kind === 'G' && /^[0-9]{11}$/.test(code))) {
        throw new SoapFault(
          'PAA_IDENTIFICATIVO_UNIVOCO_PERSONA_NON_VALIDO',
          'Identificativo univoco persona non valido',
        );
      }
      const open = Object.values(state.positions).filter(
        (p) =>
          p.status === 'DA_PAGARE' &&
          p.fiscalCode === code &&
          p.tipoIdentificativoUnivoco === kind &&
          (!codIpa || p.codIpa === codIpa),
      );
      for (const p of open) p.idSession ??= randomUUID();
      if (open.length) await save();
      return {
        paaSILPosizioniAperte: open.map((p) => ({
          codIpaEnte: p.codIpa,
          deNomeEnte: entity(p.codIpa)!.name,
          urlPagamento: `${url}/public/landing/precaricato?id=${p.idSession}`,
          dovuti: Buffer.from(dovutiXml(p)).toString('base64'),
        })),
      };
    }),

    /**
     * MyPay4 paaSILChiediPagati: the session's outcome. `pagati` is Base64 of the Pagati XML wrapped in a
     * DataHandler, which the SOAP layer encodes again: Base64 twice on the wire. Not started, in progress,
     * cancelled and expired sessions answer with their fault codes.
     */
    paaSILChiediPagati: withFaults(async (args) => {
      const e = checkEntity(str(args.codIpaEnte), str(args.password));
      const idSession = str(args.idSession) ?? '';
      const session = state.sessions[idSession];
      // No cart for the session (modello unico: none before the receipt): what the basket's age says.
      if (!session || session.codIpa !== e.codIpa || session.linked === false) throw verifica.noCartFault(idSession);
      expireIfStale(session);
      if (session.status === 'NON_INIZIATO')
        throw new SoapFault('PAA_PAGAMENTO_NON_INIZIATO', 'Pagamento non iniziato');
      if (session.status === 'IN_CORSO') throw new SoapFault('PAA_PAGAMENTO_IN_CORSO', 'Pagamento in corso');
      if (session.status === 'ANNULLATO')
        throw new SoapFault('PAA_PAGAMENTO_ANNULLATO', 'Pagamento annullato dal cittadino');
      if (session.status === 'SCADUTO')
        throw new SoapFault('PAA_PAGAMENTO_SCADUTO', 'Pagamento scaduto per idSession specificato');
      const positions = sessionPositions(session);
      const ok = session.status === 'PAGATO';
      const first = positions[0]!;
      const paidHere = (p: Position) => (ok ? (session.payments?.[p.iud] ?? p.paid) : undefined);
      const xml =
        `<?xml version="1.0" encoding="UTF-8"?><Pagati xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/">` +
        `<versioneOggetto>6.2</versioneOggetto><dominio><identificativoDominio>${e.codIpa}</identificativoDominio></dominio>` +
        `<identificativoMessaggioRicevuta>${session.idSession}</identificativoMessaggioRicevuta>` +
        `<soggettoPagatore><identificativoUnivocoPagatore><tipoIdentificativoUnivoco>${first.tipoIdentificativoUnivoco}</tipoIdentificativoUnivoco>` +
        `<codiceIdentificativoUnivoco>${first.fiscalCode}</codiceIdentificativoUnivoco></identificativoUnivocoPagatore><anagraficaPagatore>${escapeHtml(first.anagrafica)}</anagraficaPagatore></soggettoPagatore>` +
        `<datiPagamento><codiceEsitoPagamento>${ok ? 0 : 1}</codiceEsitoPagamento><importoTotalePagato>${decimalFromCents(positions.reduce((sum, p) => sum + (paidHere(p)?.amountCents ?? 0), 0))}</importoTotalePagato>` +
        `<identificativoUnivocoVersamento>${first.iuv}</identificativoUnivocoVersamento><codiceContestoPagamento>${session.idSession.slice(0, 35)}</codiceContestoPagamento>` +
        positions
          .map((p) => [p, paidHere(p)] as const)
          .filter(([, paid]) => paid)
          .map(
            ([p, paid]) =>
              `<datiSingoloPagamento><singoloImportoPagato>${decimalFromCents(paid!.amountCents)}</singoloImportoPagato><esitoSingoloPagamento>${escapeHtml(paid!.esito ?? '0')}</esitoSingoloPagamento>` +
              `<dataEsitoSingoloPagamento>${paid!.paidOn}</dataEsitoSingoloPagamento><identificativoUnivocoRiscossione>${paid!.iur}</identificativoUnivocoRiscossione>` +
              `<causaleVersamento>${escapeHtml(p.causale)}</causaleVersamento><datiSpecificiRiscossione>${escapeHtml(p.datiSpecificiRiscossione)}</datiSpecificiRiscossione>` +
              `<identificativoUnivocoDovuto>${escapeHtml(p.iud)}</identificativoUnivocoDovuto></datiSingoloPagamento>`,
          )
          .join('') +
        `</datiPagamento></Pagati>`;
      const once = Buffer.from(xml, 'utf8').toString('base64');
      return { esito: ok ? 'OK' : 'KO', pagati: Buffer.from(once, 'ascii').toString('base64') };
    }),
  };

  /**
   * pagoPA's receipt (paSendRT) reaches MyPay: the positions are paid and, with the modello unico, the cart is
   * linked to the session from now on (PagamentiTelematiciCCPPaImpl.paSendRT).
   */
  function receive(session: SessionRecord) {
    session.payments = {};
    for (const p of sessionPositions(session)) {
      // A receipt through pagoPA's paSendRT: MyPay stores esitoSingoloPagamento '0' (SendRtOutcomeService.java).
      const payment = {
        amountCents: p.amountCents,
        paidOn: today(),
        iur: `IUR${randomBytes(8).toString('hex').toUpperCase()}`,
        esito: '0',
      };
      if (p.paid) (p.morePayments ??= []).push(payment);
      else p.paid = payment;
      p.status = 'PAGATO';
      session.payments[p.iud] = payment;
    }
    session.pendingReceipt = false;
    if (session.linked === false) session.linked = true;
  }
  /** The receipts held back by the switch holdReceipts, delivered now (the admin action 'receipts'). */
  async function deliverReceipts(): Promise<string[]> {
    const delivered = Object.values(state.sessions).filter((s) => s.pendingReceipt);
    delivered.forEach(receive);
    if (delivered.length) await save();
    return delivered.map((s) => s.idSession);
  }

  const sessionPositions = (session: SessionRecord) =>
    session.iuds.map((iud) => state.positions[positionKey(session.codIpa, iud)]).filter(Boolean);
  function checkoutPage(res: ServerResponse, session: SessionRecord) {
    const positions = sessionPositions(session);
    const total = positions.reduce((s, p) => s + p.amountCents, 0);
    const done = !['NON_INIZIATO', 'IN_CORSO'].includes(session.status);
    page(
      res,
      'Pagamento pagoPA (simulatore MyPay)',
      `<h1>Pagamento pagoPA <small>(simulatore MyPay)</small></h1>
      <table><caption>Posizioni da pagare</caption><thead><tr><th scope="col">Causale</th><th scope="col">Avviso</th><th scope="col">Importo</th></tr></thead><tbody>
      ${positions.map((p) => `<tr><td>${escapeHtml(p.causale)}</td><td>3${p.iuv}</td><td>${euro.format(p.amountCents / 100)}</td></tr>`).join('')}
      </tbody></table>
      <p>Totale: <strong>${euro.format(total / 100)}</strong></p>
      ${
        done
          ? `<p>Sessione già conclusa: ${session.status}.</p>`
          : `<form method="post"><fieldset><legend>Esito del pagamento</legend>
        <button name="esito" value="success">Paga (esito positivo)</button>
        <button name="esito" value="failure">Pagamento rifiutato (esito negativo)</button>
        <button name="esito" value="cancel">Annulla</button></fieldset></form>`
      }`,
    );
  }
  async function checkout(req: IncomingMessage, res: ServerResponse, idSession: string) {
    const session = state.sessions[idSession];
    if (!session) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Sessione di pagamento sconosciuta');
    }
    expireIfStale(session);
    if (req.method === 'GET') {
      if (session.status === 'NON_INIZIATO') {
        session.status = 'IN_CORSO';
        await save();
      }
      return checkoutPage(res, session);
    }
    const { esito } = await formOrJson(req);
    if (!['NON_INIZIATO', 'IN_CORSO'].includes(session.status)) return checkoutPage(res, session);
    if (esito === 'success') {
      session.status = 'PAGATO';
      // Modello unico: pagoPA's receipt may come later (the switch holdReceipts); until then MyPay knows nothing.
      if (session.linked === false && store.switches.holdReceipts) session.pendingReceipt = true;
      else receive(session);
    } else if (esito === 'failure') session.status = 'KO';
    else if (esito === 'cancel') session.status = 'ANNULLATO';
    else {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('esito: success, failure o cancel');
    }
    await save();
    // LandingController.landingPaymentResponse: back to the caller's URL with idSession, esito OK or ERROR, pollingToken.
    const target = new URL(session.returnUrl || `${url}/`);
    target.searchParams.set('idSession', session.idSession);
    target.searchParams.set('esito', session.status === 'PAGATO' ? 'OK' : 'ERROR');
    target.searchParams.set('pollingToken', token());
    res.writeHead(303, { location: target.toString() });
    res.end();
  }

  /**
   * MyPay4 LandingController.landingPrecaricatoAnonimoEnte (GET /public/landing/precaricato?id&backUrl[&email]):
   * the position whose fixed session is `id`, paid on MyPay's own record of it (amount, due date). A new
   * attempt of a session that ended without a payment replaces it (CarrelloMultiBeneficiarioService); a
   * position no longer payable is a 400, as MyPay4's "dovuto non trovato".
   */
  async function landingPrecaricato(req: IncomingMessage, res: ServerResponse) {
    const query = new URL(req.url ?? '/', url).searchParams;
    const id = query.get('id') ?? '';
    const backUrl = query.get('backUrl') ?? '';
    const bad = (text: string) => {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (!id) return bad('id parameter is mandatory');
    if (!backUrl) return bad('backUrl parameter is mandatory');
    const position = Object.values(state.positions).find((p) => p.idSession === id && p.status === 'DA_PAGARE');
    if (!position) return bad(`dovuto non trovato per idSession = ${id}`);
    const current = state.sessions[id];
    if (current) expireIfStale(current);
    if (!current || !['NON_INIZIATO', 'IN_CORSO'].includes(current.status)) {
      state.sessions[id] = {
        idSession: id,
        codIpa: position.codIpa,
        returnUrl: backUrl,
        iuds: [position.iud],
        status: 'NON_INIZIATO',
        createdAt: now(),
      };
    } else current.returnUrl = backUrl;
    await save();
    res.writeHead(302, { location: `${url}/checkout/${id}` });
    res.end();
  }

  return { operations, checkout, landingPrecaricato, deliverReceipts };
}
