import { describe, expect, it, vi } from 'vitest';
import { makePaymentListProjection } from '../../functions/payment-list/projection.ts';
import type { IoMessages } from '../../functions/adapters/ports/io.ts';
import { IoRefused, IoUnavailable, IoUnconfirmed } from '../../functions/adapters/io.ts';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import { fill, gpdNoticeMessages, noticeMessages } from '../../functions/domain/messages.ts';
import type { PaymentPlatformName } from '../../functions/domain/payment-platform.ts';
import { romeDateTime, type IoMessageContent } from '../../functions/domain/notices.ts';
import { ioBadge, noticePdfKey, type Position } from '../../functions/domain/payments.ts';
import type { FlowRecord } from '../../functions/domain/flow-record.ts';
import { makeJobExecutionEnd, makeJobs, makeJobWorker, type JobRun } from '../../functions/jobs/use-cases.ts';
import {
  FLOW_EMAIL_SLICE_MS,
  makeNoticeUseCases,
  type NoticePositions,
  type NoticeRecipient,
} from '../../functions/notices/use-cases.ts';
import { FLOW_EMAIL_JOB, JOB_INTERRUPTED } from '../../functions/domain/jobs.ts';
import {
  actors,
  memoryAudit,
  memoryJobs,
  memoryMailer,
  memoryMetrics,
  sequentialIds,
  tickingClock,
} from '../support/in-memory.ts';
import { exportedPosition } from '../support/position-records.ts';

/** The notices' use cases on in-memory positions, users, flows and PDFs: what a citizen and an operator would notice. */
function position(n: number, fields: Partial<PositionRecord> = {}): PositionRecord {
  const iud = `P202611${String(n).padStart(28, '0')}`;
  return exportedPosition('2026-11-01T00:00:00.000Z', {
    id: iud,
    iud,
    userId: `user-${n}`,
    cognome: `Cognome${n}`,
    nome: 'Anna',
    mese: 11,
    titolo: 'Assistenza – Novembre 2026',
    descrizione: `Quota Novembre 2026 Assistenza - Cognome${n} Anna`,
    importoDovuto: 1000 + n,
    codIuv: `0100000000000${String(n).padStart(4, '0')}`,
    nav: `30100000000000${String(n).padStart(4, '0')}`,
    dataScadenza: '2026-11-30',
    version: 1,
    ...fields,
  });
}

function setup(
  records: PositionRecord[],
  options: {
    io?: IoMessages;
    withoutEmail?: string[];
    withoutPdf?: string[];
    flowStep?: string;
    pageMs?: number;
    sendRate?: number;
    /** The due day the notice prints (PrintedNotice.dueDay); the position's dataScadenza by default. */
    printedDueDay?: string;
    platform?: PaymentPlatformName;
  } = {},
) {
  const stored = new Map(records.map((p) => [p.iud, structuredClone(p)]));
  // Each write tells the payment list as the real writer does (positions/repository.ts makePositionWriter).
  const write = async (p: PositionRecord, fields: Partial<PositionRecord>) => {
    const before = structuredClone(p);
    Object.assign(p, fields);
    const after = structuredClone(p);
    await projection.positionsChanged([{ before, after }]);
    return after;
  };
  const positions: NoticePositions = {
    getPositionByIud: async (iud) => structuredClone(stored.get(iud) ?? null),
    async listPositions(_callId, _period, page) {
      const all = [...stored.values()].sort((a, b) => a.userId.localeCompare(b.userId));
      const start = page.cursor ? Number(page.cursor) : 0;
      const end = start + (page.limit ?? 50);
      return {
        items: all.slice(start, end).map((p) => structuredClone(p) as Position),
        nextCursor: end < all.length ? String(end) : null,
      };
    },
    async recordNoticeEmail(key, at) {
      const p = [...stored.values()].find((x) => x.userId === key.userId)!;
      if (p.isPagato || p.annullato) return null;
      return write(p, { isEmailSent: true, dataIsEmailSent: at, version: p.version + 1 });
    },
    async recordIoMessage(key, outcome, at, keepDelivered) {
      const p = [...stored.values()].find((x) => x.userId === key.userId)!;
      if (p.isPagato || p.annullato) return null;
      if (keepDelivered && (p.ioStatus === 'PROCESSED' || (p.ioStatus === undefined && p.ioId && p.ioId !== '-1')))
        return null;
      return write(p, { ...outcome, dataIoSent: at, version: p.version + 1 });
    },
    async restoreIoMessage(key, fields) {
      const p = [...stored.values()].find((x) => x.userId === key.userId)!;
      if (p.isPagato || p.annullato) return null;
      return write(p, { ...fields, version: p.version + 1 });
    },
    async recordIoStatus(key, ioId, ioStatus) {
      const p = [...stored.values()].find((x) => x.userId === key.userId)!;
      if (p.isPagato || p.annullato || p.ioId !== ioId) return null;
      return write(p, { ioStatus, version: p.version + 1 });
    },
  };
  const users = new Map<string, NoticeRecipient>(
    records.map((p) => [
      p.userId,
      {
        firstName: 'Anna',
        lastName: p.cognome,
        fiscalCode: p.fiscalCode,
        email: options.withoutEmail?.includes(p.userId) ? null : `${p.userId}@example.it`,
      },
    ]),
  );
  const flow = {
    id: 'flow-1',
    step: options.flowStep ?? 'COMPLETATO',
    announcement: { id: 'call-1', name: 'Bando', service: { id: 's', name: 'Assistenza' } },
    mese: 11,
    anno: 2026,
    fiscalCode: null,
    isEmailSent: false,
    collectedAt: '2026-11-02T00:00:00.000Z',
  } as unknown as FlowRecord;
  const mailer = Object.assign(memoryMailer(), { sentAt: [] as number[] });
  const metrics = memoryMetrics();
  let elapsed = 0;
  if (options.sendRate) {
    // SES's account rate (adapters/mail.ts reads it with GetAccount); each message sent is stamped with the virtual time.
    const send = mailer.send;
    Object.assign(mailer, {
      maxSendRate: async () => options.sendRate!,
      send: (message: Parameters<typeof send>[0]) => (mailer.sentAt.push(Date.now()), send(message)),
    });
  }
  const audit = memoryAudit();
  const clock = tickingClock('2026-11-10T09:00:00.000Z');
  // The background jobs as functions/jobs runs them: the runner only records the start; runToEnd is the state machine.
  const jobs = memoryJobs();
  const runs: JobRun[] = [];
  // The payment list's refresh: each row it recomputes, with how many of that citizen's positions were e-mailed when it read them.
  const listRows: { userId: string; emailed: number }[] = [];
  const paymentList = {
    refreshDebtSummaries: async (changes: readonly Pick<PositionRecord, 'userId'>[]) =>
      void listRows.push(
        ...changes.map((c) => ({
          userId: c.userId,
          emailed: [...stored.values()].filter((p) => p.userId === c.userId && p.isEmailSent).length,
        })),
      ),
  };
  const projection = makePaymentListProjection({
    refresh: paymentList,
    month: { refreshMonthSummaries: () => Promise.reject(new Error('no month is generated here')) },
    users: { getUserItems: async () => new Map() },
  });
  const useCases = makeNoticeUseCases({
    positions,
    users: {
      getUserItems: async (ids) => new Map(ids.filter((id) => users.has(id)).map((id) => [id, users.get(id)!])),
    },
    flows: {
      getFlow: async (id) => (id === flow.id ? structuredClone(flow) : null),
      updateFlow: async (_id, fields) => Object.assign(flow, fields),
    },
    notice: async (position) =>
      options.withoutPdf?.includes(position.iud)
        ? null
        : {
            pdf: new TextEncoder().encode(`%PDF-1.4 ${noticePdfKey(position.iud)}`),
            dueDay: options.printedDueDay ?? position.dataScadenza,
          },
    noticeDueDay: (position) => options.printedDueDay ?? position.dataScadenza,
    platform: options.platform,
    mailer,
    io: options.io ?? { sendMessage: async () => ({ id: 'IO-1' }), messageStatus: async () => 'PROCESSED' },
    audit,
    clock,
    // Each page read "takes" 10 ms (or pageMs), so a small budget stops after a page or two.
    // With a sending rate the real clock and timers run (faked by the test: nothing waits); else each page read
    // "takes" pageMs, and IO's status reads wait without waiting: the time "passes" as the waits say.
    ...(options.sendRate
      ? {}
      : { elapsed: () => (elapsed += options.pageMs ?? 10), sleep: async (ms: number) => void (elapsed += ms) }),
    jobs: makeJobs({ jobs, runner: { start: async (run) => void runs.push(run) }, clock, ids: sequentialIds('job') }),
    metrics,
  });
  const worker = makeJobWorker({
    jobs,
    kinds: { [FLOW_EMAIL_JOB]: { slice: useCases.flowEmailSlice, failure: noticeMessages.flowEmailFailed } },
    clock,
  });
  async function runToEnd(run: JobRun) {
    let cursor = run.cursor;
    for (let i = 1; i < 100; i++) {
      const result = await worker.slice({ ...run, cursor });
      if (result.finished) return i;
      cursor = result.cursor;
    }
    throw new Error('never finished');
  }
  const executionEnded = makeJobExecutionEnd({ jobs, clock });
  return { useCases, stored, mailer, audit, metrics, flow, runs, runToEnd, worker, listRows, executionEnded, jobs };
}

describe('notice e-mail of one position', () => {
  it('sends the PDF to the citizen and records the date; a resend moves it', async () => {
    const { useCases, mailer, audit, listRows } = setup([position(1)]);
    const first = await useCases.emailNotice(position(1).iud, actors.operator);
    expect(first.isEmailSent).toBe(true);
    // The payment list's 'Email non inviata' follows: the citizen's row, read after the date was written.
    expect(listRows).toEqual([{ userId: 'user-1', emailed: 1 }]);
    expect(mailer.sent[0]).toMatchObject({
      to: ['user-1@example.it'],
      attachments: [{ fileName: 'avviso_301000000000000001.pdf', contentType: 'application/pdf' }],
    });
    const second = await useCases.emailNotice(position(1).iud, actors.operator);
    expect(second.dataIsEmailSent! > first.dataIsEmailSent!).toBe(true);
    expect(audit.entries.map((e) => e.entity)).toEqual(['position', 'position']);
  });

  it.each([
    ['not exported', { nav: null, codIuv: null }, 'inviala prima a MyPay'],
    ['paid', { isPagato: true }, 'già pagata'],
    ['cancelled', { annullato: true }, 'annullata'],
  ])('refuses a position %s with 409 and sends nothing', async (_label, fields, text) => {
    const { useCases, mailer, stored, listRows } = setup([position(1, fields as Partial<PositionRecord>)]);
    await expect(useCases.emailNotice(position(1).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(text),
    });
    expect(mailer.sent).toHaveLength(0);
    expect(stored.get(position(1).iud)!.isEmailSent).toBe(false);
    expect(listRows).toEqual([]);
  });

  it('no e-mail address or no PDF: 409; SES down: 503; nothing recorded', async () => {
    const { useCases, mailer, stored } = setup([position(1), position(2)], {
      withoutEmail: ['user-1'],
      withoutPdf: [position(2).iud],
    });
    await expect(useCases.emailNotice(position(1).iud, actors.operator)).rejects.toMatchObject({ status: 409 });
    await expect(useCases.emailNotice(position(2).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('PDF'),
    });
    await expect(useCases.emailNotice('P-nessuna', actors.operator)).rejects.toMatchObject({ status: 404 });
    const ok = setup([position(3)]);
    ok.mailer.failNext = 1;
    await expect(ok.useCases.emailNotice(position(3).iud, actors.operator)).rejects.toMatchObject({ status: 503 });
    expect(ok.stored.get(position(3).iud)!.isEmailSent).toBe(false);
    expect(mailer.sent).toHaveLength(0);
    expect([...stored.values()].every((p) => !p.isEmailSent)).toBe(true);
  });
});

describe('the notice e-mail on the platform the positions went to', () => {
  it('gives the due date the attached notice prints, not the month’s when they differ (a month billed late on GPD)', async () => {
    const { useCases, mailer } = setup([position(1)], { printedDueDay: '2026-12-29', platform: 'gpd' });
    await useCases.emailNotice(position(1).iud, actors.operator);
    const { text } = mailer.sent[0]!;
    expect(text).toContain('Scadenza: 29/12/2026');
    expect(text).not.toContain('30/11/2026');
  });

  it('the IO message gives the due date the notice prints, in its text and as IO’s due date (a month billed late on GPD)', async () => {
    const sent: IoMessageContent[] = [];
    const { useCases } = setup([position(1)], {
      printedDueDay: '2026-12-29',
      platform: 'gpd',
      io: {
        sendMessage: async (_fiscalCode, content) => (sent.push(content), { id: 'IO-1' }),
        messageStatus: async () => 'PROCESSED',
      },
    });
    await useCases.sendToIo(position(1).iud, actors.operator);
    expect(sent[0]!.markdown).toContain('**Scadenza**: 29/12/2026');
    expect(sent[0]!.due_date).toBe('2026-12-29T22:59:59.000Z');
  });

  it('on GPD, tells the operator to send the position to pagoPA, and a notice that cannot be made names pagoPA, not MyPay', async () => {
    const { useCases, mailer } = setup([position(1, { nav: null, codIuv: null }), position(2)], {
      withoutPdf: [position(2).iud],
      platform: 'gpd',
    });
    const refused = (attempt: Promise<unknown>) =>
      attempt.then(
        () => ({ status: 200, message: 'sent' }),
        (error: { status: number; message: string }) => error,
      );
    const refusals = [
      await refused(useCases.emailNotice(position(1).iud, actors.operator)),
      await refused(useCases.emailNotice(position(2).iud, actors.operator)),
      await refused(useCases.sendToIo(position(1).iud, actors.operator)),
    ];
    expect(refusals.map((error) => error.status)).toEqual([409, 409, 409]);
    expect(refusals.map((error) => error.message)).toEqual([
      gpdNoticeMessages.notExported,
      gpdNoticeMessages.noPdf,
      gpdNoticeMessages.notExported,
    ]);
    for (const { message } of refusals) {
      expect(message).toContain('pagoPA');
      expect(message).not.toContain('MyPay');
    }
    expect(mailer.sent).toHaveLength(0);
  });

  it('on MyPay, keeps MyPay’s words', async () => {
    const { useCases } = setup([position(1, { nav: null, codIuv: null }), position(2)], {
      withoutPdf: [position(2).iud],
    });
    await expect(useCases.emailNotice(position(1).iud, actors.operator)).rejects.toThrow(noticeMessages.notExported);
    await expect(useCases.emailNotice(position(2).iud, actors.operator)).rejects.toThrow(noticeMessages.noPdf);
  });
});

describe('notices counted for the dashboard and the alarms', () => {
  it('counts each notice sent by channel, and as failed only what SES or IO could not deliver (not a citizen without e-mail or IO)', async () => {
    let io: () => Promise<{ id: string }> = async () => ({ id: 'IO-1' });
    const t = setup([position(1), position(2)], {
      withoutEmail: ['user-2'],
      io: { sendMessage: () => io(), messageStatus: async () => 'PROCESSED' },
    });
    await t.useCases.emailNotice(position(1).iud, actors.operator);
    await t.useCases.sendToIo(position(1).iud, actors.operator);
    await expect(t.useCases.emailNotice(position(2).iud, actors.operator)).rejects.toMatchObject({ status: 409 });
    io = async () => Promise.reject(new IoRefused('NO_PROFILE'));
    await expect(t.useCases.sendToIo(position(2).iud, actors.operator)).rejects.toMatchObject({ status: 409 });
    expect([
      t.metrics.total('NoticesSent', { notice: 'email' }),
      t.metrics.total('NoticesSent', { notice: 'io' }),
      t.metrics.total('NoticesFailed'),
    ]).toEqual([1, 1, 0]);

    t.mailer.failNext = 1;
    await expect(t.useCases.emailNotice(position(1).iud, actors.operator)).rejects.toMatchObject({ status: 503 });
    io = async () => Promise.reject(new IoUnavailable('down'));
    await expect(t.useCases.sendToIo(position(1).iud, actors.operator, { resend: true })).rejects.toMatchObject({
      status: 503,
    });
    io = async () => Promise.reject(new IoRefused('REJECTED', 'subject troppo corto'));
    await expect(t.useCases.sendToIo(position(1).iud, actors.operator, { resend: true })).rejects.toMatchObject({
      status: 422,
    });
    expect([
      t.metrics.total('NoticesFailed', { notice: 'email' }),
      t.metrics.total('NoticesFailed', { notice: 'io' }),
      t.metrics.total('NoticesSent'),
    ]).toEqual([1, 2, 2]);
  });
});

describe('IO', () => {
  /** A fake IO: the send's answer, then the statuses its reads answer in turn (the last one repeats). */
  function fakeIo(send: () => Promise<{ id: string }>, statuses: Array<string | Error> = ['PROCESSED']) {
    const reads: string[] = [];
    const io: IoMessages = {
      sendMessage: send,
      async messageStatus(_fiscalCode, id) {
        reads.push(id);
        const next = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
        if (next instanceof Error) throw next;
        return next as Awaited<ReturnType<IoMessages['messageStatus']>>;
      },
    };
    return { io, reads };
  }

  it('a message IO processes reads "sent": the id is stored at once, then its status; both writes audited', async () => {
    const { io, reads } = fakeIo(async () => ({ id: 'IO-42' }), ['ACCEPTED', 'ACCEPTED', 'PROCESSED']);
    const { useCases, stored, audit } = setup([position(1)], { io });
    const sent = await useCases.sendToIo(position(1).iud, actors.operator);
    expect(sent).toMatchObject({ ioId: 'IO-42', ioStatus: 'PROCESSED' });
    expect(reads).toEqual(['IO-42', 'IO-42', 'IO-42']);
    expect(stored.get(position(1).iud)).toMatchObject({ ioId: 'IO-42', ioStatus: 'PROCESSED' });
    expect(audit.entries.map((e) => (e.after as PositionRecord).ioStatus)).toEqual(['ACCEPTED', 'PROCESSED']);
  });

  it('accepted, then rejected by IO: a 409 saying it was not delivered, the message recorded as REJECTED', async () => {
    const { io } = fakeIo(async () => ({ id: 'IO-7' }), ['ACCEPTED', 'REJECTED']);
    const { useCases, stored } = setup([position(1)], { io });
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: noticeMessages.ioRejected,
    });
    expect(stored.get(position(1).iud)).toMatchObject({ ioId: 'IO-7', ioStatus: 'REJECTED' });
    const failed = setup([position(2)], { io: fakeIo(async () => ({ id: 'IO-8' }), ['FAILED']).io });
    await expect(failed.useCases.sendToIo(position(2).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: noticeMessages.ioFailed,
    });
  });

  it('still on its way when the waits are over, or its status unreadable: 200, ACCEPTED; "Verifica" reads it later', async () => {
    const statuses: Array<string | Error> = ['ACCEPTED'];
    const { io, reads } = fakeIo(async () => ({ id: 'IO-9' }), statuses);
    const { useCases, stored } = setup([position(1)], { io });
    expect(await useCases.sendToIo(position(1).iud, actors.operator)).toMatchObject({
      ioId: 'IO-9',
      ioStatus: 'ACCEPTED',
    });
    expect(reads.length).toBeGreaterThan(1);
    statuses.splice(0, 1, 'PROCESSED');
    expect(await useCases.refreshIoStatus(position(1).iud, actors.operator)).toMatchObject({ ioStatus: 'PROCESSED' });
    expect(stored.get(position(1).iud)!.ioStatus).toBe('PROCESSED');

    const unreadable = setup([position(2)], {
      io: fakeIo(async () => ({ id: 'IO-10' }), [new IoUnavailable('down')]).io,
    });
    expect(await unreadable.useCases.sendToIo(position(2).iud, actors.operator)).toMatchObject({
      ioId: 'IO-10',
      ioStatus: 'ACCEPTED',
    });
    await expect(unreadable.useCases.refreshIoStatus(position(2).iud, actors.operator)).rejects.toMatchObject({
      status: 503,
    });
    await expect(setup([position(3)]).useCases.refreshIoStatus(position(3).iud, actors.operator)).rejects.toMatchObject(
      { status: 409, message: noticeMessages.ioNoMessage },
    );
  });

  it('no profile or sender not allowed: 409, -1 with the reason, unless a message was delivered before', async () => {
    let send: () => Promise<{ id: string }> = async () => ({ id: 'IO-42' });
    const { useCases, stored } = setup([position(1)], { io: fakeIo(() => send()).io });
    await useCases.sendToIo(position(1).iud, actors.operator);
    send = async () => Promise.reject(new IoRefused('NO_PROFILE'));
    await expect(useCases.sendToIo(position(1).iud, actors.operator, { resend: true })).rejects.toMatchObject({
      status: 409,
      message: noticeMessages.ioNoProfile,
    });
    expect(stored.get(position(1).iud)).toMatchObject({ ioId: 'IO-42', ioStatus: 'PROCESSED' });

    const fresh = setup([position(2)], {
      io: fakeIo(async () => Promise.reject(new IoRefused('SENDER_NOT_ALLOWED'))).io,
    });
    await expect(fresh.useCases.sendToIo(position(2).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('disattivato'),
    });
    expect(fresh.stored.get(position(2).iud)).toMatchObject({ ioId: '-1', ioStatus: 'SENDER_NOT_ALLOWED' });
  });

  it.each([
    [
      'the amount above the service’s ceiling',
      new IoRefused('AMOUNT_NOT_ALLOWED', 'exceeds', 0),
      422,
      /importo di 10,01\s€.*al massimo 0,00\s€/,
    ],
    ['a trial key and a citizen not among its recipients', new IoRefused('RECIPIENT_NOT_AUTHORIZED'), 502, /di prova/],
    [
      'a key without the permissions, or the IP not allowed',
      new IoRefused('FORBIDDEN'),
      502,
      /permessi necessari o l’indirizzo IP/,
    ],
    ['a key IO does not know', new IoRefused('UNAUTHORIZED'), 502, /non riconosce la chiave/],
    [
      'a 404 that is not IO’s ‘Profile not found’ (a wrong base URL)',
      new IoRefused('NOT_FOUND', 'Not Found'),
      502,
      /IO_BASE_URL/,
    ],
    [
      'another 400',
      new IoRefused('REJECTED', 'content.subject: too short'),
      422,
      /rifiutato il messaggio: content.subject/,
    ],
    ['IO asking to wait longer than the time left', new IoUnavailable('429', 60), 503, /attendere 60 secondi/],
    ['IO down', new IoUnavailable('down'), 503, /non risponde/],
  ])('%s: the Italian reason, nothing recorded', async (_label, error, status, text) => {
    const { useCases, stored, audit } = setup([position(1)], { io: fakeIo(async () => Promise.reject(error)).io });
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({
      status,
      message: expect.stringMatching(text),
    });
    expect(stored.get(position(1).iud)!.ioId).toBeNull();
    expect(audit.entries).toHaveLength(0);
  });

  /** IO as the adapter behaves once the profile check passed: the attempt is recorded, then the POST's outcome. */
  const postOutcome =
    (outcome: () => Promise<{ id: string }>): IoMessages['sendMessage'] =>
    async (_cf, _content, options) => {
      await options?.beforeMessage?.();
      return outcome();
    };

  it('a POST to /messages with no clear answer is never sent again by itself: recorded before, ‘Invio non confermato’, a second send only when the operator confirms it', async () => {
    let posts = 0;
    let outcome: () => Promise<{ id: string }> = async () =>
      Promise.reject(new IoUnconfirmed('IO POST /api/v1/messages: timeout'));
    const { io } = fakeIo(async () => ({ id: 'unused' }));
    const { useCases, stored, audit } = setup([position(1)], {
      io: { ...io, sendMessage: (...args) => (posts++, postOutcome(() => outcome())(...args)) },
    });
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: noticeMessages.ioUnconfirmed,
    });
    expect(posts).toBe(1);
    expect(stored.get(position(1).iud)).toMatchObject({
      ioId: '-1',
      ioStatus: 'UNCONFIRMED',
      dataIoSent: expect.any(String),
    });
    expect(ioBadge(stored.get(position(1).iud)!)).toMatchObject({
      state: 'unconfirmed',
      label: 'Invio non confermato',
    });
    expect(audit.entries.map((e) => (e.after as PositionRecord).ioStatus)).toEqual(['UNCONFIRMED']);
    // Again without confirming: refused, saying when the first one went; IO is not asked.
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/del 10\/11\/2026 alle 10:00 non è stato confermato/),
    });
    expect(posts).toBe(1);
    outcome = async () => ({ id: 'IO-2' });
    expect(await useCases.sendToIo(position(1).iud, actors.operator, { resend: true })).toMatchObject({
      ioId: 'IO-2',
      ioStatus: 'PROCESSED',
    });
    expect(posts).toBe(2);
  });

  it('a notice already sent to IO goes again only when confirmed, and the refusal says when it was sent', async () => {
    const { io } = fakeIo(async () => ({ id: 'IO-1' }));
    const { useCases, stored } = setup([position(1)], { io });
    await useCases.sendToIo(position(1).iud, actors.operator);
    const sentAt = stored.get(position(1).iud)!.dataIoSent!;
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: fill(noticeMessages.ioAlreadySent, { date: romeDateTime(sentAt) }),
    });
    expect(romeDateTime(sentAt)).toMatch(/^10\/11\/2026 alle 10:00$/);
    expect(stored.get(position(1).iud)).toMatchObject({ ioId: 'IO-1', dataIoSent: sentAt });
  });

  it('IO refusing the message outright after the attempt was recorded puts the position back as it was (nothing was created)', async () => {
    const { io } = fakeIo(async () => ({ id: 'unused' }));
    const { useCases, stored } = setup([position(1)], {
      io: {
        ...io,
        sendMessage: postOutcome(async () => Promise.reject(new IoRefused('REJECTED', 'content.markdown: too short'))),
      },
    });
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({ status: 422 });
    expect(stored.get(position(1).iud)).toMatchObject({ ioId: null, ioStatus: null });
  });

  it('refuses a notice number IO would not take before asking IO', async () => {
    let asked = false;
    const { io } = fakeIo(async () => ((asked = true), { id: 'IO-1' }));
    const { useCases, stored } = setup([position(1, { nav: '901000000000000001' })], { io });
    await expect(useCases.sendToIo(position(1).iud, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('901000000000000001 non è valido'),
    });
    expect(asked).toBe(false);
    expect(stored.get(position(1).iud)!.ioId).toBeNull();
  });

  it('sends no payee: IO makes the service’s organisation the payee', async () => {
    let content: { payment_data?: object } | undefined;
    const { io } = fakeIo(async () => ({ id: 'IO-2' }));
    const { useCases } = setup([position(2)], {
      io: { ...io, sendMessage: async (_cf, sent) => ((content = sent), { id: 'IO-2' }) },
    });
    await useCases.sendToIo(position(2).iud, actors.operator);
    expect(content!.payment_data).toEqual({
      amount: 1002,
      notice_number: '301000000000000002',
      invalid_after_due_date: false,
    });
  });
});

describe('flow e-mail in bounded slices', () => {
  it('slices continue from the cursor; a slice run again after a crash sends nothing twice; paid and cancelled are skipped', async () => {
    const records = Array.from({ length: 60 }, (_, i) =>
      position(i + 1, i === 0 ? { isPagato: true } : i === 1 ? { annullato: true } : {}),
    );
    const { useCases, mailer } = setup(records, { withoutEmail: ['user-3'] });
    const first = await useCases.sendFlowEmails('flow-1', { cursor: null, budgetMs: 1 }, actors.operator);
    expect(first.nextCursor).not.toBeNull();
    expect(first).toMatchObject({ sent: 22, skipped: 2, failed: 1 });

    // The next slice is lost after sending (no cursor saved): running the first cursor again skips what this run sent.
    const second = await useCases.sendFlowEmails('flow-1', { cursor: first.nextCursor, budgetMs: 1 }, actors.operator);
    const replay = await useCases.sendFlowEmails('flow-1', { cursor: first.nextCursor, budgetMs: 1 }, actors.operator);
    expect(replay.sent).toBe(0);
    expect(replay.skipped).toBe(second.sent + second.skipped);
    const rest = await useCases.sendFlowEmails(
      'flow-1',
      { cursor: replay.nextCursor, budgetMs: 10_000 },
      actors.operator,
    );
    expect(rest.nextCursor).toBeNull();
    expect(first.sent + second.sent + rest.sent).toBe(57);
    expect(new Set(mailer.sent.map((m) => m.to[0])).size).toBe(57);
    expect(mailer.sent).toHaveLength(57);
  });

  it('runs as a background job: started (or joined) by the route, every slice sends, the flow records it at the end; started again it resends', async () => {
    const records = Array.from({ length: 30 }, (_, i) => position(i + 1));
    // A page "takes" a slice's whole budget: a slice sends one page (25), so 30 positions need two slices.
    const { useCases, flow, mailer, audit, runs, runToEnd } = setup(records, { pageMs: FLOW_EMAIL_SLICE_MS });
    const started = await useCases.startFlowEmail('flow-1', actors.operator);
    expect(started).toMatchObject({
      done: false,
      state: 'RUNNING',
      sent: 0,
      message: 'Invio delle e-mail in corso: 0 inviate finora.',
    });
    // A second press while it runs joins it: no second job.
    expect(await useCases.startFlowEmail('flow-1', actors.operator)).toMatchObject({ done: false, state: 'RUNNING' });
    expect(runs).toHaveLength(1);
    expect(mailer.sent).toHaveLength(0);

    const slices = await runToEnd(runs[0]!);
    expect(slices).toBeGreaterThan(1); // 30 positions, a page of 25 per budget: more than one slice
    const done = await useCases.flowEmailStatus('flow-1');
    expect(done).toEqual({
      done: true,
      state: 'SUCCEEDED',
      sent: 30,
      skipped: 0,
      failed: 0,
      error: null,
      message: 'Rielaborazione avvenuta con successo.',
    });
    expect(flow.isEmailSent).toBe(true);
    expect(new Set(mailer.sent.map((m) => m.to[0])).size).toBe(30);
    expect(mailer.sent).toHaveLength(30);
    expect(audit.entries.filter((e) => e.entity === 'flow')).toHaveLength(1);

    // Pressed again after the end: a new run, everything sent again (a resend); its counts start at 0.
    expect(await useCases.startFlowEmail('flow-1', actors.operator)).toMatchObject({ done: false, sent: 0 });
    await runToEnd(runs[1]!);
    expect(await useCases.flowEmailStatus('flow-1')).toMatchObject({ done: true, sent: 30 });
    expect(mailer.sent).toHaveLength(60);
  });

  it('keeps to SES’s sending rate: never more messages in a second than the account may send', async () => {
    const records = Array.from({ length: 30 }, (_, i) => position(i + 1));
    const { useCases, mailer } = setup(records, { sendRate: 2 });
    vi.useFakeTimers();
    let result;
    try {
      const running = useCases.sendFlowEmails('flow-1', { cursor: null, budgetMs: 600_000 }, actors.operator);
      await vi.runAllTimersAsync();
      result = await running;
    } finally {
      vi.useRealTimers();
    }
    expect(result).toMatchObject({ sent: 30, failed: 0, nextCursor: null });
    const times = mailer.sentAt;
    expect(times).toHaveLength(30);
    for (let i = 2; i < times.length; i++)
      expect(times[i]! - times[i - 2]!, `messages ${i - 2}..${i}`).toBeGreaterThanOrEqual(1000);
    // Without a rate to keep (another mailer), nothing waits.
    const free = setup(records, { pageMs: 1 });
    await free.useCases.sendFlowEmails('flow-1', { cursor: null, budgetMs: 600_000 }, actors.operator);
    expect(free.mailer.sent).toHaveLength(30);
  });

  it('a run the jobs’ machine ended mid-way (its two-hour limit) reads failed and, started again, resumes: nobody is e-mailed twice', async () => {
    const records = Array.from({ length: 30 }, (_, i) => position(i + 1));
    const { useCases, mailer, runs, runToEnd, executionEnded, jobs } = setup(records, { pageMs: FLOW_EMAIL_SLICE_MS });
    await useCases.startFlowEmail('flow-1', actors.operator);
    // The first slice e-mails a page, then the execution ends before the slice's cursor is saved.
    const input = jobs.all.get(`${FLOW_EMAIL_JOB}#flow-1`)!.input;
    await useCases.flowEmailSlice(input, null, actors.operator);
    expect(mailer.sent).toHaveLength(25);
    expect(await executionEnded(runs[0]!)).toBe(true);
    expect(await useCases.flowEmailStatus('flow-1')).toMatchObject({
      done: true,
      state: 'FAILED',
      error: JOB_INTERRUPTED,
    });

    await useCases.startFlowEmail('flow-1', actors.operator);
    await runToEnd(runs[1]!);
    expect(mailer.sent).toHaveLength(30);
    expect(new Set(mailer.sent.map((m) => m.to[0])).size).toBe(30);
    expect(await useCases.flowEmailStatus('flow-1')).toMatchObject({ done: true, state: 'SUCCEEDED', sent: 30 });
    // A run that finished is not touched by a late end of its execution.
    expect(await executionEnded(runs[1]!)).toBe(false);
  });

  it('a slice run twice (a retried Lambda) e-mails nobody twice; a failed run says why; bad flows are refused', async () => {
    const records = Array.from({ length: 30 }, (_, i) => position(i + 1));
    const { useCases, mailer, runs, worker } = setup(records, { pageMs: FLOW_EMAIL_SLICE_MS });
    await useCases.startFlowEmail('flow-1', actors.operator);
    const first = await worker.slice({ ...runs[0]!, cursor: null });
    await useCases.flowEmailSlice({ flowId: 'flow-1' }, first.cursor, actors.operator);
    await useCases.flowEmailSlice({ flowId: 'flow-1' }, first.cursor, actors.operator);
    expect(mailer.sent).toHaveLength(30);

    const failing = setup(records);
    await failing.useCases.startFlowEmail('flow-1', actors.operator);
    await failing.worker.markFailed({ ...failing.runs[0]!, error: { Error: 'Error', Cause: 'boom' } });
    expect(await failing.useCases.flowEmailStatus('flow-1')).toMatchObject({
      done: true,
      state: 'FAILED',
      error: expect.stringContaining('riprova'),
    });

    await expect(useCases.startFlowEmail('altro', actors.operator)).rejects.toMatchObject({ status: 404 });
    await expect(useCases.flowEmailStatus('altro')).rejects.toMatchObject({ status: 404 });
    const running = setup(records, { flowStep: 'INVIATO' });
    await expect(running.useCases.startFlowEmail('flow-1', actors.operator)).rejects.toMatchObject({ status: 409 });
    expect(running.runs).toHaveLength(0);
    await expect(
      useCases.sendFlowEmails('flow-1', { cursor: 'non-valido', budgetMs: 1 }, actors.operator),
    ).rejects.toMatchObject({ status: 400 });
  });
});
