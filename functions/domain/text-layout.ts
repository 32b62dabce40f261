import { isSpeck, namesIndicator, namesValue, repairFigures } from './isee-attestation.ts';
import type { TextLine } from './text-line.ts';

/**
 * Puts a page's runs of text back into the rows of the printed page, from their geometry, whichever source
 * found them: Textract's LINE blocks, the PDF's text items, tesseract's lines. Textract in particular splits
 * a row into several LINEs (a label, then its value far to the right) and orders them by its own idea of
 * the text flow, sometimes a column of labels before the column of their values: read in that order, a
 * value lands after the wrong label. Pure: no AWS, no Node.
 */

/** A point in fractions of the page (Textract's Polygon): x to the right, y down. */
export interface Point {
  X: number;
  Y: number;
}

/** One run of text as a source found it. */
export interface PlacedText {
  text: string;
  /** 0–1. */
  confidence: number;
  /**
   * The run's corners in the order Textract gives them, relative to the text: top-left, top-right,
   * bottom-right, bottom-left (on a page photographed upside down, the top-left corner is at the bottom right).
   */
  polygon: [Point, Point, Point, Point];
}

interface Placed {
  text: string;
  confidence: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  middle: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};

/**
 * The runs in the page's own frame: turned back by the quarter turn the text reads in (a page photographed
 * sideways or upside down), then the remaining slant of a photo taken at an angle (a few degrees) taken
 * out as a shear, so that a printed row is level. The coordinates are fractions of the page's width and
 * height, whose ratio the runs do not give: a shear of y by the rows' slope needs no ratio.
 */
function level(runs: PlacedText[]): Placed[] {
  const direction = (r: PlacedText) => Math.atan2(r.polygon[1].Y - r.polygon[0].Y, r.polygon[1].X - r.polygon[0].X);
  // The quarter turn most runs read in.
  const quarters = [0, 0, 0, 0];
  for (const run of runs) quarters[(Math.round(direction(run) / (Math.PI / 2)) + 4) % 4] += run.text.length;
  const quarter = quarters.indexOf(Math.max(...quarters));
  const upright = ({ X, Y }: Point): Point =>
    [
      { X, Y },
      { X: Y, Y: 1 - X },
      { X: 1 - X, Y: 1 - Y },
      { X: 1 - Y, Y: X },
    ][quarter];
  const turned = runs.map((run) => ({ run, corners: run.polygon.map(upright) }));

  // The slope of the rows, where each run lies: a page photographed at an angle slopes the same everywhere, a
  // curled one bows, more towards one edge (and further down the page), so that the rows of a right-hand column
  // sink against those of the left. Fitted over the runs long enough to show it, weighted by their length.
  const sloped = turned
    .filter(({ corners: [a, b] }) => b.X - a.X > 0.05)
    .map(({ corners: [a, b] }) => ({
      x: (a.X + b.X) / 2,
      y: (a.Y + b.Y) / 2,
      slope: (b.Y - a.Y) / (b.X - a.X),
      weight: b.X - a.X,
    }));
  const rise = slopeField(sloped);

  return turned.map(({ run, corners }) => {
    const level = corners.map((p) => ({ X: p.X, Y: p.Y - rise(p.X, p.Y) }));
    const xs = level.map((p) => p.X);
    const top = (level[0].Y + level[1].Y) / 2;
    const bottom = (level[2].Y + level[3].Y) / 2;
    return {
      text: run.text,
      confidence: run.confidence,
      left: Math.min(...xs),
      right: Math.max(...xs),
      top,
      bottom,
      middle: (top + bottom) / 2,
    };
  });
}

/**
 * How far a row has risen at (x, y) since the page's left edge: the integral along x of the rows' slope, fitted
 * as a + b·x + c·y + d·x·y by weighted least squares (a bow that changes down the page), or the median slope
 * when too few runs show it. Runs far off the fit (a stamp, a signature) do not weigh on the second pass.
 */
function slopeField(runs: { x: number; y: number; slope: number; weight: number }[]): (x: number, y: number) => number {
  const flat = median(runs.map((r) => r.slope));
  const fallback = (x: number) => flat * x;
  if (runs.length < 8) return runs.length >= 3 ? (bow(runs) ?? fallback) : fallback;
  const fit = (sample: typeof runs) =>
    leastSquares(
      sample.map((r) => [1, r.x, r.y, r.x * r.y]),
      sample.map((r) => r.slope),
      sample.map((r) => r.weight),
    );
  let coefficients = fit(runs);
  if (!coefficients) return fallback;
  const at = ([a, b, c, d]: number[], x: number, y: number) => a + b * x + c * y + d * x * y;
  const residuals = runs.map((r) => Math.abs(r.slope - at(coefficients!, r.x, r.y)));
  const spread = median(residuals) * 4 + 0.002;
  const kept = runs.filter((_, i) => residuals[i] <= spread);
  if (kept.length >= 8) coefficients = fit(kept) ?? coefficients;
  const [a, b, c, d] = coefficients;
  // A bow no printed page shows (a few runs all sloped alike) is taken for the plain slope.
  if (![b, c, d].every((k) => Math.abs(k) < 0.5)) return fallback;
  return (x, y) => a * x + (b * x * x) / 2 + c * y * x + (d * y * x * x) / 2;
}

/**
 * The rise of a page with few runs (the end of a block a page break carried over): the slope as a + b·x, a bow
 * across the page that does not change down it, when the runs span enough of its width to show it.
 */
function bow(runs: { x: number; slope: number; weight: number }[]): ((x: number) => number) | null {
  const xs = runs.map((r) => r.x);
  if (Math.max(...xs) - Math.min(...xs) < 0.3) return null;
  const fit = leastSquares(
    runs.map((r) => [1, r.x]),
    runs.map((r) => r.slope),
    runs.map((r) => r.weight),
  );
  if (!fit || Math.abs(fit[1]) >= 0.5) return null;
  const [a, b] = fit;
  return (x) => a * x + (b * x * x) / 2;
}

/** Weighted least squares by the normal equations: null when they have no single solution. */
function leastSquares(rows: number[][], values: number[], weights: number[]): number[] | null {
  const n = rows[0].length;
  const m = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  rows.forEach((row, k) => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) m[i][j] += weights[k] * row[i] * row[j];
      m[i][n] += weights[k] * row[i] * values[k];
    }
  });
  for (let col = 0; col < n; col++) {
    const pivot = m
      .slice(col)
      .reduce((best, row, i) => (Math.abs(row[col]) > Math.abs(m[best][col]) ? col + i : best), col);
    if (Math.abs(m[pivot][col]) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = m[row][col] / m[col][col];
      for (let j = col; j <= n; j++) m[row][j] -= factor * m[col][j];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/** Two runs share a row when each one's middle lies within the other's height. */
const sameRow = (a: { top: number; bottom: number; middle: number }, b: Placed) =>
  b.middle > a.top && b.middle < a.bottom && a.middle > b.top && a.middle < b.bottom;

/** Runs already level, as printed rows from the top, each row's runs left to right. */
function rowsOf(placed: Placed[]): Placed[][] {
  const rows: { runs: Placed[]; top: number; bottom: number; middle: number }[] = [];
  for (const run of [...placed].sort((a, b) => a.middle - b.middle)) {
    // The nearest row above that this run shares (rows close together are only a few runs apart).
    const row = rows.slice(-3).findLast((r) => sameRow(r, run));
    if (row) {
      row.runs.push(run);
      row.top = median(row.runs.map((r) => r.top));
      row.bottom = median(row.runs.map((r) => r.bottom));
      row.middle = (row.top + row.bottom) / 2;
    } else {
      rows.push({ runs: [run], top: run.top, bottom: run.bottom, middle: run.middle });
    }
  }
  return rows.map((r) => joinWords(r.runs.sort((a, b) => a.left - b.left)));
}

/**
 * Runs of words a space apart, as Textract sometimes cuts one label into two LINEs ("ISEE" "ristretto"): one run
 * again, so that a label is not taken for two. A space is under two letters wide; labels set apart are wider apart.
 */
function joinWords(row: Placed[]): Placed[] {
  const letter = (r: Placed) => (r.right - r.left) / Math.max(1, r.text.length);
  return row.reduce<Placed[]>((joined, run) => {
    const last = joined.at(-1);
    const oneLabel =
      last !== undefined &&
      isLabel(last) &&
      isLabel(run) &&
      run.left - last.right <= 2 * Math.min(letter(last), letter(run)) &&
      // Two labels each naming a value (a table's headings "ISE" "ISR" "ISP") stay apart, however close.
      !(namesValue(last.text) && namesValue(run.text));
    if (!oneLabel) return [...joined, run];
    const text = `${last.text} ${run.text}`;
    return [
      ...joined.slice(0, -1),
      {
        text,
        confidence: Math.min(last.confidence, run.confidence),
        left: last.left,
        right: run.right,
        top: Math.min(last.top, run.top),
        bottom: Math.max(last.bottom, run.bottom),
        middle: (Math.min(last.top, run.top) + Math.max(last.bottom, run.bottom)) / 2,
      },
    ];
  }, []);
}

const join = (runs: Placed[]): TextLine => ({
  text: runs.map((r) => r.text).join('  '),
  confidence: Math.min(...runs.map((r) => r.confidence)),
});

/** A figure: an amount, a scale, a date (a run that is a value, not a label). */
const FIGURE = /^[^\p{L}]*\d[\d.,;' /-]*[^\p{L}]*$|^[^\p{L}]*(€|eur|euro)?\s*\d[\d.,;' ]*\s*(€|eur|euro)?[^\p{L}]*$/iu;
/** What a table prints under an indicator that does not apply: a dash, "n.d.", "non dovuto". */
export const NO_VALUE = /^\s*(?:[-–—]+|n\.?\s?d\.?|n\/a|non\s+(?:dovut|presente|calcolat)\p{L}*)\s*$/iu;
// A figure OCR slipped in ("l15.485,28", "1,O0") is still a figure.
const isFigure = (run: Placed) => FIGURE.test(repairFigures(run.text)) || NO_VALUE.test(run.text);
/** Words, with no figure: a digit OCR put inside a word ("Econom1ca", "0rdinario") does not make it one. */
const isLabel = (run: Placed) => {
  const words = run.text.replace(/(?<=\p{L})\d(?=\p{L})|(?<![\p{L}\d])[01](?=\p{L}{2})/gu, 'i');
  return /\p{L}{2}/u.test(words) && !/\d/.test(words);
};
const overlap = (a: Placed, b: Placed) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
/** How far apart two runs are across the page: 0 when one stands over the other. */
const apart = (a: Placed, b: Placed) => Math.max(0, -overlap(a, b));

/**
 * A row of labels over a row of figures, as a summary box prints two indicators side by side: each figure
 * goes with the label above it (the one it overlaps most), so a missing figure never shifts the others
 * onto the wrong label. A label with no figure under it comes first, alone, so no figure follows it.
 */
function labelsOverFigures(labels: Placed[], figures: Placed[]): TextLine[] | null {
  if (labels.length < 2 || !labels.every(isLabel) || !figures.every(isFigure)) return null;
  const under = new Map<Placed, Placed[]>();
  for (const figure of figures) {
    const label = labels.reduce((best, l) => (overlap(l, figure) > overlap(best, figure) ? l : best));
    if (overlap(label, figure) <= 0) return null;
    under.set(label, [...(under.get(label) ?? []), figure]);
  }
  return [
    ...labels.filter((l) => !under.has(l)).map((l) => join([l])),
    ...labels.filter((l) => under.has(l)).map((l) => join([l, ...under.get(l)!])),
  ];
}

/**
 * Blocks printed side by side (the ordinary ISEE's on the left, the reduced one's on the right): from a row
 * where two or more runs name a value of the attestation (a heading, ISE, scala, ISEE: namesValue), each such
 * run starts a column, and the rows below stay in those columns while no run straddles a column's edge. Each
 * column is read down on its own, its runs put in rows of their own (on a curled photo the right-hand column's
 * rows are not level with the left's), before the next. The columns end at a row where a label's figure lies
 * across an edge (a label on the left, its value in the next column: one row, not two columns), or a figure
 * stands under nothing of its own column: those are read as rows, and the parser flags what does not line up.
 *
 * A table of indicators (their headings across, the labels ISE, scala, ISEE down its first column, a value or
 * a dash in each cell) is read one indicator at a time: its heading, then each row's label with that
 * indicator's cell, the cell being the one under the heading it overlaps most (or clearly nearest to). A table
 * the other way round (ISE, scala, ISEE across, one indicator a row) is read a row at a time, as blocks.
 */
function sideBySide(rows: Placed[][], first: number): { lines: TextLine[]; rows: number } | null {
  const heads = rows[first].filter((r) => namesValue(r.text));
  if (heads.length < 2) return null;
  const height = median(rows[first].map((r) => r.bottom - r.top));
  const near = (i: number) =>
    Math.min(...rows[i].map((r) => r.top)) - Math.max(...rows[i - 1].map((r) => r.bottom)) <= 2.5 * height;
  const table = matrix(rows, first, heads, near, height);
  if (table) return table;

  // Where each column after the first starts: its head's left edge, give or take what a photo's slant moves a
  // left edge sideways down a block (the rows are levelled, not the columns).
  const edges = heads.slice(1).map((h) => h.left);
  const SLACK = 0.02;
  const columnOf = (run: Placed) => edges.filter((edge) => run.left >= edge - SLACK).length;
  const straddles = (run: Placed) => edges.some((edge) => run.left < edge - SLACK && run.right > edge + SLACK);
  const columns: Placed[][] = [[], ...edges.map(() => [])];
  const unlabelled = columns.map(() => 0);
  let end = first;
  for (let i = first; i < rows.length; i++) {
    const row = rows[i];
    if (row.some(straddles) || (i > first && !near(i))) break;
    const split: Placed[][] = [[], ...edges.map(() => [])];
    for (const run of row) split[columnOf(run)].push(run);
    // A label whose value lies across the edge: "ISE …" on the left, "25.415,13" right of it.
    const across = split.some(
      (runs, k) =>
        k > 0 && runs.length > 0 && split[k - 1].length > 0 && isLabel(split[k - 1].at(-1)!) && isFigure(runs[0]),
    );
    // A row of figures alone: each under a label of its own column above.
    const stray =
      row.every(isFigure) &&
      row.some((figure) => !columns[columnOf(figure)].some((above) => !isFigure(above) && overlap(above, figure) > 0));
    if (i > first && (across || stray)) break;
    split.forEach((runs, k) => columns[k].push(...runs));
    split.forEach((runs, k) => {
      if (k > 0 && i > first && runs.length > 0 && isFigure(runs[0])) unlabelled[k]++;
    });
    end = i + 1;
  }
  // Figures on several rows of a column with no label of their own: a table whose labels are elsewhere, not blocks.
  if (unlabelled.some((count) => count > 1)) return null;
  return end - first >= 2 ? { lines: columns.flatMap((column) => rowsOf(column).map(join)), rows: end - first } : null;
}

/** The table of indicators of sideBySide: null unless the rows under the headings start with a label left of them all. */
function matrix(
  rows: Placed[][],
  first: number,
  headings: Placed[],
  near: (i: number) => boolean,
  height: number,
): { lines: TextLine[]; rows: number } | null {
  let heads = headings;
  const leftmost = Math.min(...heads.map((h) => h.left));
  let i = first + 1;
  // Headings a narrow column printed on two rows ("ISEE" over "ORDINARIO"): each second row's words under its heading.
  const second = rows[i]?.length && near(i) ? rows[i] : [];
  if (
    second.length > 0 &&
    second.every((r) => isLabel(r) && r.left >= leftmost - 0.02 && !namesValue(r.text)) &&
    second.every((r) => heads.filter((h) => overlap(h, r) > 0).length === 1)
  ) {
    heads = heads.map((head) => {
      const below = second.filter((r) => overlap(head, r) > 0);
      if (!below.length) return head;
      const text = [head.text, ...below.map((r) => r.text)].join(' ');
      return {
        ...head,
        text,
        left: Math.min(head.left, ...below.map((r) => r.left)),
        right: Math.max(head.right, ...below.map((r) => r.right)),
      };
    });
    i++;
  }
  const body: { label: Placed[]; cells: Map<Placed, Placed[]> }[] = [];
  for (; i < rows.length && near(i); i++) {
    const label = rows[i].filter((r) => r.right <= leftmost && !isFigure(r));
    const rest = rows[i].filter((r) => !label.includes(r));
    if (label.length === 0 || !rest.every(isFigure)) break;
    const cells = new Map<Placed, Placed[]>();
    for (const figure of rest) {
      // The heading it stands under, or clearly nearest to (a value right-aligned past a short heading's end), or
      // the one whose column it lies in, from that heading's left edge to the next one's (headings set flush left).
      const [head, second] = [...heads].sort(
        (a, b) => apart(a, figure) - apart(b, figure) || overlap(b, figure) - overlap(a, figure),
      );
      const column = heads.find(
        (h, k) =>
          figure.left >= h.left && figure.right <= (heads[k + 1]?.left ?? h.left + (h.left - heads[k - 1].left)),
      );
      const own = apart(head, figure) === 0 || apart(head, figure) * 1.5 < apart(second, figure) ? head : column;
      if (!own) return null;
      cells.set(own, [...(cells.get(own) ?? []), figure]);
    }
    const above = body.at(-1);
    if (!namesValue(label.map((r) => r.text).join(' '))) {
      // The second row of a label printed on two ("ISEE per" / "prestazioni universitarie"), the cells beside either.
      const wrapped =
        above !== undefined &&
        (above.cells.size === 0 || cells.size === 0) &&
        Math.abs(label[0].left - above.label[0].left) <= 0.02 &&
        Math.min(...label.map((r) => r.top)) - Math.max(...above.label.map((r) => r.bottom)) <= 0.5 * height;
      if (!wrapped) break;
      above.label.push(...label);
      cells.forEach((figures, head) => above.cells.set(head, figures));
      continue;
    }
    body.push({ label, cells });
  }
  if (body.length === 0) return null;
  const name = (row: (typeof body)[number]) => row.label.map((r) => r.text).join(' ');
  // One indicator a row (its name first, ISE / scala / ISEE across): each row is an indicator's block. A row that
  // names no indicator stays one line, its values after its label, for the parser to flag.
  if (!heads.some((head) => namesIndicator(head.text)) && body.some((row) => namesIndicator(name(row))))
    return {
      lines: body.flatMap((row) => {
        const cells = heads.filter((head) => row.cells.has(head));
        return namesIndicator(name(row))
          ? [join(row.label), ...cells.map((head) => join([head, ...row.cells.get(head)!]))]
          : [join([...row.label, ...cells.flatMap((head) => row.cells.get(head)!)])];
      }),
      rows: i - first,
    };
  const lines = heads.flatMap((head) => [
    join([head]),
    ...body.filter((row) => row.cells.has(head)).map((row) => join([...row.label, ...row.cells.get(head)!])),
  ]);
  return { lines, rows: i - first };
}

/**
 * A page's runs as the parser's lines (specks of dust left out): printed rows, top to bottom; a row of labels over a row of figures paired
 * by column; blocks printed side by side read one column after the other.
 */
export function pageLines(runs: PlacedText[]): TextLine[] {
  return linesOf(rowsOf(level(runs.filter((r) => r.text.trim() && !isSpeck(r)))));
}

/** The foot of a page: "Pagina 1 di 2", "Pag. 1/2", also as OCR misreads it ("Paglna 1 dl 2"). */
const PAGE_FOOTER = /^\s*pag(?:[il1|]na|\.)?\s*\d+\s*(?:d[il1|]|\/)\s*\d+\s*$/i;

/**
 * The pages of one document as the parser's lines, read as one long page: each page levelled on its own, then put
 * under the one before as the next row, its footer ("Pagina 1 di 2") kept for the end. A block the page break cut
 * (two blocks side by side whose last rows are on the next page) is read as printed: each value under its own label.
 */
export function documentLines(pages: PlacedText[][]): TextLine[] {
  const stacked: Placed[] = [];
  const footers: Placed[] = [];
  for (const page of pages) {
    const placed = level(page.filter((r) => r.text.trim() && !isSpeck(r)));
    footers.push(...placed.filter((r) => PAGE_FOOTER.test(r.text)));
    const body = placed.filter((r) => !PAGE_FOOTER.test(r.text));
    if (body.length === 0) continue;
    const top = Math.min(...body.map((r) => r.top));
    const gap = median(body.map((r) => r.bottom - r.top)) * 0.8;
    const shift = stacked.length ? Math.max(...stacked.map((r) => r.bottom)) + gap - top : 0;
    stacked.push(
      ...body.map((r) => ({ ...r, top: r.top + shift, bottom: r.bottom + shift, middle: r.middle + shift })),
    );
  }
  return [...linesOf(rowsOf(stacked)), ...rowsOf(footers).map(join)];
}

/** Rows as the parser's lines: a row of labels over a row of figures paired by column, blocks side by side one column after the other. */
function linesOf(rows: Placed[][]): TextLine[] {
  const lines: TextLine[] = [];
  for (let i = 0; i < rows.length; i++) {
    const paired = rows[i + 1] ? labelsOverFigures(rows[i], rows[i + 1]) : null;
    if (paired) {
      lines.push(...paired);
      i++;
      continue;
    }
    const columns = sideBySide(rows, i);
    if (columns) {
      lines.push(...columns.lines);
      i += columns.rows - 1;
      continue;
    }
    lines.push(join(rows[i]));
  }
  return lines;
}

/** The mean confidence of the lines: what a reading that found no value can claim. */
export const meanConfidence = (lines: TextLine[]) =>
  lines.length ? lines.reduce((sum, l) => sum + l.confidence, 0) / lines.length : 0;
