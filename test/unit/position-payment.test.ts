import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import type { PositionsChanged, Transition } from '../../functions/domain/positions/index.ts';
import { makePaymentListProjection } from '../../functions/payment-list/projection.ts';
import { memoryPositionWriter } from '../support/in-memory-positions.ts';
import { gpdPaymentMessages, messages, paymentOutcomeMessages } from '../../functions/domain/messages.ts';
import { paymentBadge, reconciliationCloseSchema } from '../../functions/domain/payments.ts';
import {
  closeReconciliation,
  isPayable,
  isPayableOnline,
  paymentReturnPath,
  settlePayment,
  type PaymentReceipt,
} from '../../functions/domain/position-payment.ts';
import type { MyPay, MyPayPaidRow, MyPayPaymentOutcome } from '../../functions/adapters/ports/mypay.ts';
import type { CallRecord } from '../../functions/domain/call-record.ts';
import { makePaymentSettlement } from '../../functions/positions/settlement.ts';
import { makeReportingUseCases } from '../../functions/reporting/use-cases.ts';
import { myPayCheckout, myPayReporting } from '../../functions/adapters/mypay/platform.ts';
import {
  PLATFORM_CAPABILITIES,
  type PayableNotice,
  type PaymentPlatform,
  type PlatformPayment,
} from '../../functions/domain/payment-platform.ts';
import type { PaymentSession } from '../../functions/user-positions/repository.ts';
import { makeUserPositionUseCases, paymentReturnUrl } from '../../functions/user-positions/use-cases.ts';
import type { StoredUser } from '../../functions/domain/user-record.ts';
import { actors, memoryAudit, memoryMetrics, tickingClock } from '../support/in-memory.ts';
import { exportedPosition } from '../support/position-records.ts';

const NOW = '2026-03-10T10:00:00.000Z';

const position = (overrides: Partial<PositionRecord> = {}) => exportedPosition(NOW, overrides);
const receiptFor = (p: PositionRecord, overrides: Partial<PaymentReceipt> = {}): PaymentReceipt => ({
  iud: p.iud,
  iuv: p.codIuv ?? '01000000009999911',
  amountCents: p.importoDovuto,
  paidOn: '2026-03-12',
  iur: 'IUR0001',
  ...overrides,
});

describe('settlePayment (whatever MyPay collected is recorded, issue 21)', () => {
  it('pays an unpaid position with the amount, the date, the IUR and the IUV, as the next version, and ends its checkout', () => {
    const before = position({
      checkoutSession: 's1',
      checkoutUrl: 'https://mypay.test/x',
      checkoutUntil: '2026-03-10T10:30:00.000Z',
    });
    const effect = settlePayment(before, receiptFor(before), NOW);
    expect(effect.kind).toBe('recorded');
    if (effect.kind !== 'recorded') return;
    expect(effect.reconciliation).toBeNull();
    expect(effect.after).toMatchObject({
      isPagato: true,
      importoTotalePagato: 6643,
      dataEsitoSingoloPagamento: '2026-03-12',
      iur: 'IUR0001',
      codIuv: '01000000001234519',
      version: 4,
      updatedAt: NOW,
    });
    expect(effect.after.pagamenti).toEqual([
      { iur: 'IUR0001', iuv: '01000000001234519', importo: 6643, data: '2026-03-12', registratoIl: NOW },
    ]);
    expect([effect.after.checkoutSession, effect.after.checkoutUntil, effect.after.riconciliazione]).toEqual([
      null,
      null,
      null,
    ]);
    expect(before.isPagato).toBe(false); // the input is not changed
  });

  it('gives a position without an IUV the one MyPay paid it under, and its notice number', () => {
    const before = position({ codIuv: null, nav: null });
    const effect = settlePayment(before, receiptFor(before, { iuv: '01000000001234519' }), NOW);
    expect(effect.kind === 'recorded' && [effect.after.codIuv, effect.after.nav]).toEqual([
      '01000000001234519',
      '301000000001234519',
    ]);
  });

  it('records the same receipt once: again (same IUR) changes nothing, also on a position paid before the payment list existed', () => {
    const first = settlePayment(position(), receiptFor(position()), NOW);
    if (first.kind !== 'recorded') throw new Error('not recorded');
    expect(settlePayment(first.after, receiptFor(position()), NOW)).toEqual({ kind: 'already-recorded' });
    const legacy = position({
      isPagato: true,
      importoTotalePagato: 6643,
      dataEsitoSingoloPagamento: '2026-03-11',
      iur: 'IUR0001',
    });
    expect(settlePayment(legacy, receiptFor(legacy), NOW)).toEqual({ kind: 'already-recorded' });
  });

  it('keeps another amount, marking it for reconciliation with the difference', () => {
    const p = position();
    const effect = settlePayment(p, receiptFor(p, { amountCents: 6000 }), NOW);
    expect(effect).toMatchObject({
      kind: 'recorded',
      reconciliation: { motivo: 'IMPORTO_DIVERSO', differenza: -643 },
      after: {
        isPagato: true,
        importoTotalePagato: 6000,
        riconciliazione: { motivo: 'IMPORTO_DIVERSO', differenza: -643 },
      },
    });
  });

  it('keeps money paid for a cancelled position: Pagato for the citizen, all of it to reconcile', () => {
    const cancelled = position({ annullato: true, importoDovuto: 0, azione: 'A' });
    const effect = settlePayment(cancelled, receiptFor(cancelled, { amountCents: 6643 }), NOW);
    expect(effect).toMatchObject({
      kind: 'recorded',
      reconciliation: { motivo: 'ANNULLATA', differenza: 6643 },
      after: { annullato: true, isPagato: true, importoTotalePagato: 6643 },
    });
    if (effect.kind === 'recorded') expect(paymentBadge(effect.after)).toBe('Pagato');
  });

  it('keeps a second payment of a paid position (another IUR): both recorded, the surplus to reconcile', () => {
    const once = settlePayment(position(), receiptFor(position()), NOW);
    if (once.kind !== 'recorded') throw new Error('not recorded');
    const twice = settlePayment(once.after, receiptFor(position(), { iur: 'IUR0002', paidOn: '2026-03-13' }), NOW);
    expect(twice).toMatchObject({
      kind: 'recorded',
      reconciliation: { motivo: 'PAGATA_PIU_VOLTE', differenza: 6643 },
      after: { importoTotalePagato: 13286, dataEsitoSingoloPagamento: '2026-03-12', iur: 'IUR0001' },
    });
    if (twice.kind === 'recorded') expect(twice.after.pagamenti!.map((p) => p.iur)).toEqual(['IUR0001', 'IUR0002']);
  });

  it('never writes a receipt of another position', () => {
    const p = position();
    expect(settlePayment(p, receiptFor(p, { iud: 'P202603BBBBBBBBBBBBBBBBBBBBBBBBBBBB' }), NOW)).toEqual({
      kind: 'mismatch',
    });
  });

  it('offers Paga only on a payable position that MyPay holds as shown (a notice number, no change waiting to be sent)', () => {
    expect(isPayable(position())).toBe(true);
    expect(isPayable(position({ isPagato: true }))).toBe(false);
    expect(isPayable(position({ annullato: true }))).toBe(false);
    expect(isPayable(position({ importoDovuto: 0 }))).toBe(false);
    expect(isPayableOnline(position())).toBe(true);
    expect(isPayableOnline(position({ nav: null, codIuv: null, statoExport: 'DA_ESPORTARE' }))).toBe(false);
    expect(isPayableOnline(position({ statoExport: 'DA_ESPORTARE', azione: 'M' }))).toBe(false);
  });
});

describe('closeReconciliation (Chiudi riconciliazione, issue 21)', () => {
  const paidTwice = () => {
    const once = settlePayment(position(), receiptFor(position()), NOW);
    if (once.kind !== 'recorded') throw new Error('not recorded');
    const twice = settlePayment(once.after, receiptFor(position(), { iur: 'IUR0002', paidOn: '2026-03-13' }), NOW);
    if (twice.kind !== 'recorded') throw new Error('not recorded');
    return twice.after;
  };
  const LATER = '2026-12-02T09:30:00.000Z';
  const note = { nota: 'Rimborsati 66,43 € il 2/12 con bonifico', chiusaDa: 'Mario Bianchi' };

  it('closes it with the note, who and when: no longer to reconcile, Pagato with every payment kept, as the next version', () => {
    const before = paidTwice();
    const after = closeReconciliation(before, note, LATER);
    expect(after).toMatchObject({
      riconciliazione: null,
      riconciliazioneChiusa: { motivo: 'PAGATA_PIU_VOLTE', differenza: 6643, ...note, chiusaIl: LATER },
      updatedAt: LATER,
      version: before.version + 1,
    });
    expect(after!.pagamenti).toEqual(before.pagamenti);
    expect([after!.importoTotalePagato, paymentBadge(after!)]).toEqual([13286, 'Pagato']);
  });

  it('has nothing to close on a position paid as due, or one closed already', () => {
    const paid = settlePayment(position(), receiptFor(position()), NOW);
    if (paid.kind !== 'recorded') throw new Error('not recorded');
    expect(closeReconciliation(paid.after, note, LATER)).toBeNull();
    expect(closeReconciliation(closeReconciliation(paidTwice(), note, LATER)!, note, LATER)).toBeNull();
  });

  it('stays closed when MyPay reports the same receipts again; a new payment marks it to reconcile again', () => {
    const closed = closeReconciliation(paidTwice(), note, LATER)!;
    expect(settlePayment(closed, receiptFor(position(), { iur: 'IUR0002', paidOn: '2026-03-13' }), LATER)).toEqual({
      kind: 'already-recorded',
    });
    expect(
      settlePayment(closed, receiptFor(position(), { iur: 'IUR0003', paidOn: '2026-12-03' }), LATER),
    ).toMatchObject({
      kind: 'recorded',
      after: {
        riconciliazione: { motivo: 'PAGATA_PIU_VOLTE', differenza: 2 * 6643 },
        riconciliazioneChiusa: { nota: note.nota },
      },
    });
  });

  it('asks for the note: required, at most 500 characters, trimmed', () => {
    for (const nota of ['', '   ', undefined])
      expect(reconciliationCloseSchema.safeParse({ nota }).error?.issues[0]?.message).toBe(
        messages.positions.reconciliationNoteRequired,
      );
    expect(reconciliationCloseSchema.safeParse({ nota: 'x'.repeat(501) }).error?.issues[0]?.message).toBe(
      messages.positions.reconciliationNoteTooLong,
    );
    expect(reconciliationCloseSchema.parse({ nota: ` ${'x'.repeat(500)} ` }).nota).toHaveLength(500);
  });
});

describe('where MyPay sends the citizen back (open redirect, issue 21)', () => {
  it('takes a path of one of the portal’s citizen pages and puts it on the portal’s own address', () => {
    expect(paymentReturnPath('/iscrizioni/visualizza_servizio?id=c1')).toBe('/iscrizioni/visualizza_servizio?id=c1');
    expect(paymentReturnPath('/iscrizioni')).toBe('/iscrizioni');
    expect(
      paymentReturnUrl('/sessione_servizi/visualizza_servizio?id=c-2#pagamenti', 'https://servizi.comune.example.it'),
    ).toBe('https://servizi.comune.example.it/sessione_servizi/visualizza_servizio?id=c-2');
  });
  it('refuses a site, a scheme-relative address, another page or extra parameters (400)', () => {
    for (const path of [
      'https://evil.example/iscrizioni/visualizza_servizio',
      '//evil.example/iscrizioni/visualizza_servizio',
      '/\\evil.example/iscrizioni/visualizza_servizio',
      '/lista_utenti',
      '/iscrizioni?id=c1&next=https://evil.example',
      '/iscrizioni/visualizza_servizio?id=<script>',
      'javascript:alert(1)',
      'iscrizioni',
    ]) {
      expect(paymentReturnPath(path), path).toBeNull();
      expect(() => paymentReturnUrl(path, 'https://servizi.comune.example.it'), path).toThrow(
        messages.payment.returnUrl,
      );
    }
  });
});

/** MyPay as the simulator plays it (paaSILVerificaAvviso): a new session per attempt, its outcome set by the test. */
function fakeMyPay() {
  const outcomes = new Map<
    string,
    { iud: string; amount: number; outcome: MyPayPaymentOutcome['status']; payments: number }
  >();
  const iudOfIuv = new Map([['01000000001234519', 'P202603AAAAAAAAAAAAAAAAAAAAAAAAAAAA']]);
  const mypay: Pick<MyPay, 'openPositionCheckout' | 'paymentOutcome'> & {
    returnUrls: string[];
    iuvs: string[];
    unavailable: boolean;
    fault: string | null;
    amounts: Map<string, number>;
    open: Set<string>;
  } = {
    returnUrls: [],
    iuvs: [],
    unavailable: false,
    fault: null,
    amounts: new Map(),
    open: new Set(['P202603AAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'P202603CCCCCCCCCCCCCCCCCCCCCCCCCCCC']),
    async openPositionCheckout(iuv, returnUrl) {
      if (mypay.unavailable) throw Object.assign(new Error('down'), { name: 'MyPayUnavailable' });
      if (mypay.fault) throw Object.assign(new Error(mypay.fault), { name: 'MyPayFault', faultCode: mypay.fault });
      mypay.returnUrls.push(returnUrl);
      mypay.iuvs.push(iuv);
      const iud = iudOfIuv.get(iuv) ?? '';
      if (!mypay.open.has(iud)) return null;
      const idSession = `session-${iud}-${mypay.iuvs.length}`;
      outcomes.set(idSession, { iud, amount: mypay.amounts.get(iud) ?? 6643, outcome: 'PENDING', payments: 0 });
      return { idSession, url: `https://mypay.test/public/landing/inviaDovuti?id=${idSession}` };
    },
    async paymentOutcome(idSession) {
      const s = outcomes.get(idSession)!;
      if (s.outcome !== 'PAID') return { status: s.outcome, payments: [] };
      return {
        status: 'PAID',
        payments: [
          {
            iud: s.iud,
            iuv: '01000000001234519',
            amountCents: mypay.amounts.get(s.iud) ?? s.amount,
            paidOn: '2026-03-12',
            iur: `IUR-${s.payments}`,
          },
        ],
      };
    },
  };
  return {
    mypay,
    settle: (idSession: string, outcome: MyPayPaymentOutcome['status']) => {
      const s = outcomes.get(idSession)!;
      s.outcome = outcome;
      if (outcome === 'PAID') s.payments += 1;
    },
  };
}

/** The payment list's refresh: each row it recomputes, with how many of that citizen's positions of the year were paid when it read them. */
function paymentListOf(stored: () => Map<string, PositionRecord>) {
  const rows: { callId: string; userId: string; anno: number; paid: number }[] = [];
  const paidOf = (c: Pick<PositionRecord, 'callId' | 'userId' | 'anno'>) =>
    [...stored().values()].filter(
      (p) => p.callId === c.callId && p.userId === c.userId && p.anno === c.anno && p.isPagato,
    ).length;
  return {
    rows,
    refreshDebtSummaries: async (changes: readonly Pick<PositionRecord, 'callId' | 'userId' | 'anno'>[]) =>
      void rows.push(...changes.map((c) => ({ callId: c.callId, userId: c.userId, anno: c.anno, paid: paidOf(c) }))),
  };
}

/** The payment list as the projection of the positions' writes (payment-list/projection.ts), on that refresh. */
const projectionOf = (paymentList: ReturnType<typeof paymentListOf>) =>
  makePaymentListProjection({
    refresh: paymentList,
    month: { refreshMonthSummaries: () => Promise.reject(new Error('no month is generated here')) },
    users: { getUserItems: async () => new Map() },
  });

/** The positions as the payments repository keeps them: conditional on the version, a checkout's hold and its markers. */
function memoryPositions(initial: PositionRecord[], changed: PositionsChanged) {
  const stored = new Map(initial.map((p) => [p.iud, structuredClone(p)]));
  const markers = new Set<string>();
  let writes = 0;
  // The one writer on the map: each transition on its own guard (domain/positions guards.ts).
  const { applyTransition } = memoryPositionWriter(stored, (p) => p.iud, changed);
  return {
    stored,
    markers,
    writes: () => writes,
    getPositionByIud: async (iud: string) => structuredClone(stored.get(iud) ?? null),
    listPositionsOfUser: async (userId: string) => ({
      items: [...stored.values()].filter((p) => p.userId === userId),
      nextCursor: null,
    }),
    applyTransition,
    async recordPayment(settle: Transition) {
      if (!(await applyTransition(settle))) return false;
      writes += 1;
      return true;
    },
    putCheckoutMarker: async (p: PositionRecord) => void markers.add(p.iud),
    deleteCheckoutMarker: async (p: Pick<PositionRecord, 'iud'>) => void markers.delete(p.iud),
  };
}

function citizenPortal(
  options: {
    dueDateRequired?: boolean;
    platform?: Pick<PaymentPlatform, 'name' | 'capabilities' | 'checkout'>;
    more?: PositionRecord[];
  } = {},
) {
  const maria = position();
  const giuseppe = position({
    iud: 'P202603CCCCCCCCCCCCCCCCCCCCCCCCCCCC',
    userId: 'user-giuseppe',
    fiscalCode: 'VRDGPP90P07F839R',
  });
  const paymentList = paymentListOf(() => positions.stored);
  const positions = memoryPositions([maria, giuseppe, ...(options.more ?? [])], projectionOf(paymentList));
  const paymentSessions = new Map<string, PaymentSession>();
  const users: Record<string, StoredUser> = {
    'user-maria': {
      id: 'user-maria',
      fiscalCode: 'RSSMRA85C52H501N',
      firstName: 'Maria',
      lastName: 'Rossi',
      email: 'maria@example.it',
      cap: '00184',
      nation: 'IT',
    } as StoredUser,
    'user-giuseppe': {
      id: 'user-giuseppe',
      fiscalCode: 'VRDGPP90P07F839R',
      firstName: 'Giuseppe',
      lastName: 'Verdi',
    } as StoredUser,
  };
  const { mypay, settle } = fakeMyPay();
  const audit = memoryAudit();
  const clock = tickingClock(NOW);
  const useCases = makeUserPositionUseCases({
    positions,
    settlement: makePaymentSettlement({
      positions,
      audit: { recordMany: async (entries, at) => void (await Promise.all(entries.map((e) => audit.record(e, at)))) },
      clock,
    }),
    users: {
      findUserIdByFiscalCode: async (code) => Object.values(users).find((u) => u.fiscalCode === code)?.id ?? null,
      getUserItem: async (id) => users[id] ?? null,
    },
    sessions: {
      createPaymentSession: async (s) => void paymentSessions.set(s.idSession, s),
      getPaymentSession: async (id) => paymentSessions.get(id) ?? null,
      recordSessionOutcome: async (id, outcome, at) =>
        void Object.assign(paymentSessions.get(id)!, { outcome, resolvedAt: at }),
    },
    platform: options.platform ?? {
      name: 'mypay',
      capabilities: PLATFORM_CAPABILITIES.mypay,
      checkout: myPayCheckout(mypay),
    },
    notices: { noticeUrl: async (p) => (p.iud === maria.iud ? `https://exports.test/${p.iud}.pdf` : null) },
    portalUrl: () => 'https://servizi.comune.example.it',
    dueDateRequired: () => options.dueDateRequired ?? false,
    clock,
  });
  const pay = (iud = maria.iud, actor = actors.citizen) =>
    useCases.pay(iud, { returnPath: '/iscrizioni/visualizza_servizio?id=call-1' }, actor);
  return {
    useCases,
    stored: positions.stored,
    markers: positions.markers,
    maria,
    giuseppe,
    mypay,
    settle,
    audit,
    pay,
    writes: positions.writes,
    listRows: paymentList.rows,
    users,
  };
}

describe('the citizen’s positions and paying them', () => {
  it('lists only the citizen’s own positions, with badge, payability and the notice link when the PDF exists', async () => {
    const { useCases, maria } = citizenPortal();
    const page = await useCases.listMyPositions({}, actors.citizen);
    expect(page.items.map((p) => [p.iud, p.badge, p.payable, p.inCorso, p.noticeUrl])).toEqual([
      [maria.iud, 'Da pagare', true, false, `https://exports.test/${maria.iud}.pdf`],
    ]);
  });

  it('pays once: Paga → MyPay’s landing, back to the portal’s own page → MyPay says PAID → paid; a reload writes nothing', async () => {
    const { useCases, pay, settle, stored, maria, audit, writes, mypay, markers, listRows } = citizenPortal();
    const checkout = await pay();
    expect(checkout).toMatchObject({
      url: `https://mypay.test/public/landing/inviaDovuti?id=${checkout.idSession}`,
      resumed: false,
    });
    expect(mypay.returnUrls).toEqual(['https://servizi.comune.example.it/iscrizioni/visualizza_servizio?id=call-1']);
    // paaSILVerificaAvviso is asked by the position's IUV (the council's own credentials are the adapter's).
    expect(mypay.iuvs).toEqual([maria.codIuv]);
    expect(markers.has(maria.iud)).toBe(true);
    settle(checkout.idSession, 'PAID');
    const first = await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    expect(first).toMatchObject({
      esito: 'PAID',
      recorded: true,
      message: paymentOutcomeMessages.paid,
      position: { badge: 'Pagato', payable: false, inCorso: false, importoTotalePagato: 6643 },
    });
    const again = await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    expect(again).toMatchObject({ esito: 'PAID', recorded: false, message: paymentOutcomeMessages.paidBefore });
    expect(writes()).toBe(1);
    // The operators' payment list follows the payment once: Maria's row, read after her position was written.
    expect(listRows).toEqual([{ callId: 'call-1', userId: 'user-maria', anno: 2026, paid: 1 }]);
    expect(stored.get(maria.iud)).toMatchObject({
      isPagato: true,
      importoTotalePagato: 6643,
      dataEsitoSingoloPagamento: '2026-03-12',
      iur: 'IUR-1',
      checkoutUntil: null,
    });
    expect(markers.has(maria.iud)).toBe(false);
    expect(audit.entries.filter((e) => e.entity === 'position')).toHaveLength(1);
    await expect(pay()).rejects.toMatchObject({ status: 409, message: paymentOutcomeMessages.alreadyPaid });
  });

  it('a second Paga while the checkout lives (two tabs, a double click) resumes it: MyPay is asked once', async () => {
    const { pay, mypay, useCases } = citizenPortal();
    const first = await pay();
    const second = await pay();
    expect(second).toEqual({ url: first.url, idSession: first.idSession, resumed: true });
    expect(mypay.returnUrls).toHaveLength(1);
    expect((await useCases.listMyPositions({}, actors.citizen)).items[0]).toMatchObject({
      inCorso: true,
      payable: true,
    });
  });

  it('frees the position when MyPay says FAILED, CANCELLED or EXPIRED, and keeps it held while PENDING', async () => {
    for (const outcome of ['FAILED', 'CANCELLED', 'EXPIRED', 'PENDING'] as const) {
      const { useCases, pay, settle, stored, maria, writes, markers } = citizenPortal();
      const { idSession } = await pay();
      settle(idSession, outcome);
      const answer = await useCases.paymentReturn({ idSession }, actors.citizen);
      expect(answer).toMatchObject({
        esito: outcome,
        recorded: false,
        position: { badge: 'Da pagare', payable: true, inCorso: outcome === 'PENDING' },
      });
      expect(stored.get(maria.iud)!.isPagato).toBe(false);
      expect(Boolean(stored.get(maria.iud)!.checkoutUntil)).toBe(outcome === 'PENDING');
      expect(markers.has(maria.iud)).toBe(outcome === 'PENDING');
      expect(writes()).toBe(0);
    }
  });

  it('records a payment of another amount and tells the citizen the council will check it', async () => {
    const { useCases, pay, settle, stored, maria, mypay } = citizenPortal();
    const { idSession } = await pay();
    mypay.amounts.set(maria.iud, 6000); // what MyPay collected (its record changed after the checkout opened)
    settle(idSession, 'PAID');
    const answer = await useCases.paymentReturn({ idSession }, actors.citizen);
    expect(answer).toMatchObject({
      esito: 'PAID',
      recorded: true,
      message: paymentOutcomeMessages.paidToReconcile,
      position: { badge: 'Pagato', importoTotalePagato: 6000 },
    });
    expect(stored.get(maria.iud)!.riconciliazione).toEqual({ motivo: 'IMPORTO_DIVERSO', differenza: -643 });
  });

  it('keeps the position held and says ‘Pagamento in verifica’ when MyPay cannot tell yet (modello unico: no receipt yet), and never invites her to pay again meanwhile', async () => {
    const { useCases, pay, settle, stored, maria, writes, markers } = citizenPortal();
    const { idSession } = await pay();
    const heldUntil = stored.get(maria.iud)!.checkoutUntil!;
    settle(idSession, 'UNKNOWN');
    const answer = await useCases.paymentReturn({ idSession }, actors.citizen);
    expect(answer).toMatchObject({
      esito: 'PENDING',
      recorded: false,
      message: paymentOutcomeMessages.verifying,
      position: { badge: 'Da pagare', inCorso: true, inVerifica: true, payable: false },
    });
    expect(answer.message).toMatch(/^Pagamento in verifica/);
    // The checkout holds the position until the reporting after pagoPA's token has run.
    const until = stored.get(maria.iud)!.checkoutUntil!;
    expect(Date.parse(until) - Date.parse(heldUntil)).toBe(15 * 60_000);
    expect(markers.has(maria.iud)).toBe(true);
    expect(writes()).toBe(0);
    // Her list offers no 'Paga' / 'Riprendi il pagamento', and 'Paga' itself says what she can do instead.
    expect((await useCases.listMyPositions({}, actors.citizen)).items[0]).toMatchObject({
      inVerifica: true,
      payable: false,
    });
    const again = useCases.pay(maria.iud, { returnPath: '/iscrizioni' }, actors.citizen);
    await expect(again).rejects.toMatchObject({ status: 409 });
    await expect(again).rejects.toThrow(
      /^Pagamento in verifica: .*Se hai pagato non pagare di nuovo.*potrai pagare di nuovo dal \d{2}\/\d{2}\/\d{4} alle \d{2}:\d{2}\.$/,
    );
    // Asked again later, once the receipt has arrived: paid.
    settle(idSession, 'PAID');
    expect(await useCases.paymentReturn({ idSession }, actors.citizen)).toMatchObject({
      esito: 'PAID',
      recorded: true,
    });
  });

  it('says what the office must fix instead of sending the citizen to MyPay’s error page: an Italian CAP not of 5 digits, a past due date where required', async () => {
    const portal = citizenPortal({ dueDateRequired: true });
    portal.users['user-maria']!.cap = '0018';
    await expect(portal.pay()).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('il CAP «0018»'),
    });
    expect(portal.mypay.iuvs).toEqual([]);
    portal.users['user-maria']!.cap = '00184';
    portal.stored.set(portal.maria.iud, { ...portal.maria, dataScadenza: '2026-03-09' });
    await expect(portal.pay()).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('la scadenza della posizione è passata'),
    });
    expect(portal.markers.size).toBe(0);
    // A foreign CAP, and the due day itself, are fine.
    portal.users['user-maria']!.cap = 'SW1A1AA';
    portal.users['user-maria']!.nation = 'GB';
    portal.stored.set(portal.maria.iud, { ...portal.maria, dataScadenza: '2026-03-10' });
    expect(await portal.pay()).toMatchObject({ resumed: false });
    // Without a required due date a past one is paid (MyPay4 checks it only for such payment types).
    const lenient = citizenPortal();
    lenient.stored.set(lenient.maria.iud, { ...lenient.maria, dataScadenza: '2026-01-31' });
    expect(await lenient.pay()).toMatchObject({ resumed: false });
  });

  it('reads MyPay’s PAA_IUV_SCADUTO as the past due date the office must fix (409), not as MyPay down', async () => {
    const { pay, mypay, markers } = citizenPortal();
    mypay.fault = 'PAA_IUV_SCADUTO';
    await expect(pay()).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('la scadenza della posizione è passata'),
    });
    expect(markers.size).toBe(0);
  });

  it('refuses (409) a position MyPay does not hold as shown: not sent yet, a change waiting, not payable on MyPay', async () => {
    const { pay, stored, maria, mypay } = citizenPortal();
    stored.set(maria.iud, { ...maria, nav: null, codIuv: null, statoExport: 'DA_ESPORTARE' });
    await expect(pay()).rejects.toMatchObject({ status: 409, message: paymentOutcomeMessages.notIssued });
    stored.set(maria.iud, maria);
    mypay.open.delete(maria.iud);
    await expect(pay()).rejects.toMatchObject({ status: 409, message: paymentOutcomeMessages.notOpenOnMyPay });
    expect(stored.get(maria.iud)!.checkoutUntil).toBeUndefined();
  });

  it('answers 404 for another citizen’s position, another citizen’s session or an unknown one', async () => {
    const { useCases, pay, giuseppe, settle } = citizenPortal();
    await expect(pay(giuseppe.iud)).rejects.toMatchObject({ status: 404, message: messages.payment.notFound });
    await expect(pay('P202603DDDDDDDDDDDDDDDDDDDDDDDDDDDD')).rejects.toMatchObject({ status: 404 });
    const { idSession } = await pay();
    settle(idSession, 'PAID');
    await expect(useCases.paymentReturn({ idSession }, actors.otherCitizen)).rejects.toMatchObject({
      status: 404,
      message: messages.payment.sessionNotFound,
    });
    await expect(useCases.paymentReturn({ idSession: 'unknown' }, actors.citizen)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('refuses to pay a cancelled position (409) and reports MyPay down as 503, writing nothing', async () => {
    const { pay, stored, maria, mypay, markers } = citizenPortal();
    mypay.unavailable = true;
    await expect(pay()).rejects.toMatchObject({ status: 503, message: paymentOutcomeMessages.unavailable });
    expect(markers.size).toBe(0);
    stored.set(maria.iud, { ...maria, annullato: true, importoDovuto: 0 });
    await expect(pay()).rejects.toMatchObject({ status: 409, message: paymentOutcomeMessages.cancelled });
  });
});

describe('Rendicontazione', () => {
  const call = { id: 'call-1', dataInsert: '2026-02-01T08:00:00.000Z' } as CallRecord;
  function reportingPortal(rows: MyPayPaidRow[], reportPaid?: MyPay['reportPaid']) {
    const a = position({ iud: 'P202603A1A1A1A1A1A1A1A1A1A1A1A1A1A1' });
    const b = position({ iud: 'P202603B2B2B2B2B2B2B2B2B2B2B2B2B2B2', userId: 'user-b' });
    const otherCall = position({ iud: 'P202603C3C3C3C3C3C3C3C3C3C3C3C3C3C3', callId: 'call-2' });
    const paymentList = paymentListOf(() => positions.stored);
    const positions = memoryPositions([a, b, otherCall], projectionOf(paymentList));
    const asked: string[][] = [];
    const audit: unknown[] = [];
    const clock = { now: () => new Date(NOW) };
    const metrics = memoryMetrics();
    const useCases = makeReportingUseCases({
      calls: { getCall: async (id) => (id === call.id ? call : null) },
      settlement: makePaymentSettlement({
        positions,
        audit: { recordMany: async (entries) => void audit.push(...entries) },
        clock,
        metrics,
      }),
      // MyPay reports the rows as paid today (NOW): in the run's last slice, the one that ends today.
      platform: myPayReporting({
        reportPaid: reportPaid ?? (async (from, to) => (asked.push([from, to]), to === NOW.slice(0, 10) ? rows : [])),
      }),
      clock,
      deadlineMs: 50,
    });
    return { useCases, stored: positions.stored, a, b, otherCall, asked, audit, metrics, listRows: paymentList.rows };
  }
  const row = (p: PositionRecord, overrides: Partial<MyPayPaidRow> = {}): MyPayPaidRow => ({
    ...receiptFor(p),
    fiscalCode: p.fiscalCode,
    causale: '',
    ...overrides,
  });

  it('counts for the dashboard the payments it records and, among them, those to reconcile (not a row of no position)', async () => {
    const portal = reportingPortal([]);
    const rows = [
      row(portal.a),
      row(portal.b, { amountCents: 100 }),
      row(portal.a, { iud: 'P202603UNKNOWNUNKNOWNUNKNOWNUNKNOWN1' }),
    ];
    const { useCases, metrics } = reportingPortal(rows);
    await useCases.runReporting('call-1', actors.operator);
    await useCases.runReporting('call-1', actors.operator);
    expect([
      metrics.total('PaymentsRecorded', { channel: 'reporting' }),
      metrics.total('PaymentsToReconcile', { channel: 'reporting' }),
    ]).toEqual([2, 1]);
  });

  it('records the call’s payments from the call’s start to today, at most 31 days per MyPay export; a second run records none', async () => {
    const portal = reportingPortal([]);
    const rows = [
      row(portal.a),
      row(portal.b),
      row(portal.otherCall),
      row(portal.a, { iud: 'P202603UNKNOWNUNKNOWNUNKNOWNUNKNOWN1' }),
    ];
    const { useCases, stored, asked, audit } = reportingPortal(rows);
    const first = await useCases.runReporting('call-1', actors.operator);
    expect(first).toMatchObject({
      inProgress: false,
      marked: 2,
      alreadyPaid: 0,
      toReconcile: 0,
      unmatched: 1,
      from: '2026-02-01',
      to: '2026-03-10',
    });
    expect(first.message).toBe(
      'Rendicontazione completata: 2 posizioni segnate come pagate, 0 già pagate, 1 non riconosciuta.',
    );
    expect(asked).toEqual([
      ['2026-02-01', '2026-03-03'],
      ['2026-03-04', '2026-03-10'],
    ]);
    expect(stored.get(portal.a.iud)!.isPagato).toBe(true);
    expect(stored.get(portal.otherCall.iud)!.isPagato).toBe(false); // another call's reporting records it
    expect(audit).toHaveLength(2);
    const second = await useCases.runReporting('call-1', actors.operator);
    expect(second).toMatchObject({ marked: 0, alreadyPaid: 2, unmatched: 1 });
    expect(audit).toHaveLength(2);
  });

  it('refreshes the payment-list row of each citizen whose payment it records, after the write; a second run refreshes none', async () => {
    const portal = reportingPortal([]);
    const { useCases, listRows } = reportingPortal([row(portal.a), row(portal.b), row(portal.otherCall)]);
    await useCases.runReporting('call-1', actors.operator);
    expect(listRows.sort((x, y) => x.userId.localeCompare(y.userId))).toEqual([
      { callId: 'call-1', userId: 'user-b', anno: 2026, paid: 1 },
      { callId: 'call-1', userId: 'user-maria', anno: 2026, paid: 1 },
    ]);
    await useCases.runReporting('call-1', actors.operator);
    expect(listRows).toHaveLength(2);
  });

  it('records a payment of another amount, and a second payment, as payments to reconcile', async () => {
    const portal = reportingPortal([]);
    const { useCases, stored } = reportingPortal([
      row(portal.a, { amountCents: 100 }),
      row(portal.b),
      row(portal.b, { iur: 'IUR0002' }),
    ]);
    expect(await useCases.runReporting('call-1', actors.operator)).toMatchObject({
      marked: 3,
      toReconcile: 2,
      unmatched: 0,
    });
    expect(stored.get(portal.a.iud)).toMatchObject({
      isPagato: true,
      importoTotalePagato: 100,
      riconciliazione: { motivo: 'IMPORTO_DIVERSO', differenza: 100 - 6643 },
    });
    expect(stored.get(portal.b.iud)).toMatchObject({
      importoTotalePagato: 13286,
      riconciliazione: { motivo: 'PAGATA_PIU_VOLTE', differenza: 6643 },
    });
    expect(await useCases.runReporting('call-1', actors.operator)).toMatchObject({ marked: 0, alreadyPaid: 3 });
  });

  it('says each count in the singular for one and in the plural otherwise', async () => {
    const portal = reportingPortal([]);
    const { useCases } = reportingPortal([
      row(portal.a),
      row(portal.a, { iud: 'P202603UNKNOWNUNKNOWNUNKNOWNUNKNOWN1' }),
    ]);
    expect((await useCases.runReporting('call-1', actors.operator)).message).toBe(
      'Rendicontazione completata: 1 posizione segnata come pagata, 0 già pagate, 1 non riconosciuta.',
    );
    expect((await useCases.runReporting('call-1', actors.operator)).message).toBe(
      'Rendicontazione completata: 0 posizioni segnate come pagate, 1 già pagata, 1 non riconosciuta.',
    );
  });

  it('answers ‘La rendicontazione è in corso’ when MyPay’s export is not ready in time, and 404 for an unknown call', async () => {
    const { useCases, stored } = reportingPortal([], () => new Promise(() => {}));
    expect(await useCases.runReporting('call-1', actors.operator)).toMatchObject({
      inProgress: true,
      marked: 0,
      message: 'La rendicontazione è in corso',
    });
    expect([...stored.values()].some((p) => p.isPagato)).toBe(false);
    await expect(useCases.runReporting('nope', actors.operator)).rejects.toMatchObject({ status: 404 });
  });
});

/**
 * pagoPA Checkout as GPD's adapter offers it behind the port: a cart of up to five notices, the portal's correlation
 * id as the session, and an outcome that is PAID only for the notices whose receipt has arrived.
 */
function fakeGpdCheckout() {
  const opened: { notices: readonly PayableNotice[]; returnUrl: string; correlationId: string }[] = [];
  const receipts = new Map<string, PlatformPayment>();
  const platform: Pick<PaymentPlatform, 'name' | 'capabilities' | 'checkout'> = {
    name: 'gpd',
    capabilities: PLATFORM_CAPABILITIES.gpd,
    checkout: {
      async open(request) {
        opened.push(request);
        return { sessionId: request.correlationId, url: `https://checkout.test/c/${request.correlationId}` };
      },
      async outcome({ notices }) {
        const payments = notices.flatMap((n) => receipts.get(n.iud) ?? []);
        return { status: payments.length ? 'PAID' : 'UNKNOWN', payments };
      },
    },
  };
  /** pagoPA's receipt of a notice reaches the council. */
  const receive = (p: PositionRecord, amountCents = p.importoDovuto) =>
    receipts.set(p.iud, {
      iud: p.iud,
      iuv: p.codIuv!,
      amountCents,
      paidOn: '2026-05-02',
      receiptId: `rcpt-${p.iud}`,
      psp: 'Banca Simulata S.p.A.',
    });
  return { platform, opened, receive };
}

describe('several months at once on pagoPA GPD (a Checkout cart)', () => {
  const month = (mese: number, overrides: Partial<PositionRecord> = {}) =>
    position({
      iud: `P20260${mese}${String(mese).repeat(30)}`,
      mese,
      titolo: `Assistenza domiciliare – mese ${mese}`,
      codIuv: `0100000000123450${mese}`,
      nav: `30100000000123450${mese}`,
      ...overrides,
    });
  const months = [4, 5, 6, 7, 8, 9].map((m) => month(m));
  const gpdPortal = () => {
    const gpd = fakeGpdCheckout();
    const portal = citizenPortal({ platform: gpd.platform, more: months });
    const cart = (ids: string[], actor = actors.citizen) =>
      portal.useCases.payCart({ ids, returnPath: '/iscrizioni/visualizza_servizio?id=call-1' }, actor);
    return { ...gpd, ...portal, cart };
  };

  it('offers each open sent month’s notice on request (the portal prints it), none for a paid, cancelled or unsent one', async () => {
    const gpd = fakeGpdCheckout();
    const { useCases } = citizenPortal({
      platform: gpd.platform,
      more: [
        month(4),
        month(5, { isPagato: true, importoTotalePagato: 1000 }),
        month(6, { annullato: true }),
        month(7, { nav: null, codIuv: null }),
      ],
    });
    const page = await useCases.listMyPositions({}, actors.citizen);
    expect(Object.fromEntries(page.items.map((p) => [p.titolo, [p.noticeDownload, p.noticeUrl]]))).toEqual({
      'Assistenza domiciliare – Marzo 2026': [true, null],
      'Assistenza domiciliare – mese 4': [true, null],
      'Assistenza domiciliare – mese 5': [false, null],
      'Assistenza domiciliare – mese 6': [false, null],
      'Assistenza domiciliare – mese 7': [false, null],
    });
    // On MyPay the list links MyPay's PDF itself, and asks for nothing on request.
    const myPay = await citizenPortal().useCases.listMyPositions({}, actors.citizen);
    expect(myPay.items.map((p) => [p.noticeDownload, p.noticeUrl !== null])).toEqual([[false, true]]);
  });

  it('shows as ‘Scadenza’ the day pagoPA holds and the notice prints: the month’s last day, or 30 days after a late send', async () => {
    const gpd = fakeGpdCheckout();
    const late = month(1, { dataScadenza: '2026-01-31', exportedAt: '2026-03-10T10:00:00.000Z' });
    const notSent = month(4, { dataScadenza: '2026-04-30', exportedAt: null, nav: null, codIuv: null });
    const onTime = month(5, { dataScadenza: '2026-05-31', exportedAt: '2026-03-10T10:00:00.000Z' });
    const more = [late, notSent, onTime];
    const dueDays = async (portal: ReturnType<typeof citizenPortal>) =>
      Object.fromEntries(
        (await portal.useCases.listMyPositions({}, actors.citizen)).items
          .filter((p) => more.some((m) => m.iud === p.iud))
          .map((p) => [p.mese, p.dataScadenza]),
      );
    expect(await dueDays(citizenPortal({ platform: gpd.platform, more }))).toEqual({
      1: '2026-04-09',
      4: '2026-04-30',
      5: '2026-05-31',
    });
    // The operators' view of a citizen's positions says the same; MyPay keeps the month's own day.
    const operatorPage = await citizenPortal({ platform: gpd.platform, more }).useCases.listPositionsByFiscalCode({
      fiscalCode: 'RSSMRA85C52H501N',
    });
    expect(operatorPage.items.find((p) => p.iud === late.iud)?.dataScadenza).toBe('2026-04-09');
    expect(await dueDays(citizenPortal({ more }))).toEqual({ 1: '2026-01-31', 4: '2026-04-30', 5: '2026-05-31' });
  });

  it('pays three months in one cart: held as one checkout, in verifica until the receipts arrive, then paid with amount, date, PSP and receipt id', async () => {
    const { cart, opened, receive, useCases, stored, markers, audit } = gpdPortal();
    const three = months.slice(0, 3);
    const checkout = await cart(three.map((p) => p.iud));
    expect(opened).toHaveLength(1);
    expect(opened[0]!.notices.map((n) => [n.noticeNumber, n.amountCents])).toEqual(
      three.map((p) => [p.nav, p.importoDovuto]),
    );
    expect(opened[0]!.returnUrl).toBe('https://servizi.comune.example.it/iscrizioni/visualizza_servizio?id=call-1');
    expect(opened[0]!.correlationId).toBe(checkout.idSession);
    expect(three.map((p) => stored.get(p.iud)!.checkoutSession)).toEqual(three.map(() => checkout.idSession));
    expect(three.every((p) => markers.has(p.iud))).toBe(true);

    // Back from Checkout before pagoPA's receipts: the return proves nothing.
    const back = await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    expect(back).toMatchObject({ esito: 'PENDING', recorded: false, message: gpdPaymentMessages.verifying });
    const mine = (await useCases.listMyPositions({}, actors.citizen)).items.filter((p) =>
      three.some((t) => t.iud === p.iud),
    );
    expect(mine.map((p) => [p.badge, p.inVerifica, p.payable])).toEqual(three.map(() => ['Da pagare', true, false]));
    await expect(cart([three[0]!.iud])).rejects.toMatchObject({ status: 409 });

    // Two receipts arrive: those two are paid, the third stays in verifica.
    receive(three[0]!);
    receive(three[1]!);
    const partly = await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    expect(partly).toMatchObject({ esito: 'PAID', recorded: true, message: paymentOutcomeMessages.paid });
    expect(three.map((p) => stored.get(p.iud)!.isPagato)).toEqual([true, true, false]);
    expect(stored.get(three[2]!.iud)!.checkoutInVerifica).toBe(true);
    receive(three[2]!);
    await useCases.paymentReturn({ idSession: checkout.idSession }, actors.citizen);
    for (const p of three)
      expect(stored.get(p.iud)).toMatchObject({
        isPagato: true,
        importoTotalePagato: p.importoDovuto,
        dataEsitoSingoloPagamento: '2026-05-02',
        iur: `rcpt-${p.iud}`,
        pagamenti: [expect.objectContaining({ iur: `rcpt-${p.iud}`, psp: 'Banca Simulata S.p.A.' })],
      });
    expect(three.some((p) => markers.has(p.iud))).toBe(false);
    expect(audit.entries.filter((e) => e.entity === 'position')).toHaveLength(3);
  });

  it('a receipt of another amount is recorded and marked for reconciliation', async () => {
    const { cart, receive, useCases, stored } = gpdPortal();
    const { idSession } = await cart([months[0]!.iud]);
    receive(months[0]!, 5000);
    const answer = await useCases.paymentReturn({ idSession }, actors.citizen);
    expect(answer.message).toBe(paymentOutcomeMessages.paidToReconcile);
    expect(stored.get(months[0]!.iud)).toMatchObject({
      importoTotalePagato: 5000,
      riconciliazione: { motivo: 'IMPORTO_DIVERSO' },
    });
  });

  it('bad carts change nothing: six notices, none, one twice, another citizen’s position, a paid one', async () => {
    const { cart, opened, stored, markers, giuseppe } = gpdPortal();
    const paid = month(8, { isPagato: true, importoTotalePagato: 6643 });
    stored.set(paid.iud, paid);
    const before = structuredClone([...stored.values()]);
    await expect(cart(months.map((p) => p.iud))).rejects.toMatchObject({
      status: 400,
      message: 'Puoi pagare al massimo 5 avvisi alla volta: selezionane di meno.',
    });
    await expect(cart([])).rejects.toMatchObject({ status: 400, message: gpdPaymentMessages.cartEmpty });
    await expect(cart([months[0]!.iud, months[0]!.iud])).rejects.toMatchObject({
      status: 400,
      message: gpdPaymentMessages.cartRepeated,
    });
    await expect(cart([months[0]!.iud, giuseppe.iud])).rejects.toMatchObject({
      status: 404,
      message: messages.payment.notFound,
    });
    await expect(cart([months[0]!.iud, paid.iud])).rejects.toMatchObject({
      status: 409,
      message: paymentOutcomeMessages.alreadyPaid,
    });
    expect(opened).toEqual([]);
    expect([...stored.values()]).toEqual(before);
    expect(markers.size).toBe(0);
  });

  it('on MyPay a cart is one notice: two are refused in Italian before anything is asked', async () => {
    const { useCases, mypay, maria } = citizenPortal({ more: [months[0]!] });
    await expect(
      useCases.payCart(
        { ids: [maria.iud, months[0]!.iud], returnPath: '/iscrizioni/visualizza_servizio?id=call-1' },
        actors.citizen,
      ),
    ).rejects.toMatchObject({ status: 400, message: gpdPaymentMessages.cartOne });
    expect(mypay.iuvs).toEqual([]);
    expect(await useCases.paymentOptions()).toEqual({ platform: 'mypay', cartSize: 1 });
  });
});
