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

/** A line for the parser: one printed row (or one column's label with its value), and how sure its reading is. */
export interface TextLine {
  text: string;
  /** 0–1: the least sure of the runs it is made of. */
  confidence: number;
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
  const upright = ({ X, Y }: Point): Point => [{ X, Y }, { X: Y, Y: 1 - X }, { X: 1 - X, Y: 1 - Y }, { X: 1 - Y, Y: X }][quarter];
  const turned = runs.map((run) => ({ run, corners: run.polygon.map(upright) }));

  // The slope of the rows: the median over runs long enough to show it.
  const slopes = turned
    .filter(({ corners: [a, b] }) => b.X - a.X > 0.05)
    .map(({ corners: [a, b] }) => (b.Y - a.Y) / (b.X - a.X));
  const slope = median(slopes);

  return turned.map(({ run, corners }) => {
    const level = corners.map((p) => ({ X: p.X, Y: p.Y - slope * p.X }));
    const xs = level.map((p) => p.X);
    const top = (level[0].Y + level[1].Y) / 2;
    const bottom = (level[2].Y + level[3].Y) / 2;
    return { text: run.text, confidence: run.confidence, left: Math.min(...xs), right: Math.max(...xs), top, bottom, middle: (top + bottom) / 2 };
  });
}

/** Two runs share a row when each one's middle lies within the other's height. */
const sameRow = (a: { top: number; bottom: number; middle: number }, b: Placed) =>
  b.middle > a.top && b.middle < a.bottom && a.middle > b.top && a.middle < b.bottom;

/** The runs of one page, as printed rows from the top, each row's runs left to right. */
function rowsOf(runs: PlacedText[]): Placed[][] {
  const rows: { runs: Placed[]; top: number; bottom: number; middle: number }[] = [];
  for (const run of level(runs).sort((a, b) => a.middle - b.middle)) {
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
  return rows.map((r) => r.runs.sort((a, b) => a.left - b.left));
}

const join = (runs: Placed[]): TextLine => ({ text: runs.map((r) => r.text).join('  '), confidence: Math.min(...runs.map((r) => r.confidence)) });

/** A figure: an amount, a scale, a date (a run that is a value, not a label). */
const FIGURE = /^[^\p{L}]*\d[\d.,;' /-]*[^\p{L}]*$|^[^\p{L}]*(€|eur|euro)?\s*\d[\d.,;' ]*\s*(€|eur|euro)?[^\p{L}]*$/iu;
const isLabel = (run: Placed) => /\p{L}{2}/u.test(run.text) && !/\d/.test(run.text);

/**
 * A row of labels over a row of figures, as a summary box prints two indicators side by side: each figure
 * goes with the label above it (the one it overlaps most), so a missing figure never shifts the others
 * onto the wrong label. A label with no figure under it comes first, alone, so no figure follows it.
 */
function labelsOverFigures(labels: Placed[], figures: Placed[]): TextLine[] | null {
  if (labels.length < 2 || !labels.every(isLabel) || !figures.every((f) => FIGURE.test(f.text))) return null;
  const overlap = (a: Placed, b: Placed) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const under = new Map<Placed, Placed[]>();
  for (const figure of figures) {
    const label = labels.reduce((best, l) => (overlap(l, figure) > overlap(best, figure) ? l : best));
    if (overlap(label, figure) <= 0) return null;
    under.set(label, [...(under.get(label) ?? []), figure]);
  }
  return [...labels.filter((l) => !under.has(l)).map((l) => join([l])), ...labels.filter((l) => under.has(l)).map((l) => join([l, ...under.get(l)!]))];
}

/** A page's runs as the parser's lines: printed rows, top to bottom; a row of labels over a row of figures paired by column. */
export function pageLines(runs: PlacedText[]): TextLine[] {
  const rows = rowsOf(runs.filter((r) => r.text.trim()));
  const lines: TextLine[] = [];
  for (let i = 0; i < rows.length; i++) {
    const paired = rows[i + 1] ? labelsOverFigures(rows[i], rows[i + 1]) : null;
    if (paired) {
      lines.push(...paired);
      i++;
    } else {
      lines.push(join(rows[i]));
    }
  }
  return lines;
}

/** The mean confidence of the lines: what a reading that found no value can claim. */
export const meanConfidence = (lines: TextLine[]) => (lines.length ? lines.reduce((sum, l) => sum + l.confidence, 0) / lines.length : 0);
