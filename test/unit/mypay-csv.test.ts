import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { strToU8, unzipSync } from 'fflate';
import { mypayImportZip } from '../../functions/adapters/mypay-zip.ts';
import { flowFileName } from '../../functions/domain/flows.ts';
import { checkConfiguration } from '../../functions/domain/configuration.ts';
import { configurationSchema } from '../../functions/domain/configuration-schemas.ts';
import { planMonth, withAmount, type PositionRecord } from '../../functions/domain/debt-positions.ts';
import { ValidationError } from '../../functions/domain/errors.ts';
import { centsToDecimal } from '../../functions/domain/money.ts';
import {
  bilancioXml,
  heldBackMessages,
  heldBackReasons,
  MYPAY_CSV_COLUMNS,
  mypayCsv,
  mypayCsvRow,
  type Payer,
} from '../../functions/domain/mypay-csv.ts';
import { mypayCsvRows } from '../../functions/domain/mypay-csv-format.ts';
import { checkDigits } from '../../functions/domain/iuv.ts';
import { mypayConfiguration } from '../support/configuration.ts';
import { mypayIuv } from '../../lib/local/mypay-iuv.ts';
import { DEFAULT_ENTITY } from '../../lib/local/mypay/model.ts';
import { readImportLine, validaIuv, validateRow } from '../../lib/local/mypay/rows.ts';

const call = {
  id: 'call-1',
  name: 'Assistenza domiciliare 2026',
  serviceName: 'Assistenza domiciliare',
  codCapitolo: 'CAP-1203',
  codAccertamento: 'ACC-2026-01',
  nomeMyPay: 'SERVIZI_SOCIALI',
};
const payer: Payer = {
  fiscalCode: 'rssmra85c52h501n',
  firstName: 'Maria',
  lastName: 'Rossi',
  email: 'maria.rossi@example.it',
  address: 'Via Roma',
  addressNumber: '12',
  cap: '00184',
  city: 'Roma',
  country: 'rm',
  nation: 'IT',
};

function position(amountCents = 6643, overrides: Partial<PositionRecord> = {}): PositionRecord {
  const [created] = planMonth({
    call,
    period: { mese: 3, anno: 2026 },
    existing: [],
    subscriptions: [
      {
        userId: 'u1',
        fiscalCode: 'RSSMRA85C52H501N',
        firstName: 'Maria',
        lastName: 'Rossi',
        iseeId: 'i1',
        fee: {
          kind: 'DUE',
          band: { id: 'b', name: 'F', min: 0, max: 1, percent: null, fixedCost: 1 },
          quotaCents: 100,
          amountCents,
        },
      },
    ],
    now: '2026-03-10T10:00:00.000Z',
  }).create;
  return { ...created!, ...overrides };
}

const parse = (csv: string) => Papa.parse<string[]>(csv.trim(), { delimiter: ';' }).data;

describe('MyPay import CSV (reference.md)', () => {
  it('has the 22 columns in the reference order, a header, ; separators, dot amounts and yyyy-MM-dd dates', () => {
    const csv = mypayCsv([mypayCsvRow(position(), payer, call, mypayConfiguration)]);
    const [header, row] = parse(csv);
    expect(csv.split('\r\n')[0]).toBe(
      'IUD;codIuv;tipoIdentificativoUnivoco;codiceIdentificativoUnivoco;anagraficaPagatore;indirizzoPagatore;civicoPagatore;capPagatore;localitaPagatore;provinciaPagatore;nazionePagatore;mailPagatore;dataEsecuzionePagamento;importoDovuto;commissioneCaricoPa;tipoDovuto;tipoVersamento;causaleVersamento;datiSpecificiRiscossione;bilancio;flagGeneraIuv;azione',
    );
    expect(header).toEqual([...MYPAY_CSV_COLUMNS]);
    const byColumn = Object.fromEntries(header!.map((name, i) => [name, row![i]]));
    expect(byColumn).toEqual({
      IUD: position().iud,
      codIuv: '',
      tipoIdentificativoUnivoco: 'F',
      codiceIdentificativoUnivoco: 'RSSMRA85C52H501N',
      anagraficaPagatore: 'Rossi Maria',
      indirizzoPagatore: 'Via Roma',
      civicoPagatore: '12',
      capPagatore: '00184',
      localitaPagatore: 'Roma',
      provinciaPagatore: 'RM',
      nazionePagatore: 'IT',
      mailPagatore: 'maria.rossi@example.it',
      dataEsecuzionePagamento: '2026-03-31',
      importoDovuto: '66.43',
      commissioneCaricoPa: '',
      tipoDovuto: 'SERVIZI_SOCIALI',
      tipoVersamento: 'ALL',
      causaleVersamento:
        'Quota Marzo 2026 Assistenza domiciliare - Rossi Maria (RSSMRA85C52H501N) - bando Assistenza domiciliare 2026',
      datiSpecificiRiscossione: '9/0101100IM/',
      bilancio:
        '<bilancio><capitolo><codCapitolo>CAP-1203</codCapitolo><codUfficio>UFF01</codUfficio><accertamento><codAccertamento>ACC-2026-01</codAccertamento><importo>66.43</importo></accertamento></capitolo></bilancio>',
      flagGeneraIuv: 'true',
      azione: 'I',
    });
  });

  it('quotes a value holding the separator or a quote as MyPay4 reads it back: `\\"`, never `""` (ImportFlussoTaskService.cleanDoubleQuote)', () => {
    const odd = { ...payer, lastName: 'D’Amico; detta "Nina"', firstName: 'Niccolò', address: 'Via dell’Università' };
    const csv = mypayCsv([mypayCsvRow(position(), odd, call, mypayConfiguration)]);
    expect(csv).toContain('"D’Amico; detta \\"Nina\\" Niccolò"');
    expect(csv).not.toContain('""Nina""');
    const { row, syntax } = readImportLine(csv.split('\r\n')[1]!, '1_3');
    expect(syntax).toEqual([]);
    expect(row.anagraficaPagatore).toBe('D’Amico; detta "Nina" Niccolò');
    expect(row.indirizzoPagatore).toBe('Via dell’Università');
  });

  it('reads back the rows of its own CSV as written, quotes and separators inside a value included (the rows Rielabora asks MyPay about one by one)', () => {
    const odd = { ...payer, lastName: 'D’Amico; detta "Nina"', firstName: 'Niccolò', address: 'Via "Roma"; 3' };
    const rows = [
      mypayCsvRow(position(), odd, call, mypayConfiguration),
      mypayCsvRow(position(1234, { iud: 'P2026031B' }), payer, call, mypayConfiguration),
    ];
    expect(mypayCsvRows(mypayCsv(rows))).toEqual(rows);
  });

  it('a call named Nido "Il Girasole" reaches MyPay as named, every field in its place', () => {
    const girasole = { ...call, name: 'Nido "Il Girasole"' };
    const [created] = planMonth({
      call: girasole,
      period: { mese: 3, anno: 2026 },
      existing: [],
      subscriptions: [
        {
          userId: 'u1',
          fiscalCode: 'RSSMRA85C52H501N',
          firstName: 'Maria',
          lastName: 'Rossi',
          iseeId: 'i1',
          fee: {
            kind: 'DUE',
            band: { id: 'b', name: 'F', min: 0, max: 1, percent: null, fixedCost: 1 },
            quotaCents: 100,
            amountCents: 6643,
          },
        },
      ],
      now: '2026-03-10T10:00:00.000Z',
    }).create;
    const sent = mypayCsvRow(created!, { ...payer, address: 'Via "Roma"; scala B' }, girasole, mypayConfiguration);
    expect(heldBackReasons(sent)).toEqual([]);
    const { row, syntax } = readImportLine(mypayCsv([sent]).split('\r\n')[1]!, '1_3');
    expect(syntax).toEqual([]);
    expect(row.causaleVersamento).toBe(
      'Quota Marzo 2026 Assistenza domiciliare - Rossi Maria (RSSMRA85C52H501N) - bando Nido "Il Girasole"',
    );
    expect(row.indirizzoPagatore).toBe('Via "Roma"; scala B');
    expect(Object.fromEntries(MYPAY_CSV_COLUMNS.map((c) => [c, row[c]]))).toEqual({
      ...sent,
      tipoIdentificativoUnivoco: 'F',
    });
  });

  it('holds back a text with an odd number of quotes, which MyPay cannot split right', () => {
    expect(
      heldBackReasons(mypayCsvRow(position(), { ...payer, address: 'Via 5" pollici' }, call, mypayConfiguration)),
    ).toEqual(['il campo indirizzo contiene un numero dispari di virgolette ("), che MyPay non sa leggere']);
  });

  it('sends a payer of MB, BT or SU without the province, which MyPay’s own table lacks (mypay4-db provincia.csv), and MyPay takes the row', () => {
    for (const province of ['mb', 'BT', 'SU']) {
      const row = mypayCsvRow(position(), { ...payer, country: province, city: 'Monza' }, call, mypayConfiguration);
      expect(row.provinciaPagatore).toBe('');
      expect(heldBackReasons(row)).toEqual([]);
      expect(
        validateRow(readImportLine(mypayCsv([row]).split('\r\n')[1]!, '1_3').row, undefined, DEFAULT_ENTITY),
      ).toBeNull();
    }
    // What today's file carried: MyPay refuses it.
    expect(
      validateRow(
        {
          ...readImportLine(
            mypayCsv([mypayCsvRow(position(), payer, call, mypayConfiguration)]).split('\r\n')[1]!,
            '1_3',
          ).row,
          provinciaPagatore: 'MB',
        },
        undefined,
        DEFAULT_ENTITY,
      )?.code,
    ).toBe('|PAA_IMPORT_SINTASSI_CSV_PROV');
    // Abroad, the province is the payer's own (MyPay checks it only for IT).
    expect(
      mypayCsvRow(position(), { ...payer, country: 'MB', nation: 'CH' }, call, mypayConfiguration).provinciaPagatore,
    ).toBe('MB');
  });

  it('holds back a past due date where the tipo dovuto requires one (insert_mygov_dovuto: PAA_IMPORT_DATA_SCADENZA_PAGAMENTO_OBBLIGATORIA); the due day itself goes', () => {
    const row = mypayCsvRow(position(), payer, call, mypayConfiguration); // due 2026-03-31
    const rules = { dueDateRequired: true, applicationCode: '01' };
    expect(heldBackReasons(row, { ...rules, today: '2026-04-01' })).toEqual([
      'la scadenza 31/03/2026 è già passata: MyPay non accetta una scadenza passata per questo tipo dovuto (scadenza obbligatoria)',
    ]);
    expect(heldBackReasons(row, { ...rules, today: '2026-03-31' })).toEqual([]);
    expect(heldBackReasons(row, { ...rules, dueDateRequired: false, today: '2026-04-01' })).toEqual([]);
    // A cancellation is not refused for its date.
    const cancel = mypayCsvRow(
      position(6643, {
        codIuv: '01000000000000113',
        azione: 'A',
        annullato: true,
        importoDovuto: 0,
        importoAnnullato: 6643,
      }),
      payer,
      call,
      mypayConfiguration,
    );
    expect(heldBackReasons(cancel, { ...rules, today: '2026-04-01' })).toEqual([]);
    // The simulator refuses it as MyPay does.
    const entity = { ...DEFAULT_ENTITY, scadenzaObbligatoria: ['SERVIZI_SOCIALI'] };
    expect(validateRow(readImportLine(mypayCsv([row]).split('\r\n')[1]!, '1_3').row, undefined, entity)?.code).toBe(
      'PAA_IMPORT_DATA_SCADENZA_PAGAMENTO_OBBLIGATORIA',
    );
  });

  it('sends the IUV of a known position and never asks MyPay for another; a cancel row is A with the amount MyPay holds', () => {
    const exported = position(6643, {
      codIuv: '01000000001234519',
      exportedAt: '2026-03-11T08:00:00.000Z',
      azione: 'I',
      statoExport: 'ESPORTATA',
    });
    const cancelled = withAmount(exported, 0, {}, '2026-03-20T10:00:00.000Z').after;
    expect(cancelled).toMatchObject({ importoDovuto: 0, annullato: true, azione: 'A' });
    const row = mypayCsvRow(cancelled, payer, call, mypayConfiguration);
    expect([row.codIuv, row.azione, row.importoDovuto]).toEqual(['01000000001234519', 'A', '66.43']);
    expect(row.bilancio).toContain('<importo>66.43</importo>');
    expect(heldBackReasons(row)).toEqual([]);
    // MyPay4 reads it as a valid cancellation of the position it holds (the simulator follows validaElabora).
    const entity = { ...DEFAULT_ENTITY, applicationCode: '01' };
    const line = mypayCsv([row]).split('\r\n')[1]!;
    expect(
      validateRow(readImportLine(line, '1_3').row, { iuv: '01000000001234519', status: 'DA_PAGARE' } as never, entity),
    ).toBeNull();
    // The 0.00 row sent before: MyPay4 refuses it (PAA_IMPORT_SINTASSI_CSV_IMPORTO), so the portal holds back a
    // cancellation whose amount it never kept, saying what the office does instead.
    const legacy = mypayCsvRow({ ...cancelled, importoAnnullato: undefined }, payer, call, mypayConfiguration);
    expect(legacy.importoDovuto).toBe('0.00');
    expect(
      validateRow(
        readImportLine(mypayCsv([legacy]).split('\r\n')[1]!, '1_3').row,
        { iuv: '01000000001234519', status: 'DA_PAGARE' } as never,
        entity,
      )?.code,
    ).toContain('PAA_IMPORT_SINTASSI_CSV_IMPORTO');
    expect(heldBackReasons(legacy)).toEqual([heldBackMessages.zeroAmount]);
  });

  it('sends an IUV MyPay generated back with flagGeneraIuv=true: with false MyPay4 refuses it (Utilities.validaIUV)', () => {
    // An entity whose application code differs from its segregation code, as MyPay4 holds both.
    const entity = { ...DEFAULT_ENTITY, segregationCode: '01', applicationCode: '02' };
    const iuv = mypayIuv('01', 7);
    const change = mypayCsvRow(position(7000, { codIuv: iuv, azione: 'M' }), payer, call, mypayConfiguration);
    expect([change.codIuv, change.flagGeneraIuv, change.azione]).toEqual([iuv, 'true', 'M']);
    expect(heldBackReasons(change, { today: '2026-03-10', dueDateRequired: false, applicationCode: '02' })).toEqual([]);
    const held = { iuv, status: 'DA_PAGARE' } as never;
    const line = mypayCsv([change]).split('\r\n')[1]!;
    expect(validateRow(readImportLine(line, '1_3').row, held, entity)).toBeNull();
    // The row today's code wrote: the same IUV with false, refused.
    expect(validateRow({ ...readImportLine(line, '1_3').row, flagGeneraIuv: 'false' }, held, entity)?.code).toBe(
      '|PAA_IMPORT_SINTASSI_CSV_IUV',
    );
    // MyPay's own IUVs are refused with false even where the two codes agree (digits 3-4 are its "00").
    expect(validaIuv(iuv, false, '01')).toBe(false);
  });

  it('checks an IUV made elsewhere (flagGeneraIuv=false) against the entity’s application code before sending', () => {
    const own = (codIuv: string, applicationCode: string | null) =>
      heldBackReasons(mypayCsvRow(position(7000, { codIuv, azione: 'M' }), payer, call, mypayConfiguration), {
        today: '2026-03-10',
        dueDateRequired: false,
        applicationCode,
      });
    const base = `02${'5'.repeat(13)}`;
    const valid = base + checkDigits(`3${base}`);
    expect(
      mypayCsvRow(position(7000, { codIuv: valid, azione: 'M' }), payer, call, mypayConfiguration).flagGeneraIuv,
    ).toBe('false');
    expect(own(valid, '02')).toEqual([]);
    expect(own(valid, '07')).toEqual([
      `lo IUV ${valid} non inizia con il codice applicativo 07 dell’ente: MyPay non lo accetta come IUV dell’ente`,
    ]);
    expect(own(valid, null)).toEqual([
      `lo IUV ${valid} non è stato generato da MyPay e il codice applicativo dell’ente non è configurato (MYPAY_APPLICATION_CODE)`,
    ]);
    // The simulator follows the same rule (Utilities.validaIUV).
    expect(validaIuv(valid, false, '02')).toBe(true);
    expect(validaIuv(valid, false, '07')).toBe(false);
  });

  it('cuts the payer name at 70 characters and formats cents', () => {
    const row = mypayCsvRow(
      position(),
      { ...payer, lastName: 'X'.repeat(60), firstName: 'Y'.repeat(30) },
      call,
      mypayConfiguration,
    );
    expect(row.anagraficaPagatore).toHaveLength(70);
    expect([centsToDecimal(5), centsToDecimal(100), centsToDecimal(123456)]).toEqual(['0.05', '1.00', '1234.56']);
  });

  it('escapes XML in the bilancio', () => {
    expect(bilancioXml({ ...call, codCapitolo: 'A&B<1>' }, '', 100)).toBe(
      '<bilancio><capitolo><codCapitolo>A&amp;B&lt;1&gt;</codCapitolo><accertamento><codAccertamento>ACC-2026-01</codAccertamento><importo>1.00</importo></accertamento></capitolo></bilancio>',
    );
  });

  it('refuses, naming row and field in Italian, what MyPay would refuse', () => {
    const bad = [
      mypayCsvRow(position(), { ...payer, country: 'Roma', cap: '1'.repeat(17) }, call, mypayConfiguration),
      mypayCsvRow(position(), payer, call, { ...mypayConfiguration, flgGeneraIuv: false }),
    ];
    let error: unknown;
    try {
      mypayCsv(bad);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const text = (error as Error).message;
    expect(text).toContain('Riga 1, campo capPagatore: supera i 16 caratteri');
    expect(text).toContain('Riga 1, campo provinciaPagatore: supera i 2 caratteri');
    expect(text).toContain('Riga 2, campo codIuv: è obbligatorio');
    expect(text).toContain('Riga 2, campo IUD: non ha il formato richiesto'); // the same IUD twice
  });

  it('holds back, with an Italian reason, a row MyPay would refuse for the citizen’s data (ImportFlussoTaskService.java, Utilities.java)', () => {
    const reasons = (changes: Partial<Payer>, position_ = position()) =>
      heldBackReasons(mypayCsvRow(position_, { ...payer, ...changes }, call, mypayConfiguration));
    expect(reasons({})).toEqual([]);
    // A foreign postcode with letters, an ASCII civic number with a slash, a province of a foreign country: MyPay takes them.
    expect(reasons({ cap: 'SW1A1AA', addressNumber: '12/B bis', country: 'ZZ', nation: 'GB' })).toEqual([]);
    expect(reasons({ cap: '00184-1' })).toEqual([
      'il CAP “00184-1” non è accettato da MyPay (solo lettere e cifre, al massimo 16)',
    ]);
    expect(reasons({ addressNumber: '12°' })).toEqual([
      'il numero civico “12°” non è accettato da MyPay (solo caratteri senza accenti né simboli speciali, al massimo 16)',
    ]);
    expect(reasons({ country: 'XX' })).toEqual(['la provincia “XX” non è una sigla conosciuta da MyPay']);
    expect(reasons({ nation: 'QQ' })).toEqual(['la nazione “QQ” non è un codice conosciuto da MyPay']);
    expect(reasons({ email: 'maria rossi@example.it' })).toEqual([
      'l’e-mail “maria rossi@example.it” non è accettata da MyPay',
    ]);
    expect(reasons({ city: 'X'.repeat(36) })).toEqual(['il campo località supera i 35 caratteri accettati da MyPay']);
  });

  it('holds back a row with a text cell a spreadsheet would run (OWASP CSV injection), naming the field', () => {
    const reasons = (changes: Partial<Payer>) =>
      heldBackReasons(mypayCsvRow(position(), { ...payer, ...changes }, call, mypayConfiguration));
    expect(reasons({ address: '=HYPERLINK("http://evil.example","x")' })).toEqual([
      'il campo indirizzo inizia con =, +, -, @, una tabulazione o un a capo',
    ]);
    expect(reasons({ city: '+SUM(1,1)' })).toEqual([
      'il campo località inizia con =, +, -, @, una tabulazione o un a capo',
    ]);
    expect(reasons({ lastName: '@SUM(1,1)' })).toEqual([
      'il campo cognome e nome inizia con =, +, -, @, una tabulazione o un a capo',
    ]);
    expect(reasons({ email: '=2+5+cmd@example.it' })).toContain(
      'il campo e-mail inizia con =, +, -, @, una tabulazione o un a capo',
    );
    expect(
      heldBackReasons(
        mypayCsvRow(position(6643, { descrizione: "-1+1+cmd|' /C calc'!A0" }), payer, call, mypayConfiguration),
      ),
    ).toEqual(['il campo causale inizia con =, +, -, @, una tabulazione o un a capo']);
  });

  it('an empty month is the header alone', () => {
    expect(mypayCsv([])).toBe(`${MYPAY_CSV_COLUMNS.join(';')}\r\n`);
  });
});

describe('MyPay ZIP', () => {
  it('is named <codIPA>-<IUF>-<version>.zip, holds the CSV named as the ZIP, and carries the MD5 of its bytes', () => {
    const csv = mypayCsv([mypayCsvRow(position(), payer, call, mypayConfiguration)]);
    const zipName = flowFileName('c_h501', 'SERVIZI_SOCIALI_202603_1');
    expect(zipName).toBe('c_h501-SERVIZI_SOCIALI_202603_1-1_3.zip');
    const zip = mypayImportZip(zipName, strToU8(csv));
    expect(zip.md5).toBe(createHash('md5').update(zip.bytes).digest('hex'));
    const entries = unzipSync(zip.bytes);
    expect(Object.keys(entries)).toEqual(['c_h501-SERVIZI_SOCIALI_202603_1-1_3.csv']);
    expect(new TextDecoder().decode(entries['c_h501-SERVIZI_SOCIALI_202603_1-1_3.csv'])).toBe(csv);
  });
});

describe('configuration schema (part 2 §5: all eight required)', () => {
  it('accepts a complete configuration', () => {
    expect(configurationSchema.parse(mypayConfiguration)).toEqual(mypayConfiguration);
  });

  it('says "Il campo non può essere vuoto!" for every empty field and checks the fixed values', () => {
    const empty = configurationSchema.safeParse({
      azione: '',
      codUfficio: ' ',
      codeConfig: '',
      tipoDovuto: '',
      tipoIdentificativoUnivoco: '',
      datiSpecificiRiscossione: '',
      tipoVersamento: '',
    });
    const byField = Object.fromEntries(empty.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(Object.keys(byField).sort()).toEqual([...Object.keys(mypayConfiguration)].sort());
    expect(new Set(Object.values(byField))).toEqual(new Set(['Il campo non può essere vuoto!']));

    const wrong = configurationSchema.safeParse({
      ...mypayConfiguration,
      azione: 'X',
      tipoIdentificativoUnivoco: 'P',
      datiSpecificiRiscossione: 'x'.repeat(141),
      tipoDovuto: 'x'.repeat(65),
    });
    expect(Object.fromEntries(wrong.error!.issues.map((issue) => [issue.path[0], issue.message]))).toEqual({
      azione: 'L’azione deve essere I (inserimento), M (modifica) o A (annullamento).',
      tipoIdentificativoUnivoco: 'Il tipo identificativo deve essere F (persona fisica) o G (persona giuridica).',
      datiSpecificiRiscossione: 'Il campo può contenere al massimo 140 caratteri.',
      tipoDovuto: 'Il campo può contenere al massimo 64 caratteri.',
    });
  });

  it('lists what is missing from a stored configuration', () => {
    expect(checkConfiguration(null)).toMatchObject({ ok: false });
    expect(checkConfiguration({ ...mypayConfiguration, tipoDovuto: '' })).toEqual({
      ok: false,
      missing: ['tipoDovuto'],
    });
  });

  it('the export reads a stored configuration as the form and the API check it (the same fields refused, the same values trimmed)', () => {
    const candidates: Record<string, unknown>[] = [
      mypayConfiguration,
      { ...mypayConfiguration, codUfficio: '  UFF1  ', azione: ' M ' },
      { ...mypayConfiguration, azione: 'X', tipoIdentificativoUnivoco: 'P' },
      { ...mypayConfiguration, datiSpecificiRiscossione: 'x'.repeat(141), tipoDovuto: 'x'.repeat(64) },
      { ...mypayConfiguration, flgGeneraIuv: 'true', tipoVersamento: '   ' },
      { ...mypayConfiguration, codeConfig: 12 },
      {},
    ];
    for (const candidate of candidates) {
      const schema = configurationSchema.safeParse(candidate);
      const checked = checkConfiguration(candidate);
      if (schema.success) expect(checked).toEqual({ ok: true, configuration: schema.data });
      else {
        expect(checked.ok).toBe(false);
        const refused = new Set(schema.error.issues.map((issue) => issue.path[0]));
        expect(new Set(checked.ok ? [] : checked.missing)).toEqual(refused);
      }
    }
  });
});
