import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/**
 * Dependencies one way (design.md §2): the rules of .dependency-cruiser.mjs (no import circle between files nor
 * between folders of functions/, the entries and the route table on top, adapters on the domain only, product
 * code never on lib/local, a pure domain, repositories on their own items, no web feature on another) over the
 * product's code.
 */
async function cruiseTheProduct(): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions('./.dependency-cruiser.mjs');
  // The tsconfig's paths (@domain/*, @/*) resolve the web's and the tests' aliased imports.
  const { output } = await cruise(['functions', 'web/src', 'lib'], options, undefined, {
    tsConfig: extractTSConfig('tsconfig.json'),
  });
  return output as ICruiseResult;
}

const describeViolation = ({ rule, from, to, cycle }: ICruiseResult['summary']['violations'][number]) =>
  cycle?.length
    ? `${rule.name}: ${[from, ...cycle.map((step) => step.name)].join(' → ')}`
    : `${rule.name}: ${from} → ${to}`;

describe('dependencies', () => {
  it('go one way: no circle between files nor folders, entries on top, adapters on the domain, nothing on lib/local, a pure domain, each repository on its own items, no web feature on another', async () => {
    const result = await cruiseTheProduct();
    // A cruise that resolved nothing would find no violation: it must have followed the route table's imports.
    expect(
      result.modules.find((module) => module.source === 'functions/routes.ts')?.dependencies.map((d) => d.resolved),
    ).toContain('functions/bands/routes.ts');
    expect(
      result.modules
        .find((module) => module.source === 'web/src/app/router.tsx')
        ?.dependencies.some((d) => d.resolved.startsWith('web/src/features/')),
    ).toBe(true);
    expect(result.summary.violations.map(describeViolation)).toEqual([]);
  }, 120_000);
});
