import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import { messages, paymentOutcomeMessages } from '../../functions/domain/messages.ts';
import { applyPayment, isPayable, type PaymentReceipt } from '../../functions/domain/position-payment.ts';
import type { MyPay, MyPayPaidRow, MyPayPaymentOutcome } from '../../functions/adapters/ports.ts';
import type { CallRecord } from '../../functions/calls/repository.ts';
import type { StoredConfiguration } from '../../functions/configuration/repository.ts';
import { makeReportingUseCases } from '../../functions/reporting/use-cases.ts';
import type { PaymentSession } from '../../functions/user-positions/repository.ts';
import { checkReturnUrl, makeUserPositionUseCases } from '../../functions/user-positions/use-cases.ts';
import type { StoredUser } from '../../functions/users/repository.ts';
import { actors, memoryAudit, memoryMetrics, tickingClock } from '../support/in-memory.ts';

const NOW = '2026-03-10T10:00:00.000Z';

function position(overrides: Partial<PositionRecord> = {}): PositionRecord {
  const iud = overrides.iud ?? 'P202603AAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  return {
    id: iud, iud, callId: 'call-1', userId: 'user-maria', fiscalCode: 'RSSMRA85C52H501N', cognome: 'Rossi', nome: 'Maria', mese: 3, anno: 2026,
    titolo: 'Assistenza domiciliare – Marzo 2026', descrizione: 'Quota Marzo 2026', importoDovuto: 6643, importoTotalePagato: 0, isPagato: false, annullato: false,
    codIuv: '01000000001234519', nav: '301000000001234519', dataScadenza: '2026-03-31', azione: 'I', statoExport: 'ESPORTATA', lastExportError: null,
    isEmailSent: false, dataIsEmailSent: null, ioId: null, dataEsitoSingoloPagamento: null, createdAt: NOW, updatedAt: NOW, exportedAt: NOW, iseeId: null, version: 3,
    ...overrides,
  };
}
const receiptFor = (p: PositionRecord, overrides: Partial<PaymentReceipt> = {}): PaymentReceipt => ({
  iud: p.iud, iuv: p.codIuv ?? '01000000009999911', amountCents: p.importoDovuto, paidOn: '2026-03-12', iur: 'IUR0001', ...overrides,
});

describe('applyPayment (the paid rule)', () => {
  it('marks an unpaid position paid with the amount, the date, the IUR and the IUV, as the next version', () => {
    const before = position();
    const effect = applyPayment(before, receiptFor(before), NOW);
    expect(effect.kind).toBe('paid');
    if (effect.kind !== 'paid') return;
    expect(effect.after).toMatchObject({ isPagato: true, importoTotalePagato: 6643, dataEsitoSingoloPagamento: '2026-03-12', iur: 'IUR0001', codIuv: '01000000001234519', version: 4, updatedAt: NOW });
    expect(before.isPagato).toBe(false); // the input is not changed
  });

  it('gives a position without an IUV the one MyPay paid it under, and its notice number', () => {
    const before = position({ codIuv: null, nav: null });
    const effect = applyPayment(before, receiptFor(before, { iuv: '01000000001234519' }), NOW);
    expect(effect.kind === 'paid' && [effect.after.codIuv, effect.after.nav]).toEqual(['01000000001234519', '301000000001234519']);
  });

  it('is idempotent: a paid position never changes again, whatever the receipt', () => {
    const paid = position({ isPagato: true, importoTotalePagato: 6643, dataEsitoSingoloPagamento: '2026-03-11' });
    expect(applyPayment(paid, receiptFor(paid), NOW)).toEqual({ kind: 'already-paid' });
    expect(applyPayment(paid, receiptFor(paid, { amountCents: 1, paidOn: '2026-04-01' }), NOW)).toEqual({ kind: 'already-paid' });
  });

  it('never pays a cancelled position, a receipt of another position or of another amount', () => {
    const cancelled = position({ annullato: true, importoDovuto: 0, azione: 'A' });
    expect(applyPayment(cancelled, receiptFor(cancelled, { amountCents: 100 }), NOW)).toEqual({ kind: 'cancelled' });
    const p = position();
    expect(applyPayment(p, receiptFor(p, { iud: 'P202603BBBBBBBBBBBBBBBBBBBBBBBBBBBB' }), NOW)).toEqual({ kind: 'mismatch', reason: 'iud' });
    expect(applyPayment(p, receiptFor(p, { amountCents: 6642 }), NOW)).toEqual({ kind: 'mismatch', reason: 'amount' });
  });

  it('says a position is payable only while unpaid, not cancelled and above zero', () => {
    expect(isPayable(position())).toBe(true);
    expect(isPayable(position({ isPagato: true }))).toBe(false);
    expect(isPayable(position({ annullato: true }))).toBe(false);
    expect(isPayable(position({ importoDovuto: 0 }))).toBe(false);
  });
});

describe('checkReturnUrl', () => {
  it('accepts a citizen page of the portal itself and drops a previous return’s parameters', () => {
    expect(checkReturnUrl('http://localhost:3000/iscrizioni/visualizza_servizio?id=c1&idSession=x&esito=OK', 'localhost:3000')).toBe(
      'http://localhost:3000/iscrizioni/visualizza_servizio?id=c1',
    );
  });
  it('refuses another site, another page, or no URL at all (400)', () => {
    for (const url of ['https://evil.example/iscrizioni/visualizza_servizio', 'http://localhost:3000/lista_utenti', 'javascript:alert(1)', 'not a url']) {
      expect(() => checkReturnUrl(url, 'localhost:3000'), url).toThrow(messages.payment.returnUrl);
    }
  });
});

/** MyPay's checkout as the simulator plays it: a session per payment, its outcome set by the test. */
function fakeMyPay() {
  const sessions = new Map<string, { iuds: string[]; amount: number; iuv?: string; outcome: MyPayPaymentOutcome['status'] }>();
  let next = 0;
  const mypay: Pick<MyPay, 'startPayment' | 'paymentOutcome'> & { returnUrls: string[]; unavailable: boolean } = {
    returnUrls: [],
    unavailable: false,
    async startPayment(_payer, items, returnUrl) {
      if (mypay.unavailable) throw Object.assign(new Error('down'), { name: 'MyPayUnavailable' });
      const idSession = `session-${++next}`;
      sessions.set(idSession, { iuds: items.map((i) => i.iud), amount: items[0].amountCents, iuv: items[0].iuv, outcome: 'PENDING' });
      mypay.returnUrls.push(returnUrl);
      return { idSession, url: `https://mypay.test/checkout/${idSession}` };
    },
    async paymentOutcome(idSession) {
      const s = sessions.get(idSession)!;
      if (s.outcome !== 'PAID') return { status: s.outcome, payments: [] };
      return { status: 'PAID', payments: s.iuds.map((iud) => ({ iud, iuv: s.iuv ?? '01000000001234519', amountCents: s.amount, paidOn: '2026-03-12', iur: 'IUR-1' })) };
    },
  };
  return { mypay, settle: (idSession: string, outcome: MyPayPaymentOutcome['status']) => (sessions.get(idSession)!.outcome = outcome) };
}

function citizenPortal() {
  const stored = new Map<string, PositionRecord>();
  const maria = position();
  const giuseppe = position({ iud: 'P202603CCCCCCCCCCCCCCCCCCCCCCCCCCCC', userId: 'user-giuseppe', fiscalCode: 'VRDGPP90P07F839R' });
  for (const p of [maria, giuseppe]) stored.set(p.iud, p);
  const paymentSessions = new Map<string, PaymentSession>();
  let writes = 0;
  const users: Record<string, StoredUser> = {
    'user-maria': { id: 'user-maria', fiscalCode: 'RSSMRA85C52H501N', firstName: 'Maria', lastName: 'Rossi', email: 'maria@example.it' } as StoredUser,
    'user-giuseppe': { id: 'user-giuseppe', fiscalCode: 'VRDGPP90P07F839R', firstName: 'Giuseppe', lastName: 'Verdi' } as StoredUser,
  };
  const { mypay, settle } = fakeMyPay();
  const audit = memoryAudit();
  const metrics = memoryMetrics();
  const config: StoredConfiguration = {
    values: { azione: 'I', codUfficio: 'U', codeConfig: 'C', flgGeneraIuv: true, tipoDovuto: 'SERVIZI_SOCIALI', tipoIdentificativoUnivoco: 'F', datiSpecificiRiscossione: '9/0101100IM/', tipoVersamento: 'ALL' },
    updatedAt: NOW,
  } as StoredConfiguration;
  const useCases = makeUserPositionUseCases({
    positions: {
      getPositionByIud: async (iud) => structuredClone(stored.get(iud) ?? null),
      listPositionsOfUser: async (userId) => ({ items: [...stored.values()].filter((p) => p.userId === userId), nextCursor: null }),
      async recordPayment(p, expectedVersion) {
        const current = stored.get(p.iud);
        if (!current || current.version !== expectedVersion || current.isPagato || current.annullato) return false;
        writes += 1;
        stored.set(p.iud, structuredClone(p));
        return true;
      },
    },
    users: {
      findUserIdByFiscalCode: async (code) => Object.values(users).find((u) => u.fiscalCode === code)?.id ?? null,
      getUserItem: async (id) => users[id] ?? null,
    },
    sessions: {
      createPaymentSession: async (s) => void paymentSessions.set(s.idSession, s),
      getPaymentSession: async (id) => paymentSessions.get(id) ?? null,
      recordSessionOutcome: async (id, outcome, at) => void Object.assign(paymentSessions.get(id)!, { outcome, resolvedAt: at }),
    },
    configuration: { getConfiguration: async () => config },
    mypay,
    notices: { noticeUrl: async (p) => (p.iud === maria.iud ? `https://exports.test/${p.iud}.pdf` : null) },
    audit,
    clock: tickingClock(NOW),
    metrics,
  });
  const returnUrl = 'http://localhost:3000/iscrizioni/visualizza_servizio?id=call-1';
  const pay = (iud = maria.iud, actor = actors.citizen) => useCases.pay(iud, { returnUrl }, actor, 'localhost:3000');
  return { useCases, stored, maria, giuseppe, mypay, settle, audit, metrics, pay, writes: () => writes };
}

describe('the citizen’s positions and paying them', () => {
  it('lists only the citizen’s own positions, with badge, payability and the notice link when the PDF exists', async () => {
    const { useCases, maria } = citizenPortal();
    const page = await useCases.listMyPositions({}, actors.citizen);
    expect(page.items.map((p) => [p.iud, p.badge, p.payable, p.noticeUrl])).toEqual([[maria.iud, 'Da pagare', true, `https://exports.test/${maria.iud}.pdf`]]);
  });

  it('pays once: Paga → MyPay says PAID → the position is paid; a reload or a second return writes nothing', async () => {
    const { useCases, pay, settle, stored, maria, audit, writes, mypay } = citizenPortal();
    const checkout = await pay();
    expect(checkout.url).toBe(`https://mypay.test/checkout/${checkout.idSession}`);
    expect(mypay.returnUrls).toEqual(['http://localhost:3000/iscrizioni/visualizza_servizio?id=call-1']);
    settle(checkout.idSession, 'PAID');
    const first = await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    expect(first).toMatchObject({ esito: 'PAID', recorded: true, message: paymentOutcomeMessages.paid, position: { badge: 'Pagato', payable: false } });
    const again = await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    expect(again).toMatchObject({ esito: 'PAID', recorded: false, message: paymentOutcomeMessages.paidBefore });
    expect(writes()).toBe(1);
    expect(stored.get(maria.iud)).toMatchObject({ isPagato: true, importoTotalePagato: 6643, dataEsitoSingoloPagamento: '2026-03-12', iur: 'IUR-1' });
    expect(audit.entries.filter((e) => e.entity === 'position')).toHaveLength(1);
    await expect(pay()).rejects.toMatchObject({ status: 409, message: paymentOutcomeMessages.alreadyPaid });
  });

  it('counts a payment recorded once, and a receipt for a cancelled position as one to reconcile', async () => {
    const { useCases, pay, settle, stored, maria, metrics } = citizenPortal();
    const { idSession } = await pay();
    settle(idSession, 'PAID');
    await useCases.paymentReturn({ idSession }, actors.citizen);
    await useCases.paymentReturn({ idSession }, actors.citizen);
    expect([metrics.total('PaymentsRecorded', { channel: 'checkout' }), metrics.total('PaymentsToReconcile')]).toEqual([1, 0]);

    const other = citizenPortal();
    const second = await other.pay();
    other.settle(second.idSession, 'PAID');
    other.stored.set(other.maria.iud, { ...other.maria, annullato: true });
    expect(await other.useCases.paymentReturn({ idSession: second.idSession }, actors.citizen)).toMatchObject({ recorded: false });
    expect([other.metrics.total('PaymentsToReconcile', { channel: 'checkout' }), other.metrics.total('PaymentsRecorded')]).toEqual([1, 0]);
    expect(stored.get(maria.iud)!.isPagato).toBe(true);
  });

  it('leaves the position payable when MyPay says FAILED, CANCELLED or still PENDING, whatever the URL claimed', async () => {
    for (const outcome of ['FAILED', 'CANCELLED', 'PENDING'] as const) {
      const { useCases, pay, settle, stored, maria, writes } = citizenPortal();
      const { idSession } = await pay();
      settle(idSession, outcome);
      const answer = await useCases.paymentReturn({ idSession }, actors.citizen);
      expect(answer.esito).toBe(outcome);
      expect(answer.recorded).toBe(false);
      expect(answer.position).toMatchObject({ badge: 'Da pagare', payable: true });
      expect(stored.get(maria.iud)!.isPagato).toBe(false);
      expect(writes()).toBe(0);
    }
  });

  it('answers 404 for another citizen’s position, another citizen’s session or an unknown one', async () => {
    const { useCases, pay, giuseppe, settle } = citizenPortal();
    await expect(pay(giuseppe.iud)).rejects.toMatchObject({ status: 404, message: messages.payment.notFound });
    await expect(pay('P202603DDDDDDDDDDDDDDDDDDDDDDDDDDDD')).rejects.toMatchObject({ status: 404 });
    const { idSession } = await pay();
    settle(idSession, 'PAID');
    await expect(useCases.paymentReturn({ idSession }, actors.otherCitizen)).rejects.toMatchObject({ status: 404, message: messages.payment.sessionNotFound });
    await expect(useCases.paymentReturn({ idSession: 'unknown' }, actors.citizen)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses to pay a cancelled position (409) and reports MyPay down as 503, writing nothing', async () => {
    const { pay, stored, maria, mypay } = citizenPortal();
    mypay.unavailable = true;
    await expect(pay()).rejects.toMatchObject({ status: 503, message: paymentOutcomeMessages.unavailable });
    stored.set(maria.iud, { ...maria, annullato: true, importoDovuto: 0 });
    await expect(pay()).rejects.toMatchObject({ status: 409, message: paymentOutcomeMessages.cancelled });
  });
});

describe('Rendicontazione', () => {
  const call = { id: 'call-1', dataInsert: '2026-02-01T08:00:00.000Z' } as CallRecord;
  function reportingPortal(rows: MyPayPaidRow[], reportPaid?: MyPay['reportPaid']) {
    const stored = new Map<string, PositionRecord>();
    const a = position({ iud: 'P202603A1A1A1A1A1A1A1A1A1A1A1A1A1A1' });
    const b = position({ iud: 'P202603B2B2B2B2B2B2B2B2B2B2B2B2B2B2', userId: 'user-b' });
    const otherCall = position({ iud: 'P202603C3C3C3C3C3C3C3C3C3C3C3C3C3C3', callId: 'call-2' });
    for (const p of [a, b, otherCall]) stored.set(p.iud, p);
    const asked: string[][] = [];
    const audit: unknown[] = [];
    const metrics = memoryMetrics();
    const useCases = makeReportingUseCases({
      calls: { getCall: async (id) => (id === call.id ? call : null) },
      positions: {
        getPositionByIud: async (iud) => structuredClone(stored.get(iud) ?? null),
        async recordPayment(p, expected) {
          const current = stored.get(p.iud)!;
          if (current.version !== expected || current.isPagato) return false;
          stored.set(p.iud, p);
          return true;
        },
      },
      mypay: { reportPaid: reportPaid ?? (async (from, to) => (asked.push([from, to]), rows)) },
      audit: { recordMany: async (entries) => void audit.push(...entries) },
      clock: { now: () => new Date(NOW) },
      deadlineMs: 50,
      metrics,
    });
    return { useCases, stored, a, b, otherCall, asked, audit, metrics };
  }
  const row = (p: PositionRecord, overrides: Partial<MyPayPaidRow> = {}): MyPayPaidRow => ({ ...receiptFor(p), fiscalCode: p.fiscalCode, causale: '', ...overrides });

  it('marks the call’s paid positions from the call’s start to today; a second run marks none', async () => {
    const portal = reportingPortal([]);
    const rows = [row(portal.a), row(portal.b), row(portal.otherCall), row(portal.a, { iud: 'P202603UNKNOWNUNKNOWNUNKNOWNUNKNOWN1' })];
    const { useCases, stored, asked, audit } = reportingPortal(rows);
    const first = await useCases.runReporting('call-1', actors.operator);
    expect(first).toMatchObject({ inProgress: false, marked: 2, alreadyPaid: 0, unmatched: 1, from: '2026-02-01', to: '2026-03-10' });
    expect(first.message).toBe('Rendicontazione completata: 2 posizioni segnate come pagate, 0 già pagate, 1 non riconosciuta.');
    expect(asked).toEqual([['2026-02-01', '2026-03-10']]);
    expect(stored.get(portal.a.iud)!.isPagato).toBe(true);
    expect(stored.get(portal.otherCall.iud)!.isPagato).toBe(false); // another call's reporting marks it
    expect(audit).toHaveLength(2);
    const second = await useCases.runReporting('call-1', actors.operator);
    expect(second).toMatchObject({ marked: 0, alreadyPaid: 2, unmatched: 1 });
    expect(audit).toHaveLength(2);
  });

  it('counts the payments it marks, and a receipt of another amount as one to reconcile (not a row of no position of the portal)', async () => {
    const portal = reportingPortal([]);
    const rows = [row(portal.a), row(portal.b, { amountCents: 100 }), row(portal.a, { iud: 'P202603UNKNOWNUNKNOWNUNKNOWNUNKNOWN1' })];
    const { useCases, metrics } = reportingPortal(rows);
    await useCases.runReporting('call-1', actors.operator);
    expect([metrics.total('PaymentsRecorded', { channel: 'reporting' }), metrics.total('PaymentsToReconcile', { channel: 'reporting' })]).toEqual([1, 1]);
  });

  it('does not mark a position MyPay reports with another amount', async () => {
    const portal = reportingPortal([]);
    const { useCases, stored } = reportingPortal([row(portal.a, { amountCents: 100 })]);
    expect(await useCases.runReporting('call-1', actors.operator)).toMatchObject({ marked: 0, unmatched: 1 });
    expect(stored.get(portal.a.iud)!.isPagato).toBe(false);
  });

  it('says each count in the singular for one and in the plural otherwise', async () => {
    const portal = reportingPortal([]);
    const { useCases } = reportingPortal([row(portal.a), row(portal.a, { iud: 'P202603UNKNOWNUNKNOWNUNKNOWNUNKNOWN1' })]);
    expect((await useCases.runReporting('call-1', actors.operator)).message).toBe('Rendicontazione completata: 1 posizione segnata come pagata, 0 già pagate, 1 non riconosciuta.');
    expect((await useCases.runReporting('call-1', actors.operator)).message).toBe('Rendicontazione completata: 0 posizioni segnate come pagate, 1 già pagata, 1 non riconosciuta.');
  });

  it('answers ‘La rendicontazione è in corso’ when MyPay’s export is not ready in time, and 404 for an unknown call', async () => {
    const { useCases, stored } = reportingPortal([], () => new Promise(() => {}));
    expect(await useCases.runReporting('call-1', actors.operator)).toMatchObject({ inProgress: true, marked: 0, message: 'La rendicontazione è in corso' });
    expect([...stored.values()].some((p) => p.isPagato)).toBe(false);
    await expect(useCases.runReporting('nope', actors.operator)).rejects.toMatchObject({ status: 404 });
  });
});
