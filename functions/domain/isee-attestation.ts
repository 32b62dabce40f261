import { fiscalCodeCheckCharacter, fiscalCodePattern } from './fiscal-code.ts';
import type { IseeExtraction } from './isee-extraction.ts';
import type { TextLine } from './text-line.ts';

/**
 * The one parser of INPS ISEE attestations: text lines in, fields out, whichever source produced the
 * lines (the PDF's text layer, tesseract, Textract). Pure: no AWS, no Node.
 *
 * Definitions:
 * - iseeOrdinario: the "ISEE ordinario" (or the plain "Valore ISEE"/"ISEE").
 * - iseeRistretto: the reduced indicator, computed on the restricted household: any ISEE label saying
 *   "ristretto" or "ridotto" (e.g. "ISEE sociosanitario ridotto", "ISEE ristretto"). The other
 *   indicators (minorenni, universitario, residenziale, corrente, sociosanitario) are neither.
 * - dataRilascio: the attestation's issue date ("rilasciata il"), else the DSU presentation date.
 * - dataFine: "valida fino al"; when missing, 31/12 of the DSU year (inferred: lower confidence).
 * - ise, scalaEquivalenza: those of the ordinary ISEE; coherent: whether ISEE = ISE / scale.
 * - confidence: how sure the lines that carry the ISEE, ISE and scale were read (not the mean of every
 *   line), times the share of fields found; raised when ISE / scale confirms the ISEE, at most
 *   INCOHERENT_CONFIDENCE when it contradicts it, at most UNVERIFIED_CONFIDENCE when it cannot be checked.
 */
export type ExtractionSource = IseeExtraction['source'];

/** What the verify page tells the operator about a reading that needs a closer look (IseeExtraction.warnings). */
export const readingWarnings = {
  misaligned: 'Etichette e valori non allineati: controlla sul documento a quale indicatore appartiene ogni valore',
  reducedIncoherent: 'Valori non coerenti per l’ISEE ristretto: ISEE diverso da ISE / scala di equivalenza',
  reducedUnchecked:
    'ISEE ristretto non verificato: il suo riquadro non riporta ISE e scala di equivalenza, controlla il valore sul documento',
  scaleUnchecked: 'Scala di equivalenza non verificata: con ISE pari a zero ogni scala dà un ISEE pari a zero',
} as const;

/** What a text source gives the parser. */
export interface DocumentText {
  /** The printed rows, each with how sure its reading is (text-layout.ts puts them together). */
  lines: (string | TextLine)[];
  source: ExtractionSource;
  /** 0–1: the confidence of a line given as a bare string (1 for a PDF's own text layer). */
  quality: number;
}

/** How far a clean reading of each source can be trusted when it gives no confidence of its own. */
const sourceQuality: Record<ExtractionSource, number> = { 'pdf-text': 0.99, ocr: 0.85, textract: 0.9 };
/** The most a reading whose ISEE is not ISE / scale can claim. */
export const INCOHERENT_CONFIDENCE = 0.3;
/**
 * The most a reading can claim whose ISEE could not be checked against ISE / scale (either was not read):
 * below what the operator's page shows as reliable, however clean the lines looked. A dotted leader read
 * as digits once gave a wrong ISEE with 0.82 and no warning.
 */
export const UNVERIFIED_CONFIDENCE = 0.5;

export function parseAttestation(
  lines: (string | TextLine)[],
  source: ExtractionSource,
  quality = sourceQuality[source],
): IseeExtraction {
  const text = lines
    .map((line) => (typeof line === 'string' ? { text: line, confidence: quality } : line))
    .map((line) => ({ raw: line.text.replace(/\s+/g, ' ').trim(), confidence: line.confidence }))
    .filter((line) => line.raw && !isSpeck({ text: line.raw, confidence: line.confidence }))
    .map((line) => ({ ...line, folded: fold(line.raw) }))
    .reduce<Line[]>(joinWrapped, []);

  const protocollo = findProtocol(text.map((l) => l.raw));
  const { ordinario, ristretto, ise, scale, reduced, carriers, misaligned } = findIseeValues(text);
  const presented = findDateAfter(text, PRESENTED);
  const released = findDateAfter(text, RELEASED);
  const expiry = findDateAfter(text, EXPIRY);
  const dataRilascio = released ?? presented;
  const dsuYear = (presented ?? released)?.slice(0, 4) ?? protocollo?.slice(10, 14) ?? null;
  const dataFine = expiry ?? (dsuYear ? `${dsuYear}-12-31` : null);

  const found =
    [protocollo, ordinario, dataRilascio, expiry].filter((v) => v !== null).length + (dataFine && !expiry ? 0.5 : 0);
  const fiscalCodes = findFiscalCodes(text.map((l) => l.raw));
  const coverage = (found + (fiscalCodes.length > 0 ? 1 : 0)) / 5;
  const coherent = iseeCoherent(ordinario, ise, scale);
  // The reduced ISEE is checked with its own block's ISE / scale; a block that prints neither leaves nothing to confirm it.
  const reducedCoherent = ristretto === null ? true : iseeCoherent(ristretto, reduced.ise, reduced.scale);
  const warnings = [
    ...(misaligned ? [readingWarnings.misaligned] : []),
    ...(reducedCoherent === false
      ? [readingWarnings.reducedIncoherent]
      : reducedCoherent === null
        ? [readingWarnings.reducedUnchecked]
        : []),
    // ISE 0 gives ISEE 0 whatever the scale: the check confirms the ISEE, not the scale read beside it.
    ...(coherent && ise === 0 ? [readingWarnings.scaleUnchecked] : []),
  ];
  // How sure the lines the values come from were read; without values, the document's own quality.
  const carried = carriers.map((i) => text[i].confidence);
  const valuesQuality = carried.length
    ? Math.round((carried.reduce((a, b) => a + b, 0) / carried.length) * 1e4) / 1e4
    : quality;
  const read = Math.max(0, Math.min(1, valuesQuality)) * coverage;
  // ISE / scale confirming the ISEE is a second reading of it; disagreeing, one of them is misread (or altered);
  // missing, nothing confirms the ISEE read; a warning, the operator must look at the document.
  const checked =
    coherent === true
      ? read + (1 - read) / 2
      : coherent === false
        ? Math.min(read, INCOHERENT_CONFIDENCE)
        : ordinario !== null
          ? Math.min(read, UNVERIFIED_CONFIDENCE)
          : read;
  const confidence = Math.round((warnings.length ? Math.min(checked, UNVERIFIED_CONFIDENCE) : checked) * 100) / 100;

  return {
    protocollo,
    iseeOrdinario: ordinario,
    iseeRistretto: ristretto,
    ise,
    scalaEquivalenza: scale,
    coherent,
    dataRilascio,
    dataFine,
    fiscalCodes,
    confidence,
    omissionsNotice: findOmissions(text),
    ...(warnings.length ? { warnings } : {}),
    source,
  };
}

/** Whether a run of text names one of the attestation's values (ISE, ISR, ISP, scala, an ISEE, a heading). */
export const namesValue = (raw: string) => labelsIn(fold(raw)).length > 0;

/** Whether a run of text names one indicator ("ISEE ordinario", "ISEE minorenni", "ISEE ridotto"), not a value of it. */
export const namesIndicator = (raw: string) =>
  labelsIn(fold(raw)).some((hit) => hit.label === 'isee' && hit.indicator !== null);

/** What OCR makes of dust or a shadow: a mark or a letter or two, read with little confidence. Never a word or a figure. */
export const isSpeck = (run: { text: string; confidence: number }) =>
  run.confidence < 0.5 && !/[\p{L}\d]{3}|\d\s?[,.]\s?\d/u.test(run.text);

/**
 * Whether a document's text holds anything to read: a word or a figure, not only what OCR makes of dust or
 * a shadow (".", "'", "l", "ii", a low-confidence speck or two).
 */
export function hasReadableText(lines: (string | TextLine)[]): boolean {
  return lines.some((line) => {
    const { text, confidence } = typeof line === 'string' ? { text: line, confidence: 1 } : line;
    return text.trim() !== '' && !isSpeck({ text, confidence }) && /[\p{L}\d]{2}/u.test(text);
  });
}

interface Line {
  raw: string;
  folded: string;
  /** 0–1: how sure the source was of this line. */
  confidence: number;
}

/**
 * Lower case without accents, with the digits OCR puts in words read as the letters they stand for,
 * one character for one, so a position in the folded line is the same position in the raw one.
 */
function fold(raw: string): string {
  const chars = [...raw].map((char) => char.normalize('NFD')[0].toLowerCase());
  const isLetter = (c: string | undefined) => c !== undefined && c >= 'a' && c <= 'z';
  return chars
    .map((c, i) => {
      const asLetter = ({ '1': 'i', '|': 'i', '!': 'i', '0': 'o', '5': 's', '3': 'e' } as Record<string, string>)[c];
      return asLetter && (isLetter(chars[i - 1]) || isLetter(chars[i + 1])) ? asLetter : c;
    })
    .join('');
}

/**
 * A pattern of folded words as OCR may misread them on a photo: an i or an l read as the other (or as a 1, which
 * fold makes an i), an e read as a c ("Scala dl equlvalenza", "prcsentata", "statc rilevate"), in a class as well.
 */
function loose(pattern: RegExp): RegExp {
  let source = '';
  let inClass = false;
  for (let i = 0; i < pattern.source.length; i++) {
    const c = pattern.source[i];
    if (c === '\\') source += c + pattern.source[++i];
    else if (inClass) {
      inClass = c !== ']';
      source += c === 'i' || c === 'l' ? 'il' : c === 'e' ? 'ec' : c;
    } else {
      inClass = c === '[';
      source += c === 'i' || c === 'l' ? '[il]' : c === 'e' ? '[ec]' : c;
    }
  }
  return new RegExp(source, pattern.flags);
}

const loosely = <T extends { pattern: RegExp }>(rules: T[]) =>
  rules.map((rule) => ({ ...rule, pattern: loose(rule.pattern) }));

// --- Protocol -------------------------------------------------------------------------------------

const PROTOCOL = /^INPS-ISEE-[0-9]{4}-[0-9]{8}[A-Z]-[0-9]{2}$/;
const DIGIT_LIKE: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  I: '1',
  l: '1',
  '|': '1',
  i: '1',
  L: '1',
  S: '5',
  s: '5',
  B: '8',
  Z: '2',
  z: '2',
  G: '6',
  b: '6',
  A: '4',
  T: '7',
};
const LETTER_LIKE: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '5': 'S',
  '8': 'B',
  '2': 'Z',
  '6': 'G',
  '4': 'A',
  '7': 'T',
};
const asDigits = (s: string) => [...s].map((c) => DIGIT_LIKE[c] ?? c).join('');

/**
 * `INPS-ISEE-2025-00597381W-00`, found through OCR noise: the prefix in any spelling close to it (or
 * none), hyphens missing, doubled or read as other dashes, spaces inside, digits read as letters.
 */
function findProtocol(lines: string[]): string | null {
  const d = '[0-9OoDQIl|iLSsBZzGbAT]';
  // The letter sometimes comes twice, once read as a digit: "…2015S-00" for "…201S-00".
  const echo = '(?:5(?=S)|8(?=B)|0(?=[OD])|1(?=I)|2(?=Z)|6(?=G))?';
  const loose = new RegExp(
    `(?:[I1l|]?[NnM][PpR]?[Ss5$]\\W*)?[I1l|][Ss5$][Ee3][Ee3]\\W*(${d}{4})\\W*(${d}{8})${echo}\\W*([A-Z0-9]|VV)\\W*(${d}{2})(?![0-9])`,
  );
  const bare = new RegExp(`(?<![0-9])(2${d}{3})-+(${d}{8})\\s?([A-Z0-9]|VV)-+(${d}{2})(?![0-9])`);
  for (const line of lines) {
    const compact = line.replace(/[–—_~=.:]/g, '-').replace(/\s+/g, '');
    const match = loose.exec(compact) ?? bare.exec(line.replace(/[–—_~]/g, '-').replace(/\s*-\s*/g, '-'));
    if (!match) continue;
    const letter = match[3] === 'VV' ? 'W' : (LETTER_LIKE[match[3]] ?? match[3]);
    const protocol = `INPS-ISEE-${asDigits(match[1])}-${asDigits(match[2])}${letter}-${asDigits(match[4])}`;
    const year = Number(protocol.slice(10, 14));
    if (PROTOCOL.test(protocol) && year >= 2015 && year <= 2099) return protocol;
  }
  return null;
}

// --- ISEE values ----------------------------------------------------------------------------------

/**
 * An Italian amount (16.187,98), with the usual OCR slips: 16,187,98 · 16.187.98 · 16 187,98 · 16.187;98 ·
 * 16.187, 98. It starts a word: digits glued to letters or to the dots of a leader ("ssscc0. 77.895, 81")
 * are not an amount.
 */
const AMOUNT = /(?<![\p{L}\d,.])(\d{1,3}(?:[.,' ]\d{3})+|\d+)\s?[,.;]\s?(\d{2})(?!\d)/gu;

/** A dotted (or dashed) leader between a label and its value, as a run of blanks of the same length. */
const blankLeaders = (raw: string) => raw.replace(/(?:[.·…_]\s?){3,}/g, (leader) => ' '.repeat(leader.length));

/**
 * The digits OCR reads as letters inside a figure: O for 0 (2,O4 · 1O.000,00 · 4O 872,10 · 26.697,1O euro), l or I for 1, also leading
 * (l2.345,67), where a letter cannot belong to a word.
 */
export const repairFigures = (raw: string) =>
  raw
    .replace(/(?<=[\d.,])[Oo](?=[\d.,O]|\s\d{3}(?!\d)|\s*(?:€|eur(?:o)?\b)|$)|(?<=^|\s|€)[Oo](?=[\d.,])/gi, '0')
    .replace(/(?<=\d)[lI](?=\d)|(?<=^|[\s€:])[lI|](?=\d)|(?<=\d[.,])[lI](?=\d|[.,]\d|\s|$)/g, '1');

function amountsIn(raw: string): { value: number; index: number; end: number }[] {
  const repaired = blankLeaders(repairFigures(raw));
  return [...repaired.matchAll(AMOUNT)].map((m) => ({
    value: Number(`${m[1].replace(/[.,' ]/g, '')}.${m[2]}`),
    index: m.index!,
    end: m.index! + m[0].length,
  }));
}

/**
 * Whether nothing but the value's trimmings follows it: a currency, symbols, an explanation in brackets,
 * a speck OCR made of a shadow (two characters at most).
 */
const endsText = (rest: string) =>
  rest
    .replace(/\([^()]*\)?|€|\beur(o)?\b/gi, ' ')
    .split(/\s+/)
    .every((token) => !/[\p{L}\d]/u.test(token) || (token.length <= 2 && !/\d/.test(token)));

type Label = 'ise' | 'isr' | 'isp' | 'scale' | 'isee';
/** Which ISEE: the ordinary one, the reduced one (ristretto/ridotto), or another (minorenni, corrente…). */
type Indicator = 'ordinario' | 'ristretto' | 'other';

// Folded text: OCR may read "i" as "l", "c" for "e"; labels are matched loosely.
const SITUAZIONE = 'ind[il]cator[ec]\\W+(?:de[il]{1,2}[ae]\\W+)?s[il]tuaz[il]on[ec]\\W+';
const LABELS: { label: Label; pattern: RegExp }[] = loosely([
  {
    label: 'isee',
    pattern: new RegExp(`${SITUAZIONE}econom[il]ca\\W+equ[il]valent[ec]|(?<![a-z0-9-])[il]s[ec][ec](?![a-z-])`, 'g'),
  },
  { label: 'ise', pattern: new RegExp(`${SITUAZIONE}econom[il]ca|(?<![a-z0-9])[il]s[ec](?![a-z])`, 'g') },
  { label: 'isr', pattern: new RegExp(`${SITUAZIONE}redd[il]tual[ec]|(?<![a-z0-9])[il]sr(?![a-z])`, 'g') },
  { label: 'isp', pattern: new RegExp(`${SITUAZIONE}patr[il]mon[il]al[ec]|(?<![a-z0-9])[il]sp(?![a-z])`, 'g') },
  // Also cut short where a column is narrow: "Scala di equiv.", "Scala eq.", "Param. scala", "Parametro scala".
  {
    label: 'scale',
    pattern:
      /(?:param[a-z]*\W+(?:de[il]{1,2}a\W+)?)?scala\W+(?:d[il]\W+)?eq(?:u[il]v[a-z]*)?(?![a-z])|param[a-z]*\W+scala(?![a-z])/g,
  },
]);
const QUALIFIERS: { indicator: Indicator; pattern: RegExp }[] = loosely([
  // Also cut short where a narrow column clips the heading ("ISEE socio-sanitario (nucleo ristr"): at its very end,
  // "ristr…" and "ridot…" can be no other word.
  { indicator: 'ristretto', pattern: /r[il]stre[tl]{2}|r[il]do[tl]{2}|r[il]str(?:e[tl]?)?\W*$|r[il]dot\W*$/ },
  // The reduced ISEE is a social-health one ("ISEE sociosanitario ridotto"): these words go with "ridotto".
  { indicator: 'other', pattern: /soc[il]o\W?san[il]tar|res[il]denz/ },
  // "conto corrente" is a bank account (a DSU's "saldo … del conto corrente"), not the ISEE corrente.
  { indicator: 'other', pattern: /m[il]nor(?:enn|i(?![a-z]))|un[il]vers|(?<!conto\W+)corrent|dottorat|d[il]sab/ },
  { indicator: 'ordinario', pattern: /ord[il]nar|standard/ },
]);
/**
 * The indicator a label's words name: the first qualifier that matches, 'ristretto' before the social-health words
 * that go with it. Words naming more than one indicator ("ISEE ISEE ISEE" over "ORDINARIO MINORENNI RIDOTTO" read as
 * one heading) name none that can be trusted: 'other', so no value under them is taken for the ordinary or reduced one.
 */
function indicatorOf(qualifier: string): Indicator | null {
  const named = QUALIFIERS.filter((q) => q.pattern.test(qualifier));
  if (named.length === 0) return null;
  return named.length === 1 || namedTogether(named) ? named[0].indicator : 'other';
}
const namedTogether = (named: typeof QUALIFIERS) =>
  named.length === 2 && named[0] === QUALIFIERS[0] && named[1] === QUALIFIERS[1];
/** Words naming several indicators and no value ("ORDINARIO  MINORENNI  RIDOTTO", a table's headings without "ISEE"). */
const namesSeveral = (folded: string) => {
  const named = QUALIFIERS.filter((q) => q.pattern.test(folded));
  return named.length > 1 && !namedTogether(named);
};

interface Hit {
  label: Label;
  /** For an ISEE label: the indicator its own words name, null for a bare "ISEE". */
  indicator: Indicator | null;
  start: number;
  end: number;
}

/**
 * The labels on one line, in reading order. A parenthesis explains the label before it ("Indicatore
 * della situazione economica (ISE)", "ISEE (ISE / scala di equivalenza)"), so it names nothing itself;
 * an ISEE label's indicator is in the words that follow it, up to the next label.
 */
function labelsIn(folded: string): Hit[] {
  const words = folded
    .replace(/\([^()]*\)/g, (m) => ' '.repeat(m.length))
    // A dotted acronym ("I.S.E.E.", "I. S. E.") as the word it spells, ending where it ends.
    .replace(/(?<![a-z])(?:[a-z]\.\s?){2,}[a-z]\.?(?![a-z])/g, (m) => m.replace(/[.\s]/g, '').padStart(m.length, ' '));
  const hits: Hit[] = [];
  for (const { label, pattern } of LABELS) {
    for (const m of words.matchAll(pattern)) {
      const start = m.index!;
      if (hits.some((h) => start < h.end && start + m[0].length > h.start)) continue;
      hits.push({ label, indicator: null, start, end: start + m[0].length });
    }
  }
  hits.sort((a, b) => a.start - b.start);
  // One label spelt twice, the acronym and its words ("ISE - Indicatore della Situazione Economica").
  for (let k = hits.length - 1; k > 0; k--) {
    if (hits[k].label === hits[k - 1].label && !/[\p{L}\d]/u.test(words.slice(hits[k - 1].end, hits[k].start))) {
      hits[k - 1].end = hits[k].end;
      hits.splice(k, 1);
    }
  }
  hits.forEach((hit, k) => {
    if (hit.label !== 'isee') return;
    const qualifier = folded.slice(hit.start, hits[k + 1]?.start).split(/\d/)[0];
    hit.indicator = indicatorOf(qualifier);
  });
  return hits;
}

/** The words of a line, its figures (amounts, scales) and currencies left out, and those figures. */
function wordsAndFigures(raw: string): { words: string; figures: string } {
  let words = raw;
  const figures: string[] = [];
  for (const m of [...amountsIn(raw), ...scalesIn(raw)].sort((a, b) => a.index - b.index)) {
    if (words.slice(m.index, m.end).trim() === '') continue;
    figures.push(raw.slice(m.index, m.end).trim());
    words = words.slice(0, m.index) + ' '.repeat(m.end - m.index) + words.slice(m.end);
  }
  // A currency beside a figure is no word of a label ("Indicatore della situazione  euro 1.301,84").
  const bare = words.replace(/€|\beuro?\b/gi, ' ');
  return { words: bare.replace(/\s+/g, ' ').trim(), figures: figures.join(' ') };
}

/**
 * A label printed on two rows ("Indicatore della situazione economica" / "equivalente (ISEE)", "ISEE SOCIOSANITARIO"
 * / "RIDOTTO"), its value beside either row: one line, the label's words together and the value after them. Two rows
 * are one label when the second names nothing alone and completes or qualifies what the first names (its words
 * together with the first's name a value differently); never when both carry a value.
 */
function joinWrapped(lines: Line[], line: Line): Line[] {
  const previous = lines.at(-1);
  if (!previous) return [line];
  const [a, b] = [wordsAndFigures(previous.raw), wordsAndFigures(line.raw)];
  // A row opening with a bullet ("- saldo … non dichiarati") is an item of a list, never the rest of a label.
  if (!a.words || !b.words || (a.figures && b.figures) || /^\s*[-–—•*]\s/.test(line.raw)) return [...lines, line];
  const key = (words: string, offset: number) =>
    labelsIn(fold(words)).map((h) => `${h.label} ${h.indicator} ${h.start + offset} ${h.end + offset}`);
  const joined = `${a.words} ${b.words}`;
  if (key(b.words, 0).length > 0 || key(joined, 0).join() === key(a.words, 0).join()) return [...lines, line];
  const raw = `${joined} ${a.figures || b.figures}`.trim();
  return [
    ...lines.slice(0, -1),
    { raw, folded: fold(raw), confidence: Math.min(previous.confidence, line.confidence) },
  ];
}

/** An equivalence scale: 1,57 · 2.04 · 1 (a single person). */
const SCALE = /(?<![\p{L}\d,.])([1-9])(?:\s?[,.;]\s?(\d{1,4})(?![\d,.]*\d)|(?=\s*$))/gu;
const scalesIn = (raw: string) =>
  [...blankLeaders(repairFigures(raw)).matchAll(SCALE)].map((m) => ({
    value: Number(`${m[1]}.${m[2] ?? '0'}`),
    index: m.index!,
    end: m.index! + m[0].length,
  }));

interface IseeValues {
  ordinario: number | null;
  ristretto: number | null;
  ise: number | null;
  scale: number | null;
  /** ISE and scale printed in the reduced ISEE's own block, to check it with. */
  reduced: { ise: number | null; scale: number | null };
  /** The lines the ordinary ISEE, its ISE and its scale were read from. */
  carriers: number[];
  /** Labels and values that do not line up (more labels than values, two values for one label): none was taken. */
  misaligned: boolean;
}

/** The foot of a page: "Pagina 1 di 2", "Pag. 1/2". */
const PAGE_FOOTER = loose(/^\s*pag(?:ina|\.)?\s*\d+\s*(?:di|\/)\s*\d+\s*$/);

/** A placeholder where an indicator does not apply ("-", "n.d."): a value slot with no value. */
const PLACEHOLDERS = /(?<=^|\s)(?:[-–—]|n\.\s?d\.?)(?=\s|$)/giu;
const isPlaceholder = (raw: string) => /^[\s:]*(?:[-–—]+|n\.\s?d\.?)[\s.]*$/iu.test(raw);

/**
 * Each value is read from the line that names it: the ISEE from an ISEE line, never from the ISE, ISR,
 * ISP or scale lines around it. A heading naming an indicator ("ISEE MINORENNI") says whose block the
 * lines below are, until the next such heading; a bare "ISEE" line takes the indicator of its block
 * (ordinario when there is none). A value is the amount that ends its label's part of the line (never
 * digits out of the leader before it), or opens the next line when the label stands alone (a summary
 * box); a row of labels over a row of values (a table header) pairs them by order, a dash standing for an
 * indicator that does not apply. Where labels and values do not line up (three labels over two values,
 * two amounts after one label), no value is taken and the reading says so.
 */
function findIseeValues(text: Line[]): IseeValues {
  const isee: Partial<Record<Indicator, { value: number; line: number }>> = {};
  // ISE and scale of each block: the cross-check needs those of the ordinary ISEE.
  const blocks: Partial<
    Record<Indicator, { ise?: { value: number; line: number }; scale?: { value: number; line: number } }>
  > = {};
  let block: Indicator = 'ordinario';
  let misaligned = false;
  const set = (hit: Hit, value: number, line: number) => {
    if (hit.label === 'isee') {
      isee[hit.indicator ?? block] ??= { value, line };
    } else if (hit.label === 'ise' || hit.label === 'scale') {
      const own = (blocks[hit.indicator ?? block] ??= {});
      own[hit.label] ??= { value, line };
    }
  };
  const valuesIn = (label: Label, raw: string) => (label === 'scale' ? scalesIn(raw) : amountsIn(raw));
  // The values of a row under a row of labels, in order, a placeholder counting as a value that is not there.
  const slotsIn = (label: Label, raw: string) =>
    [
      ...valuesIn(label, raw),
      ...[...raw.matchAll(PLACEHOLDERS)].map((m) => ({ value: null, index: m.index!, end: m.index! + m[0].length })),
    ].sort((a, b) => a.index - b.index);
  const relevant = (hit: Hit) => hit.label === 'isee' || hit.label === 'ise' || hit.label === 'scale';

  text.forEach((line, i) => {
    const hits = labelsIn(line.folded);
    // Headings of several indicators at once: whose values follow cannot be told, so none is taken for the ordinary or reduced.
    if (hits.length === 0 && namesSeveral(line.folded) && amountsIn(line.raw).length === 0) block = 'other';
    if (hits.length === 0) return;
    // The line below, skipping a speck of noise OCR may have read between label and value (a figure,
    // 0,00 or 1,57, is never a speck) or the foot of a page where a page break fell between them.
    const speck = (l: Line | undefined) =>
      l !== undefined &&
      ((!/[\p{L}\d]{3}|\d\s?[,.]\s?\d/u.test(l.raw) && !isPlaceholder(l.raw)) || PAGE_FOOTER.test(l.folded));
    const nextAt = speck(text[i + 1]) ? i + 2 : i + 1;
    const next = text[nextAt];
    const nextIsValues = next !== undefined && labelsIn(next.folded).length === 0;
    let valued = false;
    hits.forEach((hit, k) => {
      // The value that ends this label's part of the line (OCR may glue it to the label: "ISE41.772,77").
      const part = line.raw.slice(hit.end, hits[k + 1]?.start ?? line.raw.length);
      const values = valuesIn(hit.label, part);
      const sameLine = values.findLast((v) => endsText(part.slice(v.end)));
      if (sameLine) {
        valued = true;
        // Two values after one label, nothing between them: which is its own cannot be told.
        const before = values[values.indexOf(sameLine) - 1];
        if (before && before.value !== sameLine.value && endsText(part.slice(before.end, sameLine.index))) {
          misaligned ||= relevant(hit);
          return;
        }
        set(hit, sameLine.value, i);
        return;
      }
      // "ISEE ridotto  -": printed as not applying.
      if (isPlaceholder(part)) {
        valued = true;
        return;
      }
      if (amountsIn(line.raw).length > 0 || !nextIsValues) return;
      const below = slotsIn(hit.label, next.raw);
      if (hits.length > 1) {
        if (below.length === hits.length) {
          valued = true;
          if (below[k].value !== null) set(hit, below[k].value, nextAt);
        } else if (below.length > 0) {
          misaligned ||= relevant(hit);
        }
        return;
      }
      // A label alone on its line: the value is the whole of the next line (a currency before it allowed), or a dash.
      if (isPlaceholder(next.raw)) {
        valued = true;
        return;
      }
      const figures = valuesIn(hit.label, next.raw);
      const alone = figures.length === 1 ? figures[0] : undefined;
      if (
        alone &&
        startsLine(
          next.raw.replace(/\beur(o)?\b/gi, (m) => ' '.repeat(m.length)),
          alone.index,
        ) &&
        endsText(next.raw.slice(alone.end))
      ) {
        valued = true;
        set(hit, alone.value, nextAt);
      }
    });
    // A heading: one ISEE label naming an indicator, with no value of its own.
    if (!valued && hits.length === 1 && hits[0].indicator) block = hits[0].indicator;
  });
  const ordinary = blocks.ordinario ?? {};
  const found = [isee.ordinario, ordinary.ise, ordinary.scale].filter((v) => v !== undefined);
  return {
    ordinario: isee.ordinario?.value ?? null,
    ristretto: isee.ristretto?.value ?? null,
    ise: ordinary.ise?.value ?? null,
    scale: ordinary.scale?.value ?? null,
    reduced: { ise: blocks.ristretto?.ise?.value ?? null, scale: blocks.ristretto?.scale?.value ?? null },
    carriers: [...new Set(found.map((v) => v.line))],
    misaligned,
  };
}

/**
 * INPS computes ISEE = ISE / scala di equivalenza and prints it rounded to the cent. Two cents cover the
 * rounding of ISE and ISEE (the scale has two decimals, at least 1); a misread digit, even a cent, does not
 * pass. Null when ISE or the scale is missing.
 */
export function iseeCoherent(
  isee: number | null,
  ise: number | null | undefined,
  scale: number | null | undefined,
): boolean | null {
  if (isee === null || ise == null || scale == null || scale <= 0) return null;
  return Math.abs(ise / scale - isee) <= 0.02;
}

/** Nothing but symbols (€, |, :) before `index`: the value opens its line. */
const startsLine = (raw: string, index: number) => !/[\p{L}\d]/u.test(raw.slice(0, index));

// --- Dates ----------------------------------------------------------------------------------------

/** "rilasciata il", "Data di rilascio", also as OCR damages it: "rllascio", "rilasclata", "riiascio". */
const RELEASED = loose(/r[il]{1,3}asc[il]|emess/);
const PRESENTED = loose(/presentat|presentazion|sottoscrizion|sottoscritt/);
const EXPIRY = loose(/valid[ao]\s*(fino|sino)|scadenz|scade/);

const DATE =
  /(?<![\d])([0-3OoIl]?[\dOoIlS])\s?[/\-.]\s?([01Oo]?[\dOoIlS])\s?[/\-.]\s?((?:19|2[0O])[\dOoIlS]{2})(?![\d])/g;

function datesIn(raw: string): { iso: string; index: number }[] {
  const dates: { iso: string; index: number }[] = [];
  for (const m of raw.matchAll(DATE)) {
    const [day, month, year] = [m[1], m[2], m[3]].map((part) => Number(asDigits(part)));
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) continue;
    dates.push({ iso: date.toISOString().slice(0, 10), index: m.index! });
  }
  return dates;
}

/** The first date after a label matching `label`, on its line or at the start of the next. */
function findDateAfter(text: Line[], label: RegExp): string | null {
  for (let i = 0; i < text.length; i++) {
    const m = label.exec(text[i].folded);
    if (!m) continue;
    const after = datesIn(text[i].raw).find((d) => d.index >= m.index);
    if (after) return after.iso;
    const next = text[i + 1] && datesIn(text[i + 1].raw)[0];
    if (next && startsLine(text[i + 1].raw, next.index)) return next.iso;
  }
  return null;
}

// --- Fiscal codes ---------------------------------------------------------------------------------

// Positions of a fiscal code that hold a letter; the others hold a digit (or a homocodic letter).
const LETTER_SLOTS = new Set([0, 1, 2, 3, 4, 5, 8, 11, 15]);
// Clear OCR confusions. In a digit slot L M N P Q R S T U V are homocodic letters, so they stay; S and
// the lower-case l may also be a misread 5/8 and 1: every reading is tried, and the code must then be
// well formed (month letter, day) with the right check character.
const DIGIT_SLOT_REPAIRS: Record<string, string[]> = {
  O: ['0'],
  o: ['0'],
  D: ['0'],
  I: ['1'],
  i: ['1'],
  l: ['1', 'L'],
  '|': ['1'],
  Z: ['2'],
  z: ['2'],
  B: ['8'],
  G: ['6'],
  A: ['4'],
  S: ['S', '5', '8'],
  s: ['S', '5', '8'],
  $: ['S', '5'],
  g: ['9'],
  '!': ['1'],
};
const LETTER_SLOT_REPAIRS: Record<string, string[]> = {
  '0': ['O', 'D'],
  '1': ['I', 'L'],
  '5': ['S'],
  '8': ['B', 'S'],
  '2': ['Z'],
  '6': ['G'],
  '4': ['A'],
  '9': ['S', 'G'],
  '|': ['I'],
  '7': ['T'],
  $: ['S'],
  '!': ['I'],
};
const MONTH_LETTERS = 'ABCDEHLMPRST';
const homocodicDigit = (c: string) => ('LMNPQRSTUV'.includes(c) ? String('LMNPQRSTUV'.indexOf(c)) : c);

const wellFormed = (code: string) => {
  if (!fiscalCodePattern.test(code) || !MONTH_LETTERS.includes(code[8])) return false;
  const day = Number(homocodicDigit(code[9]) + homocodicDigit(code[10]));
  return ((day >= 1 && day <= 31) || (day >= 41 && day <= 71)) && fiscalCodeCheckCharacter(code) === code[15];
};

/** Every valid fiscal code in the text (check character verified), repaired where OCR is clearly wrong. */
function findFiscalCodes(lines: string[]): string[] {
  const codes: string[] = [];
  for (const line of lines) {
    // Tokens of letters and digits; OCR sometimes splits a code, so two neighbours are tried together.
    const tokens = line.split(/[^A-Za-z0-9|$!]+/).filter(Boolean);
    for (let i = 0; i < tokens.length; i++) {
      for (const candidate of [tokens[i], tokens[i] + (tokens[i + 1] ?? '')]) {
        const code =
          candidate.length === 16
            ? repairFiscalCode(candidate)
            : candidate.length === 17
              ? withoutDoubledCharacter(candidate)
              : null;
        if (code && !codes.includes(code)) codes.push(code);
      }
    }
  }
  return codes;
}

function repairFiscalCode(candidate: string): string | null {
  let options = [''];
  for (let i = 0; i < 16; i++) {
    const char = candidate[i];
    const choices = (LETTER_SLOTS.has(i) ? LETTER_SLOT_REPAIRS : DIGIT_SLOT_REPAIRS)[char] ?? [char.toUpperCase()];
    options = options.flatMap((prefix) => choices.map((c) => prefix + c));
    if (options.length > 256) return null;
  }
  return options.find(wellFormed) ?? null;
}

/** OCR sometimes reads one character twice ("O0", "S5"): a 17-character code without one of a look-alike pair. */
function withoutDoubledCharacter(candidate: string): string | null {
  const readings = (c: string) => [c.toUpperCase(), ...(DIGIT_SLOT_REPAIRS[c] ?? [])];
  const same = (a: string, b: string) => readings(a).some((r) => readings(b).includes(r));
  for (let i = 1; i < candidate.length; i++) {
    if (!same(candidate[i - 1], candidate[i])) continue;
    const code = repairFiscalCode(candidate.slice(0, i) + candidate.slice(i + 1));
    if (code) return code;
  }
  return null;
}

// --- Omissions ------------------------------------------------------------------------------------

const OMISSIONS = loose(/om[il]ss[il]on|d[il]fform[il]t/);
// The box's answer when there are none: "NESSUNA", "assenti", "non rilevate", "non sono state rilevate
// omissioni…", "non risultano…". Anything else it says (PRESENTI, a list, "sono state rilevate…") is a notice.
const NONE_FOUND = loose(
  /nessun|assent|assenza|non\s+(sono\s+)?(stat[ei]\s+)?(r[il]levat|r[il]scontrat|present|emers|segnalat|ev[il]denz)|non\s+r[il]sult|^\W*(no|nulla|niente)\W*$/,
);
// A sentence about omissions in general ("eventuali omissioni … sono riportate a pagina 2"), not the answer.
const HYPOTHETICAL = loose(/eventual|qualora|in\s+caso\s+d|in\s+presenza\s+d/);
// The words of the box's title: a line with nothing else is a heading, the answer is on the next line.
const TITLE_WORDS = loose(/om[il]ss[il]on[il]|d[il]fform[il]ta|\be\/o\b|\b[eo]\b|[^a-z]/g);
// A line that starts another part of the attestation ends the notice.
const SECTION = loose(
  /^(pag[il]na|pag\.|[il]s[ec]|[il]sr|[il]sp|protocollo|data|f[il]rma|quadro|s[ec]z[il]one|nucleo|scala|[il]nd[il]cator|valor[ec]|[il]l\s+present[ec]\s+attestaz)/,
);

/** The omissions/discrepancies notice as the attestation words it; null when it says there are none. */
function findOmissions(text: Line[]): string | null {
  const at = text.findIndex((l) => OMISSIONS.test(l.folded) && !HYPOTHETICAL.test(l.folded));
  if (at < 0) return null;
  const heading = text[at];
  const titleOnly = heading.folded.replace(TITLE_WORDS, '') === '';
  // A title alone: its answer is the next line, past the rows of a block read in between (a column beside the box).
  let answerAt = at + 1;
  while (titleOnly && answerAt < at + 12 && text[answerAt] && labelsIn(text[answerAt].folded).length > 0) answerAt++;
  const answer = titleOnly ? text[answerAt] : heading;
  if (answer && NONE_FOUND.test(answer.folded)) return null;

  const notice = titleOnly ? [] : [heading.raw];
  for (let i = titleOnly ? answerAt : at + 1; i < text.length && notice.length < 8; i++) {
    if (SECTION.test(text[i].folded) || labelsIn(text[i].folded).length > 0) break;
    notice.push(text[i].raw);
  }
  return notice.length > 0 ? notice.join(' ') : heading.raw;
}
