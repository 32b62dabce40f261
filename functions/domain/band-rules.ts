/**
 * The bands' rules: the hourly quota and the label, without zod, so that the functions that
 * compute fees do not bundle the bands' schemas (bands.ts).
 */

/** percent/100 × fixedCost when the band has a percentage, else fixedCost. */
export function hourlyQuota(band: { percent: number | null; fixedCost: number }): number {
  const quota = band.percent === null ? band.fixedCost : (band.percent / 100) * band.fixedCost;
  return Math.round(quota * 100) / 100;
}

const plainNumber = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const twoDecimals = new Intl.NumberFormat('it-IT', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: 'always',
} as Intl.NumberFormatOptions);

/** How the spec shows a band: 'name (percent% di fixedCost €)' or 'name (fixedCost €)'. */
export function bandLabel(band: { name: string; percent: number | null; fixedCost: number }): string {
  const cost = `${twoDecimals.format(band.fixedCost)} €`;
  return band.percent === null
    ? `${band.name} (${cost})`
    : `${band.name} (${plainNumber.format(band.percent)}% di ${cost})`;
}
