/** The tester's side: the fault switches and test actions (JSON API under /admin) and the page at /. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formOrJson, json, page } from './http.ts';
import { FAULT_TARGETS, IMPORT_FAIL_STAGES, SOAP_PATH, type FaultKind, type ImportFailStage } from './model.ts';
import type { SimulatorStore } from './store.ts';
import { escapeHtml, euro, isRealDate, today } from './values.ts';

export function createAdmin(
  store: SimulatorStore,
  payments: { deliverReceipts(): Promise<string[]>; age(idSession: string, minutes: number): unknown },
) {
  const { url, configured, entities, state, switches, save, resetState } = store;

  /**
   * Marks positions paid (by IUD, IUV, or the first `count` unpaid ones), as if citizens had paid them at a
   * counter or in a bank's app: `esito` is what MyPay stores as esitoSingoloPagamento ('0' by default),
   * `amountCents` another amount than the one due, `again` a second payment of a position already paid.
   */
  function markPaid(body: Record<string, unknown>) {
    const list = (value: unknown) =>
      (Array.isArray(value) ? value : String(value ?? '').split(/[\s,;]+/))
        .map((v) => String(v).trim())
        .filter(Boolean);
    const iuds = list(body.iuds);
    const iuvs = list(body.iuvs);
    const count = Number(body.count ?? 0);
    const paidOn = isRealDate(String(body.paidOn ?? '')) ? String(body.paidOn) : today();
    const esito = String(body.esito ?? '0') || '0';
    const again = body.again === true || body.again === 'true';
    const amount = Number(body.amountCents);
    const payable = Object.values(state.positions).filter(
      (p) => p.status === 'DA_PAGARE' || (again && p.status === 'PAGATO'),
    );
    const chosen = payable.filter((p) => iuds.includes(p.iud) || iuvs.includes(p.iuv));
    if (count > 0) chosen.push(...payable.filter((p) => !chosen.includes(p)).slice(0, count));
    return chosen.map((p) => {
      const payment = {
        amountCents: Number.isInteger(amount) && amount > 0 ? amount : p.amountCents,
        paidOn,
        iur: `IUR${randomBytes(8).toString('hex').toUpperCase()}`,
        esito,
      };
      if (p.paid) (p.morePayments ??= []).push(payment);
      else p.paid = payment;
      p.status = 'PAGATO';
      return { iud: p.iud, iuv: p.iuv, amountCents: payment.amountCents, paidOn, iur: payment.iur };
    });
  }

  async function admin(req: IncomingMessage, res: ServerResponse, action: string) {
    const fromForm = !(req.headers['content-type'] ?? '').includes('application/json');
    const done = (body: unknown) => {
      if (fromForm && req.method === 'POST') {
        res.writeHead(303, { location: '/' });
        return res.end();
      }
      json(res, 200, body);
    };
    const times = (value: unknown): number | null =>
      value === 'always' || value === undefined || value === ''
        ? value === 'always'
          ? null
          : 1
        : Math.max(1, Number(value));
    if (req.method === 'GET' && action === 'state') return json(res, 200, { switches, ...state });
    if (req.method !== 'POST') return json(res, 405, { error: 'POST' });
    let body: Record<string, unknown>;
    try {
      body = await formOrJson(req);
    } catch {
      return json(res, 400, { error: 'JSON non valido' });
    }
    switch (action) {
      case 'faults': {
        const target = String(body.operation ?? body.target ?? '');
        const kind = String(body.kind ?? '') as FaultKind;
        if (![...FAULT_TARGETS, '*'].includes(target as never))
          return json(res, 400, { error: `operation: one of ${FAULT_TARGETS.join(', ')}, *` });
        if (!['5xx', 'timeout', 'lost-answer'].includes(kind))
          return json(res, 400, { error: 'kind: 5xx, timeout or lost-answer' });
        switches.faults.push({ target, kind, remaining: times(body.times) });
        return done({ switches });
      }
      case 'import': {
        const mode = String(body.mode ?? '');
        const code = String(body.code ?? '').trim() || 'PAA_IMPORT_ERROR';
        if (mode === 'normal') switches.importMode = null;
        else if (mode === 'stuck') switches.importMode = { mode, remaining: times(body.times) };
        else if (mode === 'failed') {
          if (!/^[A-Z0-9_]+(\(.*\))?\)?$/.test(code))
            return json(res, 400, { error: 'code: an error code as MyPay sends it, e.g. PAA_IMPORT_NO_MATCH_MD5' });
          const stage = body.stage === undefined ? undefined : String(body.stage);
          if (stage !== undefined && !IMPORT_FAIL_STAGES.includes(stage as ImportFailStage))
            return json(res, 400, { error: `stage: one of ${IMPORT_FAIL_STAGES.join(', ')}` });
          switches.importMode = {
            mode,
            code,
            ...(stage
              ? { stage: stage as ImportFailStage, afterRows: Math.max(0, Number(body.afterRows ?? 0) || 0) }
              : {}),
            remaining: times(body.times),
          };
        } else if (mode === 'release') {
          // pagoPA has synchronised the positions (GPD): the imports held in IMPORT_IN_ELAB end.
          for (const held of Object.values(state.imports)) if (held.mode === 'stuck') held.mode = 'normal';
          await save();
        } else return json(res, 400, { error: 'mode: normal, stuck, failed (with code) or release' });
        return done({ switches });
      }
      case 'reject': {
        const iuds = (Array.isArray(body.iuds) ? body.iuds : String(body.iuds ?? '').split(/[\s,;]+/))
          .map(String)
          .filter(Boolean);
        switches.reject = { iuds, count: Math.max(0, Number(body.count ?? 0) || 0) };
        return done({ switches });
      }
      case 'tipi-dovuto': {
        // The entity's tipi dovuto (MyPay's back office): a code added or made (in)active.
        const code = String(body.code ?? '').trim();
        if (!/^[A-Za-z0-9_.-]{1,64}$/.test(code))
          return json(res, 400, { error: 'code: the tipo dovuto, at most 64 characters' });
        for (const e of entities) e.tipiDovuto[code] = body.active !== false && body.active !== 'false';
        return done({ tipiDovuto: entities[0]!.tipiDovuto });
      }
      case 'reuse-token': {
        switches.reuseToken = Math.max(0, Number(body.times ?? 1) || 0);
        return done({ switches });
      }
      case 'paid': {
        const paid = markPaid(body);
        await save();
        return done({ paid });
      }
      case 'expire': {
        // Ages a session past MyPay4's expiry, as if 15 minutes went by without a payment starting.
        const session = state.sessions[String(body.idSession ?? '')];
        if (!session) return json(res, 400, { error: 'idSession sconosciuto' });
        if (['NON_INIZIATO', 'IN_CORSO'].includes(session.status)) session.status = 'SCADUTO';
        await save();
        return done({ session });
      }
      case 'receipts': {
        // Modello unico: hold pagoPA's receipts of paid checkouts back ({ hold: true }), or deliver them ({ hold: false }).
        switches.holdReceipts = body.hold === true || body.hold === 'true';
        const delivered = switches.holdReceipts ? [] : await payments.deliverReceipts();
        return done({ switches, delivered });
      }
      case 'age': {
        // A paaSILVerificaAvviso session as if `minutes` had gone by (MyPay4 keeps its basket for an hour).
        const minutes = Number(body.minutes);
        if (!Number.isFinite(minutes) || minutes <= 0) return json(res, 400, { error: 'minutes: a number above 0' });
        const basket = payments.age(String(body.idSession ?? ''), minutes);
        if (!basket) return json(res, 400, { error: 'idSession sconosciuto' });
        await save();
        return done({ basket });
      }
      case 'due': {
        // A held position's due date moved, as if the days had gone by since its import (MyPay4 refuses to import a past one).
        const held = Object.values(state.positions).find((p) => p.iud === String(body.iud ?? ''));
        if (!held) return json(res, 400, { error: 'iud sconosciuto' });
        if (!isRealDate(String(body.dueDate ?? ''))) return json(res, 400, { error: 'dueDate: una data yyyy-mm-dd' });
        held.dueDate = String(body.dueDate);
        await save();
        return done({ position: held });
      }
      case 'reset': {
        switches.faults = [];
        switches.importMode = null;
        switches.reject = { iuds: [], count: 0 };
        switches.reuseToken = 0;
        switches.holdReceipts = false;
        configured.forEach((e, i) => (entities[i]!.tipiDovuto = { ...e.tipiDovuto }));
        if (body.state === true || body.state === 'true') {
          resetState();
          await save();
        }
        return done({ switches });
      }
      default:
        return json(res, 404, { error: 'unknown admin action' });
    }
  }

  function home(res: ServerResponse) {
    const imports = Object.values(state.imports)
      .filter((i) => i.state !== 'AUTORIZZATO')
      .slice(-50)
      .reverse();
    const positions = Object.values(state.positions).slice(-100).reverse();
    const targets = FAULT_TARGETS.map((t) => `<option>${t}</option>`).join('');
    page(
      res,
      'Simulatore MyPay',
      `<h1>Simulatore MyPay</h1>
      <p>SOAP: <code>${url}${SOAP_PATH}</code> (WSDL: <a href="${SOAP_PATH}?wsdl">?wsdl</a>). Enti: ${entities.map((e) => `<code>${e.codIpa}</code>`).join(', ')}. Stato: <a href="/admin/state">/admin/state</a>.</p>
      <h2>Interruttori di guasto</h2>
      <p>Attivi: <code>${escapeHtml(JSON.stringify(switches))}</code></p>
      <form method="post" action="/admin/faults"><fieldset><legend>Errore su un'operazione</legend>
        <label for="f-op">Operazione</label><select id="f-op" name="operation"><option>*</option>${targets}</select>
        <label for="f-kind">Tipo</label><select id="f-kind" name="kind"><option value="5xx">5xx</option><option value="timeout">timeout</option><option value="lost-answer">risposta persa</option></select>
        <label for="f-times">Volte</label><input id="f-times" name="times" value="1" size="6"> (numero o <code>always</code>)
        <button>Attiva</button></fieldset></form>
      <form method="post" action="/admin/import"><fieldset><legend>Import</legend>
        <label for="i-mode">Esito dei prossimi import</label><select id="i-mode" name="mode"><option value="stuck">fermo in IMPORT_IN_ELAB (GPD)</option><option value="failed">fallito con il codice</option><option value="release">sblocca quelli fermi</option><option value="normal">normale</option></select>
        <label for="i-code">Codice</label><input id="i-code" name="code" value="PAA_IMPORT_NO_MATCH_MD5" size="32">
        <label for="i-times">Volte</label><input id="i-times" name="times" value="1" size="6"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/tipi-dovuto"><fieldset><legend>Tipi dovuto dell'ente (${escapeHtml(JSON.stringify(entities[0]!.tipiDovuto))})</legend>
        <label for="t-code">Codice</label><input id="t-code" name="code" size="32"><label for="t-active">Attivo</label><select id="t-active" name="active"><option value="true">sì</option><option value="false">no</option></select><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/reject"><fieldset><legend>Righe scartate</legend>
        <label for="r-iuds">IUD</label><input id="r-iuds" name="iuds" size="40"><label for="r-count">oppure le prime N righe valide</label><input id="r-count" name="count" value="0" size="4"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/reuse-token"><fieldset><legend>Request token riusato</legend>
        <label for="t-times">Prossime autorizzazioni</label><input id="t-times" name="times" value="1" size="4"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/paid"><fieldset><legend>Segna come pagate (rendicontazione)</legend>
        <label for="p-iuds">IUD</label><input id="p-iuds" name="iuds" size="40"><label for="p-count">oppure le prime N da pagare</label><input id="p-count" name="count" value="0" size="4"><button>Segna pagate</button></fieldset></form>
      <form method="post" action="/admin/reset"><button>Spegni tutti gli interruttori</button></form>
      <h2>Import (ultimi 50)</h2>
      <table><thead><tr><th scope="col">File</th><th scope="col">Request token</th><th scope="col">Stato</th><th scope="col">Righe</th><th scope="col">Accettate</th><th scope="col">Scartate</th><th scope="col">File di esito</th></tr></thead><tbody>
      ${imports
        .map(
          (i) =>
            `<tr><td>${escapeHtml(i.fileName ?? '')}</td><td><code>${i.requestToken}</code></td><td>${i.state}${i.mode !== 'normal' ? ` (${i.mode})` : ''}</td><td>${i.rows ?? ''}</td><td>${i.accepted ?? ''}</td><td>${i.rejected ?? ''}</td>
            <td>${(['iuv', 'scarti', 'avvisi'] as const).map((k) => (i.files[k] ? `<a href="${i.files[k]}">${k.toUpperCase()}</a>` : '')).join(' ')}</td></tr>`,
        )
        .join('')}
      </tbody></table>
      <h2>Posizioni (ultime 100 di ${Object.keys(state.positions).length})</h2>
      <table><thead><tr><th scope="col">IUD</th><th scope="col">IUV</th><th scope="col">Pagatore</th><th scope="col">Importo</th><th scope="col">Scadenza</th><th scope="col">Stato</th></tr></thead><tbody>
      ${positions.map((p) => `<tr><td>${escapeHtml(p.iud)}</td><td>${p.iuv}</td><td>${escapeHtml(p.anagrafica)} ${p.fiscalCode}</td><td>${euro.format(p.amountCents / 100)}</td><td>${p.dueDate}</td><td>${p.status}${p.paid ? ` il ${p.paid.paidOn}` : ''}</td></tr>`).join('')}
      </tbody></table>`,
    );
  }

  return { admin, home };
}
