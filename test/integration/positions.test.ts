import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionIud } from '../../functions/domain/debt-positions.ts';
import { MYPAY_CSV_COLUMNS } from '../../functions/domain/mypay-csv.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import {
  approvedSubscriber,
  mypayConfiguration,
  storedPositions,
  storeRawConfiguration,
} from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { onGpd } from '../support/gpd.ts';
import { billedMonth } from '../support/months.ts';

type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let delegate: Client;
const march = { mese: 3, anno: 2026 };

beforeAll(async () => {
  operator = await as('operator');
  delegate = await as('delegate');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  await operator.put('/api/configuration', mypayConfiguration);
});

/** An open call (band 0–10.000 €, 40% of 18 € = 7,20 €/h) with three approved citizens. */
async function callWithSubscribers() {
  const { call } = await openCall(operator);
  const rossi = await approvedSubscriber(operator, call, { lastName: 'Rossi', iseeValue: 8000, weeklyHour: 3 }); // 7,20 × 3 × 31 / 7 = 95,66 €
  const bianchi = await approvedSubscriber(operator, call, { lastName: 'Bianchi', iseeValue: 2500, weeklyHour: 3 }); // exempt
  const verdi = await approvedSubscriber(operator, call, { lastName: 'Verdi', iseeValue: null, weeklyHour: 2 }); // no ISEE
  return { call, rossi, bianchi, verdi };
}

describe('configuration (/configurazione)', () => {
  it('an operator saves the eight values and reads them back; the change is audited', async () => {
    const changed = { ...mypayConfiguration, tipoDovuto: 'SERVIZI_SOCIALI_2026' };
    const saved = await operator.put('/api/configuration', changed);
    expect(saved.status).toBe(200);
    expect(saved.json.configuration).toEqual(changed);
    expect((await operator.get('/api/configuration')).json.configuration).toEqual(changed);
    const audit = await localTable().auditOf('configuration', 'MYPAY');
    expect(audit.at(-1)).toMatchObject({ action: 'update', after: changed, who: { fiscalCode: 'BNCLRA79H61F205F' } });
    await operator.put('/api/configuration', mypayConfiguration);
  });

  it('refuses empty or wrong values with the Italian message beside each field, and keeps what was saved', async () => {
    const empty = await operator.put('/api/configuration', {
      ...mypayConfiguration,
      codUfficio: '',
      tipoVersamento: '   ',
    });
    expect(empty.status).toBe(400);
    expect(empty.json.errors).toEqual({
      codUfficio: 'Il campo non può essere vuoto!',
      tipoVersamento: 'Il campo non può essere vuoto!',
    });
    const wrong = await operator.put('/api/configuration', {
      ...mypayConfiguration,
      azione: 'X',
      flgGeneraIuv: 'forse',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors.azione).toBe('L’azione deve essere I (inserimento), M (modifica) o A (annullamento).');
    expect(wrong.json.errors.flgGeneraIuv).toBe('Il campo deve essere vero o falso (true o false).');
    const missing = await operator.put('/api/configuration', { azione: 'I' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.json.errors).sort()).toEqual([
      'codUfficio',
      'codeConfig',
      'datiSpecificiRiscossione',
      'flgGeneraIuv',
      'tipoDovuto',
      'tipoIdentificativoUnivoco',
      'tipoVersamento',
    ]);
    expect((await operator.get('/api/configuration')).json.configuration).toEqual(mypayConfiguration);
  });

  it('is the operator’s: a delegate is refused reading and writing it (403)', async () => {
    expect((await delegate.get('/api/configuration')).status).toBe(403);
    expect((await delegate.put('/api/configuration', mypayConfiguration)).status).toBe(403);
  });
});

describe('debt positions of a month', () => {
  it('generates one position per approved citizen with a fee, reports who was skipped, and twice changes nothing', async () => {
    const { call, rossi, verdi } = await callWithSubscribers();
    const first = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, march);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      mese: 3,
      anno: 2026,
      created: 1,
      updated: 0,
      cancelled: 0,
      unchanged: 0,
      exempt: 1,
      skipped: [{ fiscalCode: verdi.fiscalCode, cognome: 'Verdi', nome: 'Anna', reason: 'ISEE scaduto o mancante' }],
      skippedCount: 1,
    });
    const stored = await storedPositions(call.id, '2026-03');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      iud: positionIud(call.id, rossi.userId, march),
      userId: rossi.userId,
      importoDovuto: 9566,
      azione: 'I',
      statoExport: 'DA_ESPORTARE',
      dataScadenza: '2026-03-31',
      isPagato: false,
    });

    const second = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, march);
    expect(second.json).toMatchObject({ created: 0, updated: 0, cancelled: 0, unchanged: 1 });
    const again = await storedPositions(call.id, '2026-03');
    expect(again).toEqual(stored);
    // Two at the same moment: still one position.
    const other = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese: 4, anno: 2026 });
    expect(other.json.created).toBe(1);
    // Two clicks at the same moment: one generation starts, the other is refused while it runs; one position.
    const [a, b] = await Promise.all(
      [1, 2].map(() => jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese: 5, anno: 2026 })),
    );
    expect([a!.status, b!.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r!.status === 409)!.json.detail).toBe(
      'È già in corso la generazione delle posizioni debitorie per questo bando: attendi che termini.',
    );
    expect([a, b].find((r) => r!.status === 200)!.json.created).toBe(1);
    expect(await storedPositions(call.id, '2026-05')).toHaveLength(1);

    const audit = await localTable().auditOf('position', stored[0]!.iud);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', before: null, after: { importoDovuto: 9566 } });
    // The ISEE used for the fee can no longer be deleted.
    const { lastIsee } = (await operator.get(`/api/users/${rossi.userId}`)).json;
    expect((await operator.delete(`/api/isee/${lastIsee.id}`)).status).toBe(409);
  });

  /**
   * An HTTP API integration lasts at most 29 s (API Gateway quotas, HTTP API "Integration timeout":
   * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html), and a month of a large
   * call is thousands of writes: the generation runs as a background job, the routes answer its status.
   */
  it('runs the month’s generation in the background: the start answers its status at once, the status reads the counts once done', async () => {
    const { call } = await callWithSubscribers();
    const path = `/api/calls/${call.id}/positions/generate`;
    expect((await operator.get(path)).json).toMatchObject({ isRunning: false, state: 'NONE', result: null });
    const started = await operator.post(path, march);
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({ isRunning: true, state: 'RUNNING', done: 0, result: null, error: null });
    await expect.poll(async () => (await operator.get(path)).json.state).toBe('SUCCEEDED');
    expect((await operator.get(path)).json).toMatchObject({
      isRunning: false,
      done: 1,
      total: 1,
      endedAt: expect.any(String),
      result: { mese: 3, anno: 2026, created: 1, exempt: 1, skippedCount: 1 },
    });
    expect(await storedPositions(call.id, '2026-03')).toHaveLength(1);
  });

  it('lists the month’s positions page by page (amounts in cents), defaulting to the current month', async () => {
    const { call } = await callWithSubscribers();
    await approvedSubscriber(operator, call, { lastName: 'Neri', iseeValue: 9000, weeklyHour: 1 });
    await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, march);
    const page1 = await operator.get(`/api/calls/${call.id}/positions?mese=3&anno=2026&limit=1`);
    expect(page1.status).toBe(200);
    expect(page1.json.items).toHaveLength(1);
    const page2 = await operator.get(
      `/api/calls/${call.id}/positions?mese=3&anno=2026&limit=1&cursor=${page1.json.nextCursor}`,
    );
    const all = [...page1.json.items, ...page2.json.items];
    expect(all.map((p: any) => p.cognome).sort()).toEqual(['Neri', 'Rossi']);
    expect(all.find((p: any) => p.cognome === 'Neri').importoDovuto).toBe(3189); // 7,20 × 1 × 31 / 7 = 31,885… → 31,89 €
    expect(all[0]).not.toHaveProperty('pk');
    expect(all[0]).not.toHaveProperty('version');
    const current = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, {});
    const now = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Rome',
      year: 'numeric',
      month: 'numeric',
    }).formatToParts(new Date());
    expect([current.json.mese, current.json.anno]).toEqual([
      Number(now.find((p) => p.type === 'month')!.value),
      Number(now.find((p) => p.type === 'year')!.value),
    ]);
    expect((await operator.get(`/api/calls/${call.id}/positions`)).json.items).toHaveLength(2);
  });

  // MyPay's import file: on pagoPA GPD the month goes only through the export (project integration-gpd skips it).
  it.skipIf(onGpd())(
    'Verifica / genera CSV: the MyPay import file of the month, header and one row per position to send',
    async () => {
      const { call, rossi } = await callWithSubscribers();
      const response = await jobAnswer(operator, `/api/calls/${call.id}/positions/csv`, march);
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ fileName: 'SERVIZI_SOCIALI_2026_03.csv', rows: 1, created: 1 });
      // The file is not in the answer (a big month would pass API Gateway's limits): a link of minutes to it.
      expect(response.json).not.toHaveProperty('content');
      expect(new URL(response.json.url).searchParams.get('X-Amz-Expires')).toBe('300');
      const file = await fetch(response.json.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="SERVIZI_SOCIALI_2026_03.csv"');
      const content = await file.text();
      const [header, row, ...rest] = Papa.parse<string[]>(content.trim(), { delimiter: ';' }).data;
      expect(header).toEqual([...MYPAY_CSV_COLUMNS]);
      expect(rest).toEqual([]);
      const byColumn = Object.fromEntries(header!.map((name, i) => [name, row![i]]));
      expect(byColumn).toMatchObject({
        IUD: positionIud(call.id, rossi.userId, march),
        codIuv: '',
        tipoIdentificativoUnivoco: 'F',
        codiceIdentificativoUnivoco: rossi.fiscalCode,
        anagraficaPagatore: 'Rossi Anna',
        capPagatore: '00100',
        provinciaPagatore: 'RM',
        mailPagatore: 'rossi@example.it',
        dataEsecuzionePagamento: '2026-03-31',
        importoDovuto: '95.66',
        tipoDovuto: 'SERVIZI_SOCIALI',
        tipoVersamento: 'ALL',
        datiSpecificiRiscossione: '9/0101100IM/',
        flagGeneraIuv: 'true',
        azione: 'I',
      });
      expect(byColumn.causaleVersamento).toContain(`Rossi Anna (${rossi.fiscalCode}) - bando ${call.name}`);
      expect(byColumn.bilancio).toContain(
        '<codCapitolo>CAP-1203</codCapitolo><codUfficio>UFF01</codUfficio><accertamento><codAccertamento>ACC-2025-01</codAccertamento><importo>95.66</importo>',
      );
      // Asking again gives the same file and writes nothing new.
      const again = await jobAnswer(operator, `/api/calls/${call.id}/positions/csv`, march);
      expect(await (await fetch(again.json.url)).text()).toBe(content);
      expect(again.json).toMatchObject({ created: 0, unchanged: 1 });
    },
  );

  // On pagoPA GPD MyPay's import file means nothing: the file lists what the export will do there (issue 37).
  it.runIf(onGpd())(
    'Verifica / genera CSV on pagoPA: the month’s positions the export will send, with the action, amount and due day, no MyPay column',
    async () => {
      const month = billedMonth();
      const { call, rossi } = await callWithSubscribers();
      const response = await jobAnswer(operator, `/api/calls/${call.id}/positions/csv`, month.period);
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ rows: 1, created: 1, heldBackCount: 0 });
      const file = await fetch(response.json.url);
      expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const [header, row, ...rest] = Papa.parse<string[]>((await file.text()).replace(/^\uFEFF/, '').trim(), {
        delimiter: ';',
      }).data;
      expect(header).toEqual([
        'azione',
        'iud',
        'codiceFiscale',
        'anagrafica',
        'email',
        'importo',
        'causale',
        'scadenza',
        'iuv',
      ]);
      expect(rest).toEqual([]);
      const [position] = (await operator.get(`/api/calls/${call.id}/positions?mese=${month.mese}&anno=${month.anno}`))
        .json.items;
      expect(row).toEqual([
        'nuova',
        positionIud(call.id, rossi.userId, month.period),
        rossi.fiscalCode,
        'Rossi Anna',
        'rossi@example.it',
        (position.importoDovuto / 100).toFixed(2).replace('.', ','),
        position.descrizione,
        month.dueDayItalian,
        '',
      ]);
    },
  );

  describe('bad requests get a clear Italian error and change nothing', () => {
    it('month 13, month 0, a year in letters (400)', async () => {
      const { call } = await callWithSubscribers();
      for (const [body, detail] of [
        [{ mese: 13, anno: 2026 }, 'Il mese deve essere un numero da 1 a 12.'],
        [{ mese: 0, anno: 2026 }, 'Il mese deve essere un numero da 1 a 12.'],
        [{ mese: 3, anno: 'duemilaventisei' }, 'Inserisci un anno valido di quattro cifre.'],
      ] as const) {
        for (const path of ['generate', 'csv']) {
          const response = await operator.post(`/api/calls/${call.id}/positions/${path}`, body);
          expect([response.status, response.json.detail]).toEqual([400, detail]);
        }
      }
      expect((await operator.get(`/api/calls/${call.id}/positions?mese=13`)).status).toBe(400);
      expect(await storedPositions(call.id, '2026-03')).toEqual([]);
    });

    it('an unknown call (404)', async () => {
      for (const path of ['generate', 'csv']) {
        const response = await operator.post(`/api/calls/nessuno/positions/${path}`, march);
        expect([response.status, response.json.detail]).toEqual([404, 'Il bando selezionato non è presente.']);
      }
      expect((await operator.get('/api/calls/nessuno/positions')).status).toBe(404);
    });

    it.skipIf(onGpd())('an incomplete or missing configuration (400 before any position is generated)', async () => {
      const { call } = await callWithSubscribers();
      try {
        const { datiSpecificiRiscossione: _dropped, ...partial } = mypayConfiguration;
        await storeRawConfiguration({ ...partial, tipoDovuto: '' });
        for (const path of ['generate', 'csv']) {
          const response = await operator.post(`/api/calls/${call.id}/positions/${path}`, march);
          expect(response.status).toBe(400);
          expect(response.json.detail).toMatch(/^Configurazione MyPay incompleta/);
          expect(response.json.detail).toContain('tipoDovuto, datiSpecificiRiscossione');
        }
        await storeRawConfiguration(null);
        expect((await operator.get('/api/configuration')).json).toEqual({ configuration: null, updatedAt: null });
        expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, march)).json.detail).toMatch(
          /^Configurazione MyPay incompleta/,
        );
        expect(await storedPositions(call.id, '2026-03')).toEqual([]);
      } finally {
        await operator.put('/api/configuration', mypayConfiguration);
      }
    });

    // GPD reads the council's pagoPA settings, none of MyPay's configuration page (flows.test.ts checks the export).
    it.runIf(onGpd())(
      'on pagoPA the generation needs none of MyPay’s configuration: the month is generated with that page empty',
      async () => {
        const { call } = await callWithSubscribers();
        try {
          await storeRawConfiguration(null);
          expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, march)).json).toMatchObject({
            created: 1,
            exempt: 1,
          });
          expect(await storedPositions(call.id, '2026-03')).toHaveLength(1);
        } finally {
          await operator.put('/api/configuration', mypayConfiguration);
        }
      },
    );

    it('a delegate or a citizen cannot generate (403)', async () => {
      const { call } = await callWithSubscribers();
      const citizen = await as('citizen');
      for (const client of [delegate, citizen]) {
        expect((await jobAnswer(client, `/api/calls/${call.id}/positions/generate`, march)).status).toBe(403);
        expect((await jobAnswer(client, `/api/calls/${call.id}/positions/csv`, march)).status).toBe(403);
      }
      expect(await storedPositions(call.id, '2026-03')).toEqual([]);
    });
  });
});
