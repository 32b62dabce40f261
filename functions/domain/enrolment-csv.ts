import { dsvFormat } from 'd3-dsv';
import { ValidationError } from './errors.ts';
import { isValidFiscalCode } from './fiscal-code.ts';
import { fill } from './messages.ts';
import { formatHours } from './fee.ts';
import { formatEuroCents, hasAtMostTwoDecimals, parseEuroToCents } from './money.ts';
import { validatedIsee } from './latest-isee.ts';
import { normaliseSearchText } from './users.ts';
import { neutraliseCell, startsLikeFormula } from './spreadsheet-cells.ts';
import {
  ENROLMENT_CSV_COLUMNS,
  enrolmentMessages,
  ENROLMENT_CSV_CONTENT_TYPES,
  MAX_IMPORT_ROWS,
  MAX_RANKING_SCORE,
  MAX_WEEKLY_HOURS,
  type ImportPreview,
  type ImportRow,
} from './enrolment.ts';
import type { SubscriptionState } from './subscriptions.ts';
import { romeYear } from './period.ts';

/**
 * The enrolment CSV (design §4): one format for the template, the export and the import. Written and read
 * with d3-dsv (quoted fields, `;` or `,`; ~3 KB where papaparse was ~21 KB of the function's bundle), as
 * Excel with Italian settings writes and reads it: UTF-8 with BOM, `;`, decimal comma, CRLF.
 */

const BOM = '\uFEFF';
type Column = (typeof ENROLMENT_CSV_COLUMNS)[number];

/** The file a spreadsheet opens: BOM, header, one line per row, CRLF. */
export function enrolmentCsv(rows: (string | number | null)[][]): string {
  const lines = [[...ENROLMENT_CSV_COLUMNS], ...rows].map((row) => row.map(csvCell).join(';'));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

const semicolonCsv = dsvFormat(';');
/** Quoted only where needed; a text a spreadsheet would run as a formula is written as text ('…); numbers as they are. */
const csvCell = (cell: string | number | null) =>
  cell === null ? '' : typeof cell === 'number' ? String(cell) : semicolonCsv.formatValue(neutraliseCell(cell));

/** A file name a Windows or macOS file system accepts, from a call's name. */
export const csvFileName = (name: string): string =>
  `${
    name
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, '') || 'iscrizioni'
  }.csv`;

/** The content types accepted for the import (parameters such as charset ignored). */
export function isCsvContentType(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return (ENROLMENT_CSV_CONTENT_TYPES as readonly string[]).includes(type);
}

/** Control characters no text file holds (tab, line feed, form feed and carriage return are text). */
const BINARY = /[\u0000-\u0008\u000e-\u001f]/;

/**
 * UTF-8 (with or without BOM) when the bytes are valid UTF-8, UTF-16 with its BOM (Excel's "Unicode text"),
 * Windows-1252 otherwise (Excel's "CSV" on Windows). A binary file (an .xlsx, which is a ZIP, an old .xls,
 * a PDF, an image) is refused as such, not read as a CSV without columns.
 */
export function decodeCsv(bytes: Uint8Array): string {
  let text: string;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    text = new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes);
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  if (BINARY.test(text)) throw new ValidationError(enrolmentMessages.binaryFile);
  return text.startsWith(BOM) ? text.slice(1) : text;
}

export interface CsvRow {
  line: number;
  fiscalCode: string;
  lastName: string;
  firstName: string;
  rankingScore: number | null;
  weeklyHour: number | null;
  iseeValueCents: number | null;
  iseeYear: number | null;
}

export interface Rejection {
  line: number;
  fiscalCode: string | null;
  reason: string;
}

export interface ParsedCsv {
  rows: CsvRow[];
  rejected: Rejection[];
  /** Every fiscal code the file names in a well-formed way, rejected rows included: removal spares them. */
  named: Set<string>;
}

const headerKey = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
/** The header as the operator wrote it, for the message naming the columns found (cut, in case it is not a header at all). */
const foundColumns = (cells: string[]) => {
  const found = cells.map((cell) => cell.replace(/^\uFEFF/, '').trim()).join(';');
  return found.length > 200 ? `${found.slice(0, 200)}…` : found;
};

/**
 * Reads the import file: the header names its columns (any case, any order; every column of the template
 * required, others ignored), each other non-blank line is a row. A row with a bad value is rejected with its line number and an Italian
 * reason; a fiscal code seen twice keeps its first row. A file that is not a CSV at all is a 400.
 */
export function parseEnrolmentCsv(text: string, now: Date): ParsedCsv {
  const firstLine = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  const delimiter = firstLine.includes(';') || !firstLine.includes(',') ? ';' : ',';
  const records: { cells: string[]; line: number }[] = [];
  let failure: string | null = null;
  // One row per line: none of the columns holds a line break, so a cell with one is a quote left open
  // (it runs on to the end of the file) or a spreadsheet cell written on two lines; either way the file is refused.
  for (const cells of dsvFormat(delimiter).parseRows(text)) {
    const line = records.length + 1;
    if (cells.some((cell) => /[\r\n]/.test(cell))) {
      failure = `virgolette non chiuse o a capo dentro un campo alla riga ${line}`;
      break;
    }
    if (records.length > MAX_IMPORT_ROWS + 1) {
      failure = 'tooMany';
      break;
    }
    records.push({ cells, line });
  }
  if (failure === 'tooMany') throw new ValidationError(fill(enrolmentMessages.tooManyRows, { max: MAX_IMPORT_ROWS }));
  if (failure) throw new ValidationError(fill(enrolmentMessages.notCsv, { reason: failure }));

  const nonBlank = records.filter((record) => record.cells.some((cell) => cell.trim() !== ''));
  const header = nonBlank.shift();
  const columnIndex = new Map<Column, number>();
  for (const column of ENROLMENT_CSV_COLUMNS) {
    const index = header ? header.cells.findIndex((cell) => headerKey(cell) === column.toLowerCase()) : -1;
    if (index >= 0) columnIndex.set(column, index);
  }
  // A column left out would silently change nothing (an empty cell keeps the value): the file is refused instead.
  const missing = ENROLMENT_CSV_COLUMNS.filter((column) => !columnIndex.has(column));
  if (missing.length) {
    throw new ValidationError(
      fill(enrolmentMessages.missingColumns, {
        expected: ENROLMENT_CSV_COLUMNS.join(';'),
        found: header ? foundColumns(header.cells) : enrolmentMessages.noColumns,
        missing: missing.join(', '),
      }),
    );
  }
  const cell = (cells: string[], column: Column) => {
    const index = columnIndex.get(column);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };

  const rows: CsvRow[] = [];
  const rejected: Rejection[] = [];
  const named = new Set<string>();
  const firstLineOf = new Map<string, number>();
  const currentYear = romeYear(now);
  for (const { cells, line } of nonBlank) {
    const raw = cell(cells, 'codiceFiscale');
    const fiscalCode = raw.toUpperCase().replace(/\s/g, '');
    const reject = (template: string, value: string, extra: Record<string, string | number> = {}) =>
      rejected.push({
        line,
        fiscalCode: isValidFiscalCode(fiscalCode) ? fiscalCode : raw || null,
        reason: fill(template, { line, value, ...extra }),
      });
    if (!isValidFiscalCode(fiscalCode)) {
      reject(enrolmentMessages.rowFiscalCode, raw);
      continue;
    }
    named.add(fiscalCode);
    const first = firstLineOf.get(fiscalCode);
    if (first !== undefined) {
      reject(enrolmentMessages.rowDuplicate, fiscalCode, { first });
      continue;
    }
    firstLineOf.set(fiscalCode, line);

    const scoreText = cell(cells, 'punteggio');
    const rankingScore = scoreText === '' ? null : /^[+-]?\d+$/.test(scoreText) ? Number(scoreText) : Number.NaN;
    if (Number.isNaN(rankingScore) || (rankingScore !== null && Math.abs(rankingScore) > MAX_RANKING_SCORE)) {
      reject(enrolmentMessages.rowScore, scoreText);
      continue;
    }
    const hoursText = cell(cells, 'oreSettimanali');
    const weeklyHour =
      hoursText === '' ? null : /^\d+([.,]\d+)?$/.test(hoursText) ? Number(hoursText.replace(',', '.')) : Number.NaN;
    if (
      Number.isNaN(weeklyHour) ||
      (weeklyHour !== null && (weeklyHour <= 0 || weeklyHour > MAX_WEEKLY_HOURS || !hasAtMostTwoDecimals(weeklyHour)))
    ) {
      reject(enrolmentMessages.rowHours, hoursText);
      continue;
    }
    const valueText = cell(cells, 'valoreIsee');
    const iseeValueCents = valueText === '' ? null : parseEuroToCents(valueText);
    if (Number.isNaN(iseeValueCents)) {
      reject(enrolmentMessages.rowIseeValue, valueText);
      continue;
    }
    const yearText = cell(cells, 'annoIsee');
    const iseeYear =
      yearText === ''
        ? null
        : /^\d{4}$/.test(yearText) && Number(yearText) >= 1900 && Number(yearText) <= currentYear + 1
          ? Number(yearText)
          : Number.NaN;
    if (Number.isNaN(iseeYear)) {
      reject(enrolmentMessages.rowIseeYear, yearText);
      continue;
    }
    if ((iseeValueCents === null) !== (iseeYear === null)) {
      reject(enrolmentMessages.rowIseeIncomplete, '');
      continue;
    }
    const names = [cell(cells, 'cognome'), cell(cells, 'nome')];
    const formula = names.find(startsLikeFormula);
    if (formula !== undefined) {
      reject(enrolmentMessages.rowFormula, formula);
      continue;
    }
    rows.push({
      line,
      fiscalCode,
      lastName: names[0]!,
      firstName: names[1]!,
      rankingScore,
      weeklyHour,
      iseeValueCents,
      iseeYear,
    });
  }
  return { rows, rejected, named };
}

// --- the plan: what an import changes ----------------------------------------------------------------

export interface ImportUser {
  id: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  /** The user's newest ISEE (it is the latest validated one when its state is VALIDATED). */
  lastIsee?: { valueCents: number; year: number; state: string } | null;
}

export interface ImportSubscription {
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  state: SubscriptionState;
  rankingScore: number | null;
  weeklyHour: number | null;
  iseeValueCents?: number | null;
  iseeYear?: number | null;
}

export interface ImportAction {
  kind: 'add' | 'update' | 'remove';
  userId: string;
  row: ImportRow;
  /** add: the new state (VALIDATED when hours are given, ADDED otherwise). */
  state?: SubscriptionState;
  rankingScore?: number | null;
  weeklyHour?: number | null;
  /** A new VALIDATED ISEE to record first (updateIsees). */
  isee?: { valueCents: number; year: number } | null;
}

/**
 * What importing the file would do (design §4), before anything is written: the operator sees it as a
 * preview, and applying performs exactly these actions. A file applied twice plans nothing the second time.
 */
export function planImport(
  parsed: ParsedCsv,
  usersByFiscalCode: ReadonlyMap<string, ImportUser>,
  existing: readonly ImportSubscription[],
  options: { updateIsees: boolean; removeOldSubscriptions: boolean },
): { preview: ImportPreview; actions: ImportAction[] } {
  const rejected = [...parsed.rejected];
  const byUser = new Map(existing.map((subscription) => [subscription.userId, subscription]));
  const actions: ImportAction[] = [];
  const preview: ImportPreview = {
    add: [],
    update: [],
    remove: [],
    unchanged: 0,
    rejected: [],
    differentNames: [],
    applied: false,
    previewId: null,
  };
  const inFile = new Set<string>();

  for (const row of parsed.rows) {
    const user = usersByFiscalCode.get(row.fiscalCode);
    if (!user) {
      rejected.push({
        line: row.line,
        fiscalCode: row.fiscalCode,
        reason: fill(enrolmentMessages.rowUnknownCitizen, { line: row.line, value: row.fiscalCode }),
      });
      continue;
    }
    inFile.add(user.id);
    // The registry's names are kept: a file that spells them otherwise is said so, not silently overruled.
    const named = (file: string, registered: string) =>
      file !== '' && normaliseSearchText(file) !== normaliseSearchText(registered);
    if (named(row.lastName, user.lastName) || named(row.firstName, user.firstName)) {
      preview.differentNames.push({
        line: row.line,
        fiscalCode: row.fiscalCode,
        inFile: `${row.lastName} ${row.firstName}`.trim(),
        registered: `${user.lastName} ${user.firstName}`,
      });
    }
    const changes: string[] = [];
    const validated = validatedIsee(user.lastIsee);
    const newIsee =
      options.updateIsees &&
      row.iseeValueCents !== null &&
      row.iseeYear !== null &&
      (!validated || validated.valueCents !== row.iseeValueCents || validated.year !== row.iseeYear)
        ? { valueCents: row.iseeValueCents, year: row.iseeYear }
        : null;
    if (newIsee) changes.push(`nuovo ISEE ${formatEuroCents(newIsee.valueCents)} (${newIsee.year})`);
    const importRow: ImportRow = {
      fiscalCode: row.fiscalCode,
      lastName: user.lastName,
      firstName: user.firstName,
      rankingScore: row.rankingScore,
      weeklyHour: row.weeklyHour,
      iseeValueCents: row.iseeValueCents,
      iseeYear: row.iseeYear,
      changes,
    };
    const current = byUser.get(user.id);
    if (!current) {
      const state: SubscriptionState = row.weeklyHour !== null ? 'VALIDATED' : 'ADDED';
      changes.unshift(
        state === 'VALIDATED'
          ? `nuova iscrizione approvata, ${formatHours(row.weeklyHour)} ${row.weeklyHour === 1 ? 'ora' : 'ore'}`
          : 'nuova iscrizione (richiesta inserita)',
      );
      if (row.rankingScore !== null) changes.push(`punteggio ${row.rankingScore}`);
      preview.add.push(importRow);
      actions.push({
        kind: 'add',
        userId: user.id,
        row: importRow,
        state,
        rankingScore: row.rankingScore,
        weeklyHour: row.weeklyHour,
        isee: newIsee,
      });
      continue;
    }
    // An empty cell leaves the value as it is.
    const rankingScore =
      row.rankingScore !== null && row.rankingScore !== current.rankingScore ? row.rankingScore : undefined;
    const weeklyHour = row.weeklyHour !== null && row.weeklyHour !== current.weeklyHour ? row.weeklyHour : undefined;
    if (rankingScore !== undefined) changes.push(`punteggio ${current.rankingScore ?? '—'} → ${rankingScore}`);
    if (weeklyHour !== undefined) changes.push(`ore ${formatHours(current.weeklyHour)} → ${formatHours(weeklyHour)}`);
    if (!changes.length) {
      preview.unchanged += 1;
      continue;
    }
    preview.update.push(importRow);
    actions.push({ kind: 'update', userId: user.id, row: importRow, rankingScore, weeklyHour, isee: newIsee });
  }

  if (options.removeOldSubscriptions) {
    // A citizen the file names, even on a rejected row, keeps the subscription.
    const spared = new Set([...parsed.named].map((code) => usersByFiscalCode.get(code)?.id).filter(Boolean));
    for (const subscription of existing) {
      if (inFile.has(subscription.userId) || spared.has(subscription.userId)) continue;
      const {
        fiscalCode,
        lastName,
        firstName,
        rankingScore,
        weeklyHour,
        iseeValueCents = null,
        iseeYear = null,
      } = subscription;
      const changes = ['iscrizione rimossa: il cittadino non è nel file'];
      const row: ImportRow = {
        fiscalCode,
        lastName,
        firstName,
        rankingScore,
        weeklyHour,
        iseeValueCents,
        iseeYear,
        changes,
      };
      preview.remove.push(row);
      actions.push({ kind: 'remove', userId: subscription.userId, row });
    }
  }
  preview.rejected = rejected.sort((a, b) => a.line - b.line);
  return { preview, actions };
}
