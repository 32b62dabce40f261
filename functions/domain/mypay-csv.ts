import { dsvFormat } from 'd3-dsv';
import { MYPAY_CSV_COLUMNS, type MyPayCsvColumn, type MyPayCsvRow } from './mypay-csv-format.ts';
import type { Configuration } from './configuration.ts';
import type { PositionRecord } from './debt-positions.ts';
import { ValidationError } from './errors.ts';
import { fill, messages } from './messages.ts';
import { entityIuvProblem, isMyPayGeneratedIuv } from './iuv.ts';
import { centsToDecimal } from './money.ts';
import { COUNTRY_CODES, PROVINCE_CODES } from './place-codes.ts';
import { neutraliseCell, startsLikeFormula } from './spreadsheet-cells.ts';
import type { Skipped } from './payments.ts';
import type { PostalAddress } from './user-rules.ts';

export { MYPAY_CSV_COLUMNS, type MyPayCsvColumn, type MyPayCsvRow };

/**
 * Length limits: MyPay's (reference.md) where it states them; the payer's address fields use pagoPA's
 * RPT limits (indirizzo 70, civico 16, CAP 16, località 35, provincia and nazione 2, e-mail 256).
 * The payer's name and the causale are built here and cut to their limit; everything else too long is
 * an error naming the row and the field, so the operator can fix the data.
 */
export const MYPAY_CSV_LIMITS: Partial<Record<MyPayCsvColumn, number>> = {
  IUD: 35,
  codIuv: 35,
  codiceIdentificativoUnivoco: 35,
  anagraficaPagatore: 70,
  indirizzoPagatore: 70,
  civicoPagatore: 16,
  capPagatore: 16,
  localitaPagatore: 35,
  provinciaPagatore: 2,
  nazionePagatore: 2,
  mailPagatore: 256,
  tipoDovuto: 64,
  tipoVersamento: 32,
  causaleVersamento: 1024,
  datiSpecificiRiscossione: 140,
};

const REQUIRED: readonly MyPayCsvColumn[] = [
  'IUD',
  'tipoIdentificativoUnivoco',
  'codiceIdentificativoUnivoco',
  'anagraficaPagatore',
  'dataEsecuzionePagamento',
  'importoDovuto',
  'tipoDovuto',
  'tipoVersamento',
  'causaleVersamento',
  'datiSpecificiRiscossione',
  'flagGeneraIuv',
  'azione',
];

/** The payer's own fields are MyPay's rules, checked by heldBackReasons (a row held back, not the whole file). */
const FORMATS: Partial<Record<MyPayCsvColumn, RegExp>> = {
  tipoIdentificativoUnivoco: /^[FG]$/,
  dataEsecuzionePagamento: /^\d{4}-\d{2}-\d{2}$/,
  importoDovuto: /^\d+\.\d{2}$/,
  flagGeneraIuv: /^(true|false)$/,
  azione: /^[IMA]$/,
};

/** The payer as the user record holds it (functions/users). */
export interface Payer extends PostalAddress {
  fiscalCode: string;
  firstName: string;
  lastName: string;
  email?: string | null;
}

/** The call's accounting codes (bilancio) and its name on MyPay. */
export interface CsvCall {
  codCapitolo: string;
  codAccertamento: string;
  nomeMyPay: string;
}

const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** The `bilancio` XML: one chapter (codCapitolo, codUfficio) with one assessment carrying the whole amount. */
export const bilancioXml = (call: CsvCall, codUfficio: string, cents: number) =>
  `<bilancio><capitolo><codCapitolo>${xml(call.codCapitolo)}</codCapitolo>` +
  (codUfficio ? `<codUfficio>${xml(codUfficio)}</codUfficio>` : '') +
  `<accertamento><codAccertamento>${xml(call.codAccertamento)}</codAccertamento><importo>${centsToDecimal(cents)}</importo></accertamento></capitolo></bilancio>`;

const oneLine = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Provinces MyPay4's own table lacks (mypay4-db lookup_table/provincia.csv, the seed of mygov_provincia: no MB,
 * BT, SU). MyPay checks the payer's province only when one is given (ImportFlussoTaskService.validaElabora,
 * PROVINCIA PAGATORE), and it is optional for MyPay and pagoPA: the row goes with the province left empty, so
 * the citizen can pay, rather than being refused (PAA_IMPORT_SINTASSI_CSV_PROV) or held back.
 */
export const PROVINCES_MYPAY_LACKS: ReadonlySet<string> = new Set(['MB', 'BT', 'SU']);

/**
 * The entity's settings on MyPay the rows depend on and no MyPay operation tells (README, "MyPay: what the
 * portal assumes"): whether the configured tipoDovuto has "scadenza obbligatoria" (mygov_ente_tipo_dovuto
 * .flg_scadenza_obbligatoria; MYPAY_SCADENZA_OBBLIGATORIA) and the entity's application code
 * (MYPAY_APPLICATION_CODE), with today's date in Europe/Rome.
 */
export interface MyPayRowRules {
  today: string;
  dueDateRequired: boolean;
  applicationCode: string | null;
}
const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max).trimEnd() : text);

function provinceForMyPay(payer: Payer): string {
  const province = oneLine(payer.country).toUpperCase();
  const nation = (oneLine(payer.nation) || 'IT').toUpperCase();
  return nation === 'IT' && PROVINCES_MYPAY_LACKS.has(province) ? '' : province;
}

/**
 * The amount a row carries: a cancellation (A) sends the amount the position had, which MyPay holds; MyPay4
 * refuses 0 for every action (ImportFlussoTaskService.validaElabora). A position cancelled before the portal
 * kept that amount has none (0): heldBackReasons holds its row back.
 */
const rowAmount = (position: PositionRecord) =>
  position.annullato ? (position.importoAnnullato ?? 0) : position.importoDovuto;

/**
 * One CSV row. The action is the position's own (I new, M changed, A cancelled: debt-positions.ts); the
 * configuration gives the payer kind, tipoDovuto, tipoVersamento, datiSpecificiRiscossione, codUfficio
 * (in bilancio) and whether MyPay generates the IUV. A position that already has its IUV sends it and
 * never asks for a new one: with flagGeneraIuv=true when MyPay generated it (functions/domain/iuv.ts: MyPay
 * refuses its own IUVs sent with false), with false for one made elsewhere (heldBackReasons checks it).
 */
export function mypayCsvRow(
  position: PositionRecord,
  payer: Payer,
  call: CsvCall,
  configuration: Configuration,
): MyPayCsvRow {
  const amount = rowAmount(position);
  return {
    IUD: position.iud,
    codIuv: position.codIuv ?? '',
    tipoIdentificativoUnivoco: configuration.tipoIdentificativoUnivoco,
    codiceIdentificativoUnivoco: payer.fiscalCode.toUpperCase(),
    anagraficaPagatore: cut(oneLine(`${payer.lastName} ${payer.firstName}`), 70),
    indirizzoPagatore: oneLine(payer.address),
    civicoPagatore: oneLine(payer.addressNumber),
    capPagatore: oneLine(payer.cap),
    localitaPagatore: oneLine(payer.city),
    provinciaPagatore: provinceForMyPay(payer),
    nazionePagatore: (oneLine(payer.nation) || 'IT').toUpperCase(),
    mailPagatore: oneLine(payer.email),
    dataEsecuzionePagamento: position.dataScadenza,
    importoDovuto: centsToDecimal(amount),
    commissioneCaricoPa: '',
    tipoDovuto: configuration.tipoDovuto,
    tipoVersamento: configuration.tipoVersamento,
    causaleVersamento: cut(oneLine(position.descrizione), 1024),
    datiSpecificiRiscossione: configuration.datiSpecificiRiscossione,
    bilancio: bilancioXml(call, configuration.codUfficio, amount),
    flagGeneraIuv: position.codIuv ? String(isMyPayGeneratedIuv(position.codIuv)) : String(configuration.flgGeneraIuv),
    azione: position.azione,
  };
}

/** Every problem of a set of rows, as Italian messages naming the row (1 = first data row) and the field. */
export function csvRowErrors(rows: readonly MyPayCsvRow[]): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const at = (field: string, reason: string) =>
      errors.push(fill(messages.positions.csv, { row: index + 1, field, reason }));
    for (const column of MYPAY_CSV_COLUMNS) {
      const value = row[column];
      if (REQUIRED.includes(column) && !value) at(column, messages.positions.csvRequired);
      const max = MYPAY_CSV_LIMITS[column];
      if (max !== undefined && value.length > max) at(column, fill(messages.positions.csvTooLong, { max }));
      const format = FORMATS[column];
      if (value && format && !format.test(value)) at(column, messages.positions.csvFormat);
    }
    if (row.flagGeneraIuv === 'false' && !row.codIuv) at('codIuv', messages.positions.csvRequired);
    if (seen.has(row.IUD)) at('IUD', messages.positions.csvFormat);
    seen.add(row.IUD);
  });
  return errors;
}

/** The columns that come from the citizen's record, named as the operator knows them. */
const PAYER_FIELDS: Partial<Record<MyPayCsvColumn, string>> = {
  anagraficaPagatore: 'cognome e nome',
  indirizzoPagatore: 'indirizzo',
  civicoPagatore: 'numero civico',
  capPagatore: 'CAP',
  localitaPagatore: 'località',
  provinciaPagatore: 'provincia',
  nazionePagatore: 'nazione',
  mailPagatore: 'e-mail',
};

/** Other columns as the operator knows them (the causale is the position's description; the rest is configuration). */
const FIELD_NAMES: Partial<Record<MyPayCsvColumn, string>> = {
  ...PAYER_FIELDS,
  causaleVersamento: 'causale',
  tipoDovuto: 'tipo dovuto della configurazione',
  tipoVersamento: 'tipo versamento della configurazione',
  datiSpecificiRiscossione: 'dati specifici di riscossione della configurazione',
};

/** MyPay4's e-mail pattern (util/Constants.java EMAIL_PATTERN), stricter than the portal's. */
const MYPAY_EMAIL = /^[a-zA-Z0-9_!#$%&'*+/=?`{|}~^.-]+@[a-zA-Z0-9.-]+$/;
/** Printable ASCII, as MyPay4's Utilities.validaCivicoAnagrafica checks the civic number. */
const ASCII = /^[\x20-\x7e]*$/;

export const heldBackMessages = {
  formula: 'il campo {field} inizia con =, +, -, @, una tabulazione o un a capo',
  cap: 'il CAP “{value}” non è accettato da MyPay (solo lettere e cifre, al massimo 16)',
  civic:
    'il numero civico “{value}” non è accettato da MyPay (solo caratteri senza accenti né simboli speciali, al massimo 16)',
  province: 'la provincia “{value}” non è una sigla conosciuta da MyPay',
  nation: 'la nazione “{value}” non è un codice conosciuto da MyPay',
  email: 'l’e-mail “{value}” non è accettata da MyPay',
  tooLong: 'il campo {field} supera i {max} caratteri accettati da MyPay',
  missing: 'manca il campo {field}',
  pastDueDate:
    'la scadenza {value} è già passata: MyPay non accetta una scadenza passata per questo tipo dovuto (scadenza obbligatoria)',
  quotes: 'il campo {field} contiene un numero dispari di virgolette ("), che MyPay non sa leggere',
  zeroAmount:
    'l’importo è 0,00 €, che MyPay non accetta nemmeno per un annullamento: annullare la posizione dal back office di MyPay',
} as const;

/**
 * Why MyPay would refuse a row for the citizen's data, or why the row must not leave the portal, as Italian
 * reasons for the operator: none when the row can go. MyPay's own checks (ImportFlussoTaskService.java,
 * leggiVerificaRiga and validaElabora; Utilities.java): CAP `^[a-zA-Z0-9]{1,16}$`, civic number printable
 * ASCII, province a known code when the nation is IT, nation a known code, its e-mail pattern, the lengths.
 * A text cell that a spreadsheet would run (=, +, -, @, tab, CR: OWASP CSV injection) is held back too:
 * the file goes to MyPay and to the operator's spreadsheet. The portal cannot know whether MyPay holds
 * the configuration's tipoDovuto as active for the entity (no operation says so): that one comes back in
 * Scartati (PAA_IMPORT_SINTASSI_CSV_TIPO_DOVUTO_NON_ATTIVO_PER_ENTE).
 */
export function heldBackReasons(row: MyPayCsvRow, rules?: MyPayRowRules): string[] {
  const reasons: string[] = [];
  const named = (column: MyPayCsvColumn) => FIELD_NAMES[column] ?? column;
  for (const column of MYPAY_CSV_COLUMNS) {
    if (startsLikeFormula(row[column])) reasons.push(fill(heldBackMessages.formula, { field: named(column) }));
    if ((row[column].match(/"/g)?.length ?? 0) % 2 === 1)
      reasons.push(fill(heldBackMessages.quotes, { field: named(column) }));
  }
  if (!row.anagraficaPagatore) reasons.push(fill(heldBackMessages.missing, { field: named('anagraficaPagatore') }));
  for (const column of Object.keys(PAYER_FIELDS) as MyPayCsvColumn[]) {
    const max = MYPAY_CSV_LIMITS[column]!;
    if (row[column].length > max) reasons.push(fill(heldBackMessages.tooLong, { field: named(column), max }));
  }
  if (/^0+\.00$/.test(row.importoDovuto)) reasons.push(heldBackMessages.zeroAmount);
  const {
    capPagatore: cap,
    civicoPagatore: civic,
    provinciaPagatore: province,
    nazionePagatore: nation,
    mailPagatore: email,
  } = row;
  if (cap && !/^[a-zA-Z0-9]{1,16}$/.test(cap)) reasons.push(fill(heldBackMessages.cap, { value: cap }));
  if (civic && !ASCII.test(civic)) reasons.push(fill(heldBackMessages.civic, { value: civic }));
  if (nation && !COUNTRY_CODES.has(nation)) reasons.push(fill(heldBackMessages.nation, { value: nation }));
  if (province && nation === 'IT' && !PROVINCE_CODES.has(province))
    reasons.push(fill(heldBackMessages.province, { value: province }));
  if (email && !MYPAY_EMAIL.test(email)) reasons.push(fill(heldBackMessages.email, { value: email }));
  // insert_mygov_dovuto / modify_mygov_dovuto (mypay4-db): PAA_IMPORT_DATA_SCADENZA_PAGAMENTO_OBBLIGATORIA when
  // the tipo dovuto requires a due date and it is before today (today itself is accepted).
  const due = row.dataEsecuzionePagamento;
  if (rules?.dueDateRequired && row.azione !== 'A' && due && due < rules.today)
    reasons.push(fill(heldBackMessages.pastDueDate, { value: due.split('-').reverse().join('/') }));
  if (row.codIuv && row.flagGeneraIuv === 'false') {
    const problem = entityIuvProblem(row.codIuv, rules?.applicationCode);
    if (problem) reasons.push(problem);
  }
  return reasons;
}

/**
 * Quoting as MyPay4 reads it, not RFC 4180 (ImportFlussoTaskService.cleanDoubleQuote, lines ~138-149, and the
 * split at ~1670): a line is split on each `;` followed by an even number of quotes, each field trimmed, its
 * outer quotes stripped and `\"` turned into `"` — a doubled `""` would stay doubled. So a value holding `;`
 * or `"` goes quoted with its quotes written `\"`; one with an odd number of quotes cannot be read back at all
 * (heldBackReasons holds its row back). Line breaks never reach here: every text is one line (oneLine).
 */
const csvField = (value: string) => (/[;"]/.test(value) ? `"${value.replace(/"/g, '\\"')}"` : value);

/**
 * The positions held back from a CSV, as a file for the operator beside it ('Verifica / genera CSV'): a month's
 * list can outgrow what the job's item may hold (DynamoDB's 400 KB), so the answer shows the first ones and
 * links this. UTF-8 with BOM, `;`, CRLF, as a spreadsheet with Italian settings opens it; no cell runs as a formula.
 */
export function heldBackCsv(heldBack: readonly Skipped[]): string {
  const cell = (text: string) => heldBackFormat.formatValue(neutraliseCell(text));
  const lines = [
    ['codiceFiscale', 'cognome', 'nome', 'datiDaCorreggere'],
    ...heldBack.map((s) => [s.fiscalCode, s.cognome, s.nome, s.reason]),
  ].map((row) => row.map(cell).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
const heldBackFormat = dsvFormat(';');

/** The CSV text (header + rows); a row that MyPay would refuse is a 400 listing every problem. */
export function mypayCsv(rows: readonly MyPayCsvRow[]): string {
  const errors = csvRowErrors(rows);
  if (errors.length) throw new ValidationError(errors.slice(0, 20).join(' · '), { csv: errors.join('\n') });
  const lines = [
    MYPAY_CSV_COLUMNS.join(';'),
    ...rows.map((row) => MYPAY_CSV_COLUMNS.map((column) => csvField(row[column])).join(';')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
