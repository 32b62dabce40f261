import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { inbox } from '../support/mail.ts';
import { jobAnswer } from '../support/jobs.ts';
import { approvedSubscriber, mypayConfiguration, storedPositions } from '../support/positions.ts';
import { SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { romeYear } from '../../functions/domain/period.ts';
import { CALL_REFRESH_JOB } from '../../functions/domain/isee-refresh.ts';
import { JOB_INTERRUPTED } from '../../functions/domain/jobs.ts';
import { keys } from '../../functions/adapters/table.ts';
import { localStateMachineArn } from '../../lib/local/step-functions.ts';
import { localTable } from '../support/dynamo.ts';

/**
 * Keeping ISEE current across the new year, over the local stack and its simulators: a call's refresh from
 * INPS as a background job (its report, its faults, resuming), a January month generated with the expired
 * ISEE listed instead of billed, and the December list and reminders (IO and e-mail, once).
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
const year = romeYear(new Date());
const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const inps = (path: string, body: unknown) => post(inject('inpsUrl'), path, body);
const pdnd = (path: string, body: unknown) => post(inject('pdndUrl'), path, body);

beforeAll(async () => {
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterEach(async () => {
  await inps('/admin/reset', {});
  await pdnd('/admin/reset', {});
});

/** Polls a job's status until it is no longer running (the expiry list carries its job's status as `job`). */
async function finished(path: string) {
  for (let i = 0; i < 300; i++) {
    const status = await operator.get(path);
    expect(status.status).toBe(200);
    const job = status.json.job ?? status.json;
    if (!job.isUpdating && job.state !== 'RUNNING') return status.json;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${path} still running`);
}

/**
 * The report of a finished refresh once its counts are these: the counts and lists are read through a global
 * index (by outcome), which trails the writes a little, so the test reloads as an operator would.
 */
async function settledReport(path: string, counts: Record<string, number>) {
  await finished(path);
  await expect.poll(async () => (await operator.get(path)).json.counts).toEqual(counts);
  return (await operator.get(path)).json;
}

/** A call with one approved subscriber per case: a new DSU at INPS, one with omissions, none, and the DSU already recorded. */
async function callWithSubscribers() {
  const { call, service } = await openCall(operator);
  // The service is a nursery: its ISEE queries tell INPS the benefit A3.03 (Asilo nido).
  expect(
    (
      await operator.put(`/api/services/${service.id}`, {
        code: service.code,
        name: service.name,
        description: service.description,
        inpsBenefitCode: 'A3.03',
      })
    ).status,
  ).toBe(200);
  const fresh = await approvedSubscriber(operator, call, { lastName: 'Nuovo', iseeValue: 7000, weeklyHour: 2 });
  await inps('/admin/dsu', { fiscalCode: fresh.fiscalCode, value: 9100.5, lastName: 'NUOVO', firstName: 'ANNA' });
  const omissions = await approvedSubscriber(operator, call, { lastName: 'Omesso', iseeValue: 7000, weeklyHour: 2 });
  await inps('/admin/dsu', { fiscalCode: omissions.fiscalCode, value: 4200, omissions: true });
  const none = await approvedSubscriber(operator, call, { lastName: 'Senza', iseeValue: 7000, weeklyHour: 2 });
  const same = await approvedSubscriber(operator, call, { lastName: 'Uguale', iseeValue: 7000, weeklyHour: 2 });
  await inps('/admin/dsu', { fiscalCode: same.fiscalCode, value: 6500 });
  expect((await operator.post(`/api/users/${same.userId}/isee/inps`, {})).json.outcome).toBe('VALIDATED');
  return { call, fresh, omissions, none, same };
}

describe('Aggiorna ISEE da INPS on a call', () => {
  it('refreshes every approved subscriber in one job and reports who has a new value, none, omissions', async () => {
    const { call, fresh, omissions, none, same } = await callWithSubscribers();
    const started = await operator.post(`/api/calls/${call.id}/isee-refresh`, {});
    expect(started.status).toBe(200);
    const report = await settledReport(`/api/calls/${call.id}/isee-refresh`, {
      NEW: 1,
      REVIEW: 1,
      NONE: 1,
      UNCHANGED: 1,
      ERROR: 0,
    });
    expect(report).toMatchObject({ state: 'SUCCEEDED', done: 4, total: 4 });
    expect(report.lists.NEW).toEqual([
      expect.objectContaining({
        fiscalCode: fresh.fiscalCode,
        lastName: 'Nuovo',
        value: 9100.5,
        outcomeLabel: 'Nuovo valore da INPS',
      }),
    ]);
    expect(report.lists.REVIEW[0]).toMatchObject({
      fiscalCode: omissions.fiscalCode,
      detail: expect.stringMatching(/^Omissioni o difformità segnalate da INPS/),
    });
    expect(report.lists.NONE[0]).toMatchObject({
      fiscalCode: none.fiscalCode,
      outcomeLabel: 'Nessun ISEE valido presso INPS',
    });
    // What the citizens now have: the new value validated; the omissions waiting; nothing changed for the others.
    expect((await operator.get(`/api/users/${fresh.userId}`)).json.lastIsee).toMatchObject({
      value: 9100.5,
      state: 'VALIDATED',
    });
    expect((await operator.get(`/api/users/${omissions.userId}`)).json.lastIsee).toMatchObject({
      value: 4200,
      state: 'LOADED',
    });
    expect((await operator.get(`/api/users/${none.userId}`)).json.lastIsee).toMatchObject({
      value: 7000,
      state: 'VALIDATED',
    });
    await expect.poll(async () => (await operator.get(`/api/users/${same.userId}/isee`)).json.items).toHaveLength(2);
    const queries = (await operator.get(`/api/users/${fresh.userId}/inps-queries`)).json.items;
    expect(queries[0]).toMatchObject({
      reason: 'CALL',
      applicationNumber: `BANDO-${call.id}-${fresh.userId}`,
      applicationState: 'Erogata',
      benefitCode: 'A3.03',
    });
    // What reached INPS: the service's benefit code, not the council's default.
    const seen = (await (await fetch(`${inject('inpsUrl')}/admin/state`)).json()).lastQueries;
    expect(seen[fresh.fiscalCode]).toMatchObject({
      PrestazioneDaErogare: 'A3.03',
      ProtocolloDomandaEnteErogatore: `BANDO-${call.id}-${fresh.userId}`,
      StatodomandaPrestazione: 'Erogata',
    });
    // A second press while none runs starts again; two at once are refused.
    expect((await operator.post(`/api/calls/${call.id}/isee-refresh`, {})).status).toBe(200);
    expect((await operator.post(`/api/calls/${call.id}/isee-refresh`, {})).status).toBe(409);
    await finished(`/api/calls/${call.id}/isee-refresh`);
  });

  it('INPS offline stops the run with the reason and writes no ISEE; started again, it resumes and completes', async () => {
    const { call, fresh } = await callWithSubscribers();
    await inps('/admin/faults', { kind: '503', times: 'always' });
    await operator.post(`/api/calls/${call.id}/isee-refresh`, {});
    const failed = await finished(`/api/calls/${call.id}/isee-refresh`);
    expect(failed.state).toBe('FAILED');
    expect(failed.error).toMatch(/^Il servizio ISEE dell’INPS non è raggiungibile/);
    expect(failed.counts.NEW).toBe(0);
    expect((await operator.get(`/api/users/${fresh.userId}`)).json.lastIsee).toMatchObject({ value: 7000 });
    await inps('/admin/reset', {});
    expect((await operator.post(`/api/calls/${call.id}/isee-refresh`, {})).status).toBe(200);
    const resumed = await settledReport(`/api/calls/${call.id}/isee-refresh`, {
      NEW: 1,
      REVIEW: 1,
      NONE: 1,
      UNCHANGED: 1,
      ERROR: 0,
    });
    expect(resumed.state).toBe('SUCCEEDED');
  });

  it('a 429 storm is waited out: the run completes with every answer', async () => {
    const { call } = await callWithSubscribers();
    await inps('/admin/faults', { kind: '429', times: 6 });
    await operator.post(`/api/calls/${call.id}/isee-refresh`, {});
    expect(
      (
        await settledReport(`/api/calls/${call.id}/isee-refresh`, {
          NEW: 1,
          REVIEW: 1,
          NONE: 1,
          UNCHANGED: 1,
          ERROR: 0,
        })
      ).state,
    ).toBe('SUCCEEDED');
  });

  it('INPS allowing fewer queries a second than the configured pace: the run slows down to it and ends with every answer', async () => {
    const { call } = await openCall(operator);
    for (const letter of 'abcdefghijklmnop')
      await approvedSubscriber(operator, call, { lastName: `Lento${letter}`, iseeValue: 7000, weeklyHour: 2 });
    await inps('/admin/rate-limit', { perSecond: 2 });
    await operator.post(`/api/calls/${call.id}/isee-refresh`, {});
    const report = await settledReport(`/api/calls/${call.id}/isee-refresh`, {
      NEW: 0,
      REVIEW: 0,
      NONE: 16,
      UNCHANGED: 0,
      ERROR: 0,
    });
    expect(report.state).toBe('SUCCEEDED');
  });

  it('the voucher refused (PDND 400) stops the run at once with what to check', async () => {
    const { call, fresh } = await callWithSubscribers();
    await inps('/admin/faults', { kind: 'voucher-expired' });
    await pdnd('/admin/faults', { kind: 'refuse', times: 'always' });
    await operator.post(`/api/calls/${call.id}/isee-refresh`, {});
    const failed = await finished(`/api/calls/${call.id}/isee-refresh`);
    expect(failed.state).toBe('FAILED');
    expect(failed.error).toMatch(/controlla la configurazione PDND/);
    expect((await operator.get(`/api/users/${fresh.userId}`)).json.lastIsee).toMatchObject({ value: 7000 });
  });
});

describe('a refresh the jobs’ machine ends before it finishes (its two-hour limit, a stop)', () => {
  it('reads failed at once, and started again it resumes: nobody INPS already answered is asked again', async () => {
    const { call, fresh, omissions, none, same } = await callWithSubscribers();
    const path = `/api/calls/${call.id}/isee-refresh`;
    const answered = async () =>
      Object.values((await operator.get(path)).json.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    // One answer is slow: the execution ends while it is on its way, three others already answered.
    await inps('/admin/faults', { kind: 'slow', times: 1, ms: 10_000 });
    expect((await operator.post(path, {})).status).toBe(200);
    await expect.poll(answered, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(3);
    // Ended outside every Catch, as Step Functions ends an execution at its TimeoutSeconds.
    const job = await localTable().item(keys.job(CALL_REFRESH_JOB, call.id));
    const machine = localStateMachineArn('BackgroundJobs').replace(':stateMachine:', ':execution:');
    await new SFNClient({
      endpoint: inject('stepFunctionsEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }).send(new StopExecutionCommand({ executionArn: `${machine}:${job!.id}` }));
    const ended = await finished(path);
    expect(ended).toMatchObject({ state: 'FAILED', error: JOB_INTERRUPTED });
    // The slow answer still lands (the function runs on after the execution ends, as Lambda's does).
    await expect.poll(answered, { timeout: 30_000 }).toBe(4);

    expect((await operator.post(path, {})).status).toBe(200);
    const resumed = await settledReport(path, { NEW: 1, REVIEW: 1, NONE: 1, UNCHANGED: 1, ERROR: 0 });
    expect(resumed.state).toBe('SUCCEEDED');
    // Each subscriber was asked once for the call: the resumed run kept the report and asked INPS for nobody.
    for (const who of [fresh, omissions, none, same]) {
      const queries = (await operator.get(`/api/users/${who.userId}/inps-queries`)).json.items;
      expect(queries.filter((q: { reason: string }) => q.reason === 'CALL')).toHaveLength(1);
    }
  });
});

describe('INPS’s daily limit', () => {
  it('a 429 without Retry-After stops the run for the day, with how many are left; started again, it resumes', async () => {
    const { call } = await callWithSubscribers();
    await inps('/admin/faults', { kind: '429-daily', times: 'always' });
    await operator.post(`/api/calls/${call.id}/isee-refresh`, {});
    const stopped = await finished(`/api/calls/${call.id}/isee-refresh`);
    expect(stopped.state).toBe('FAILED');
    expect(stopped.error).toMatch(
      /^INPS ha raggiunto il limite giornaliero di richieste del Comune: restano 4 iscritti da aggiornare\. Avvia di nuovo l’aggiornamento domani/,
    );
    await inps('/admin/reset', {});
    expect((await operator.post(`/api/calls/${call.id}/isee-refresh`, {})).status).toBe(200);
    expect(
      (
        await settledReport(`/api/calls/${call.id}/isee-refresh`, {
          NEW: 1,
          REVIEW: 1,
          NONE: 1,
          UNCHANGED: 1,
          ERROR: 0,
        })
      ).state,
    ).toBe('SUCCEEDED');
  });
});

describe('the ISEE corrente, through to the month’s fee', () => {
  it('bills the months it covers with its own value, and the month after it ends is ISEE scaduto o mancante', async () => {
    const { call } = await openCall(operator);
    const subscriber = await approvedSubscriber(operator, call, {
      lastName: 'Corrente',
      iseeValue: 12000,
      weeklyHour: 3,
    });
    const [today, month] = [new Date().toISOString().slice(0, 10), new Date().getUTCMonth() + 1];
    const endOfMonth = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    // Income fell: an ISEE corrente presented on the 1st of this month, ending with it (months before the DSU's 31 December).
    await inps('/admin/dsu', {
      fiscalCode: subscriber.fiscalCode,
      value: 5000,
      kind: 'corrente',
      correnteOn: `${today.slice(0, 8)}01`,
      correnteUntil: endOfMonth,
    });
    const fetched = await operator.post(`/api/users/${subscriber.userId}/isee/inps`, {});
    expect(fetched.status).toBe(200);
    expect(fetched.json).toMatchObject({
      outcome: 'VALIDATED',
      isee: {
        value: 5000,
        scadenza: endOfMonth,
        source: 'INPS',
        inps: { corrente: { dataScadenza: endOfMonth }, dataValidita: `${year}-12-31` },
      },
    });
    expect(fetched.json.isee.protocollo).toBe(fetched.json.isee.inps.corrente.protocolloDSU);
    expect(fetched.json.isee.protocollo).not.toBe(fetched.json.isee.inps.protocolloDSU);
    const thisMonth = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, {
      mese: month,
      anno: year,
    });
    expect(thisMonth.json).toMatchObject({ created: 1, skipped: [] });
    const next = month === 12 ? { mese: 1, anno: year + 1 } : { mese: month + 1, anno: year };
    const after = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, next);
    expect(after.json).toMatchObject({
      created: 0,
      skipped: [{ fiscalCode: subscriber.fiscalCode, reason: 'ISEE scaduto o mancante' }],
    });
  });
});

describe('across the new year', () => {
  it('January is not billed with the December ISEE: the subscriber is listed as ISEE scaduto o mancante until a valid one arrives', async () => {
    const { call } = await openCall(operator);
    const subscriber = await approvedSubscriber(operator, call, {
      lastName: 'Gennaio',
      iseeValue: 8000,
      weeklyHour: 3,
    });
    const january = { mese: 1, anno: year + 1 };
    const december = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese: 12, anno: year });
    expect(december.json.created).toBe(1);
    const generated = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, january);
    expect(generated.json).toMatchObject({
      created: 0,
      skipped: [{ fiscalCode: subscriber.fiscalCode, cognome: 'Gennaio', reason: 'ISEE scaduto o mancante' }],
    });
    expect(await storedPositions(call.id, `${year + 1}-01`)).toEqual([]);
    const missing = await operator.get(`/api/calls/${call.id}/payment-list/missing-isee?anno=${year + 1}`);
    expect(missing.json.months).toEqual([
      expect.objectContaining({
        mese: 1,
        count: 1,
        people: [{ fiscalCode: subscriber.fiscalCode, cognome: 'Gennaio', nome: 'Anna' }],
      }),
    ]);
    // The new year's ISEE arrives: generating January again creates the position, and the list empties.
    const next = await operator.post(`/api/users/${subscriber.userId}/isee`, {
      value: 8000,
      year: year + 1,
      date: new Date().toISOString(),
      protocollo: `INPS-ISEE-${year + 1}-00000009Z-00`,
      scadenza: `${year + 1}-12-31`,
      excludeVerification: true,
    });
    expect(next.status).toBe(201);
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, january)).json).toMatchObject({
      created: 1,
      skipped: [],
    });
    expect(
      (await operator.get(`/api/calls/${call.id}/payment-list/missing-isee?anno=${year + 1}`)).json.months,
    ).toEqual([]);
  });
});

describe('the December list and reminders', () => {
  it('lists expiring ISEE among active subscribers and reminds them once, on IO and by e-mail', async () => {
    const { call } = await openCall(operator);
    const expiring = await approvedSubscriber(operator, call, { lastName: 'Scadenza', iseeValue: 8000, weeklyHour: 2 });
    // The job walks the active calls through a global index, which trails the writes: wait until the operators' list shows the call.
    await expect
      .poll(
        async () =>
          (await operator.get(`/api/calls?name=${encodeURIComponent(call.name)}`)).json.items.map(
            (c: { id: string }) => c.id,
          ),
        { timeout: 10_000 },
      )
      .toContain(call.id);
    const started = await operator.post('/api/isee-expiry', {});
    expect(started.status).toBe(200);
    await finished('/api/isee-expiry');
    const rows = await allExpiryRows();
    expect(rows.find((r) => r.userId === expiring.userId)).toMatchObject({
      status: 'IN_SCADENZA',
      statusLabel: 'In scadenza',
      scadenza: `${year}-12-31`,
      io: 'SENT',
      email: 'SENT',
      renewed: false,
    });
    const io = (await (await fetch(`${inject('ioUrl')}/admin/messages?fiscal_code=${expiring.fiscalCode}`)).json())
      .messages;
    expect(io).toHaveLength(1);
    expect(io[0].content.subject).toBe(`Il tuo ISEE scade il 31/12/${year}`);
    expect(io[0].content.markdown).toContain('/caricamento_ISEE');
    const mails = (await inbox()).filter(
      (m) => m.destination.to.includes('scadenza@example.it') && m.subject === `Il tuo ISEE scade il 31/12/${year}`,
    );
    expect(mails).toHaveLength(1);
    // Run again: the list is refreshed, nobody is reminded twice.
    await operator.post('/api/isee-expiry', {});
    await finished('/api/isee-expiry');
    expect(
      (await (await fetch(`${inject('ioUrl')}/admin/messages?fiscal_code=${expiring.fiscalCode}`)).json()).messages,
    ).toHaveLength(1);
    expect(
      (await inbox()).filter(
        (m) => m.destination.to.includes('scadenza@example.it') && m.subject === `Il tuo ISEE scade il 31/12/${year}`,
      ),
    ).toHaveLength(1);
  });

  it('SES throttling (it keeps to a lower rate than the account says): the throttled reminders are sent again after a pause, none is recorded as failed', async () => {
    const { call } = await openCall(operator);
    const people = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        approvedSubscriber(operator, call, {
          lastName: `Freno${String.fromCharCode(65 + i)}`,
          iseeValue: 8000,
          weeklyHour: 2,
        }),
      ),
    );
    await expect
      .poll(
        async () =>
          (await operator.get(`/api/calls?name=${encodeURIComponent(call.name)}`)).json.items.map(
            (c: { id: string }) => c.id,
          ),
        { timeout: 10_000 },
      )
      .toContain(call.id);
    const ses = inject('sesEndpoint');
    const throttled = async () => ((await (await fetch(`${ses}/throttled`)).json()) as { throttled: number }).throttled;
    const before = await throttled();
    await post(ses, '/admin/send-rate', { perSecond: 1 });
    try {
      expect((await operator.post('/api/isee-expiry', {})).status).toBe(200);
      expect((await finished('/api/isee-expiry')).job.state).toBe('SUCCEEDED');
    } finally {
      await post(ses, '/admin/send-rate', {});
    }
    expect(await throttled()).toBeGreaterThan(before);
    const rows = await allExpiryRows();
    for (const person of people)
      expect(rows.find((r) => r.userId === person.userId)).toMatchObject({ io: 'SENT', email: 'SENT' });
    const reminders = (await inbox()).filter(
      (m) =>
        /^freno[a-h]@example\.it$/.test(m.destination.to[0] ?? '') &&
        m.subject === `Il tuo ISEE scade il 31/12/${year}`,
    );
    expect(reminders).toHaveLength(8);
  });

  it('IO refusing the council itself (403: the portal’s IP not allowed) stops the reminders with the reason, instead of marking everyone ‘no IO’', async () => {
    const { call } = await openCall(operator);
    const expiring = await approvedSubscriber(operator, call, {
      lastName: 'Rifiutoio',
      iseeValue: 8000,
      weeklyHour: 2,
    });
    await expect
      .poll(
        async () =>
          (await operator.get(`/api/calls?name=${encodeURIComponent(call.name)}`)).json.items.map(
            (c: { id: string }) => c.id,
          ),
        { timeout: 10_000 },
      )
      .toContain(call.id);
    const io = (path: string, body: unknown) => post(inject('ioUrl'), path, body);
    await io('/admin/service', { authorizedCidrs: ['10.20.0.0/16'] });
    try {
      expect((await operator.post('/api/isee-expiry', {})).status).toBe(200);
      const list = await finished('/api/isee-expiry');
      expect(list.job).toMatchObject({ state: 'FAILED', error: expect.stringContaining('Promemoria ISEE interrotti') });
      expect(list.job.error).toContain('indirizzo IP del portale');
      const rows = await allExpiryRows();
      // Nobody is marked as a citizen without IO.
      expect(rows.filter((r) => r.io === 'NO_CHANNEL' && r.remindedAt && r.remindedAt >= list.job.startedAt)).toEqual(
        [],
      );
      expect(rows.filter((r) => r.io === 'FAILED').length).toBeGreaterThan(0);
      expect(
        (await (await fetch(`${inject('ioUrl')}/admin/messages?fiscal_code=${expiring.fiscalCode}`)).json()).messages,
      ).toHaveLength(0);
    } finally {
      await io('/admin/reset', {});
    }
  });

  /** The whole list, page after page. */
  async function allExpiryRows() {
    const rows: any[] = [];
    let cursor: string | null = null;
    do {
      const page: { json: { items: any[]; nextCursor: string | null } } = await operator.get(
        `/api/isee-expiry?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      rows.push(...page.json.items);
      cursor = page.json.nextCursor;
    } while (cursor);
    return rows;
  }
});
