/**
 * The shape of the house (issue 36), reproducible: `npm run report:house` prints, as Markdown tables, from the
 * same dependency-cruiser graph test/unit/dependencies.test.ts checks:
 * - the folder pairs of functions/ that import each other, and the import graph collapsed to folders (its layers
 *   and the imports that run back up, i.e. inside a circle);
 * - the web features that import another feature;
 * - the files over 300 lines;
 * - the files a monthly export and a citizen's payment pass through, following the run-time imports from their
 *   Lambdas' entries (functions/entry/<lambda>.ts) in the order each file writes them;
 * - where a few small rules are stated, found by the regular expressions printed beside them (a grep: it finds
 *   how the rule is written today, not every way it could be).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult, type IDependency } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { repoRoot } from './portal-function.ts';

type Module = ICruiseResult['modules'][number];

const productFolders = ['functions', 'web/src', 'lib', 'bin'];

export async function cruiseTheProduct(): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(path.join(repoRoot, '.dependency-cruiser.mjs'));
  const { output } = await cruise(['functions', 'web/src', 'lib'], options, undefined, {
    tsConfig: extractTSConfig(path.join(repoRoot, 'tsconfig.json')),
  });
  return output as ICruiseResult;
}

const table = (header: string[], rows: (string | number)[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

/** functions/<folder>/… → "<folder>"; functions/routes.ts → "routes.ts"; outside functions/ → undefined. */
export const functionsFolder = (file: string): string | undefined => {
  const match = /^functions\/([^/]+)/.exec(file);
  return match?.[1];
};

/** The import graph of functions/ collapsed to folders: folder → the folders it imports (itself excluded). */
export function folderGraph(modules: Module[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = functionsFolder(module.source);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dependency of module.dependencies) {
      const to = functionsFolder(dependency.resolved);
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** Strongly connected components (Tarjan): the folders that reach each other round a loop. */
function components(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return found;
}

/**
 * Layers of the folder graph: a circle counts as one node; a folder's layer is one above the highest layer it
 * imports (0: imports no other folder). An import "runs back up" when it stays inside a circle.
 */
export function layers(graph: Map<string, Set<string>>) {
  const circles = components(graph);
  const circleOf = new Map(circles.flatMap((c, i) => c.map((folder) => [folder, i] as const)));
  const layerOfCircle = new Map<number, number>();
  const layerOf = (circle: number): number => {
    if (layerOfCircle.has(circle)) return layerOfCircle.get(circle)!;
    layerOfCircle.set(circle, 0); // Tarjan's order makes the condensation acyclic; this only guards recursion.
    let layer = 0;
    for (const folder of circles[circle])
      for (const next of graph.get(folder) ?? [])
        if (circleOf.get(next) !== circle) layer = Math.max(layer, layerOf(circleOf.get(next)!) + 1);
    layerOfCircle.set(circle, layer);
    return layer;
  };
  const folderLayers = new Map([...graph.keys()].map((folder) => [folder, layerOf(circleOf.get(folder)!)]));
  const backUp = [...graph].flatMap(([from, tos]) =>
    [...tos].filter((to) => circleOf.get(to) === circleOf.get(from)).map((to) => [from, to] as const),
  );
  return { folderLayers, circles: circles.filter((c) => c.length > 1), backUp };
}

/** Pairs of folders that import each other. */
export const mutualPairs = (graph: Map<string, Set<string>>) =>
  [...graph].flatMap(([from, tos]) =>
    [...tos].filter((to) => from < to && graph.get(to)?.has(from)).map((to) => [from, to] as const),
  );

/** Web features that import another feature: [from feature, to feature, importing file]. */
export const featureImports = (modules: Module[]) =>
  modules.flatMap((module) => {
    const from = /^web\/src\/features\/([^/]+)\//.exec(module.source)?.[1];
    if (!from) return [];
    return module.dependencies.flatMap((dependency) => {
      const to = /^web\/src\/features\/([^/]+)\//.exec(dependency.resolved)?.[1];
      return to && to !== from ? [[from, to, module.source] as const] : [];
    });
  });

const isRuntime = (dependency: IDependency) =>
  !dependency.dependencyTypes.some((type) => type === 'type-only' || type === 'type-import');
const isLazy = (dependency: IDependency) => dependency.dependencyTypes.includes('dynamic-import');

/**
 * The files an entry loads, depth first in the order each file writes its imports (run-time imports only; the
 * pure domain is counted apart, as every file reaches it).
 */
export function trace(modules: Module[], entry: string) {
  const bySource = new Map(modules.map((module) => [module.source, module]));
  const seen = new Set<string>();
  const rows: { depth: number; file: string; lazy: boolean }[] = [];
  const domain = new Set<string>();
  const visit = (file: string, depth: number, lazy: boolean) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.startsWith('functions/domain/')) {
      domain.add(file);
      return;
    }
    rows.push({ depth, file, lazy });
    const module = bySource.get(file);
    if (!module) return;
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const imports = module.dependencies
      .filter((d) => isRuntime(d) && d.resolved.startsWith('functions/'))
      .sort((a, b) => text.indexOf(`'${a.module}'`) - text.indexOf(`'${b.module}'`));
    for (const dependency of imports) visit(dependency.resolved, depth + 1, lazy || isLazy(dependency));
  };
  visit(entry, 0, false);
  return { rows, domain: [...domain].sort() };
}

/** The folders in the order the trace first reaches them. */
const folderChain = (rows: { file: string }[]) => [
  ...new Set(rows.map((row) => functionsFolder(row.file)).filter((folder) => folder !== undefined)),
];

/** Product source files (not tests) with their line counts. */
function sourceFiles(): { file: string; lines: number }[] {
  const files: string[] = [];
  for (const folder of productFolders) {
    for (const entry of readdirRecursive(path.join(repoRoot, folder)))
      if (/\.(ts|tsx|mjs)$/.test(entry)) files.push(path.relative(repoRoot, entry));
  }
  return files.map((file) => ({ file, lines: readFileSync(path.join(repoRoot, file), 'utf8').split('\n').length - 1 }));
}

function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules')
    .flatMap((entry) =>
      entry.isDirectory() ? readdirRecursive(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
}

/** The small rules issue 36 names, each with the patterns that state it. */
const rules: { rule: string; patterns: RegExp[]; unless?: RegExp; scope?: RegExp }[] = [
  {
    rule: 'open position (neither paid nor cancelled)',
    patterns: [
      /!\s*[\w.?]*isPagato\s*&&\s*!\s*[\w.?]*annullato|!\s*[\w.?]*annullato\s*&&\s*!\s*[\w.?]*isPagato/,
      /[\w.?]*annullato\s*\|\|\s*[\w.?]*isPagato|[\w.?]*isPagato\s*\|\|\s*[\w.?]*annullato/,
      /isPagato\s*=\s*\$\{[^}]*\}\s*AND\s*annullato|annullato\s*=\s*\$\{[^}]*\}\s*AND\s*isPagato/,
    ],
  },
  {
    rule: 'money: euro display (Intl currency EUR, euro helpers)',
    patterns: [/currency:\s*'EUR'/, /(const|function)\s+\w*[eE]uro\w*\s*[=(]/],
  },
  {
    rule: 'money: cents ↔ euro',
    patterns: [
      /\b\w*[cC]ents\s*\/\s*100\b/,
      /Math\.round\([^)]*\*\s*100\)(?!\s*\/)/,
      /Math\.trunc\(\w*cents\w* \/ 100\)/i,
    ],
    unless: /percent|fraction|%/,
  },
  {
    rule: 'decimal comma ↔ point (money and hours, input and display)',
    patterns: [/replace\('\.',\s*','\)|replace\(',',\s*'\.'\)|replace\(\/,\/g?,\s*'\.'\)/],
  },
  {
    rule: 'dd/mm/yyyy',
    patterns: [/day:\s*'2-digit'/, /split\('-'\)\.reverse\(\)\.join\('\/'\)/, /'dd\/MM\/yyyy'/],
  },
  {
    rule: 'fiscal-code check',
    patterns: [/\[A-Z\]\{6\}|\[A-Za-z\]\{6\}/, /CHECK_ODD|checkCharacter|controlChar|fiscalCodeCheck/i],
  },
  {
    rule: 'the year (Rome, not the browser/UTC)',
    patterns: [/getFullYear\(\)|getUTCFullYear\(\)/, /timeZone:\s*'Europe\/Rome',\s*year/],
    scope: /^(web\/src|functions)\//,
  },
];

function rulePlaces(files: { file: string }[]) {
  const rows: string[][] = [];
  for (const { rule, patterns, unless, scope } of rules) {
    for (const { file } of files) {
      if ((scope && !scope.test(file)) || file === 'lib/report-house.ts') continue;
      const lines = readFileSync(path.join(repoRoot, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) return; // comments state nothing the code runs
        if (patterns.some((pattern) => pattern.test(line)) && !unless?.test(line))
          rows.push([rule, `\`${file}:${i + 1}\``, `\`${line.trim().slice(0, 90).replaceAll('|', '\\|')}\``]);
      });
    }
  }
  return rows;
}

/** The two paths issue 36 asks after, by the Lambdas they run in. */
const paths = [
  {
    name: 'A monthly export',
    entries: [
      ['the flows API (the operator sends the month)', 'functions/entry/flows.ts'],
      ["the state machine's task on MyPay", 'functions/entry/flow-task.ts'],
    ],
  },
  {
    name: "A citizen's payment",
    entries: [["the citizen's positions API ('Paga' and the return)", 'functions/entry/user-positions.ts']],
  },
] as const;

export async function houseReport(): Promise<string> {
  const result = await cruiseTheProduct();
  const modules = result.modules;
  const graph = folderGraph(modules);
  const { folderLayers, circles, backUp } = layers(graph);
  const out: string[] = [];

  const pairs = mutualPairs(graph);
  out.push(`## Folder pairs of functions/ that import each other: ${pairs.length}\n`);
  if (pairs.length)
    out.push(
      table(
        ['folder', 'folder'],
        pairs.map((p) => [...p]),
      ),
    );

  const edges = [...graph.values()].reduce((n, tos) => n + tos.size, 0);
  out.push(
    `\n## The import graph of functions/ collapsed to folders: ${graph.size} folders, ${edges} imports, ` +
      `${circles.length} circles, ${backUp.length} imports running back up\n`,
  );
  const byLayer = new Map<number, string[]>();
  for (const [folder, layer] of folderLayers) byLayer.set(layer, [...(byLayer.get(layer) ?? []), folder]);
  out.push(
    table(
      ['layer', 'folders'],
      [...byLayer]
        .sort(([a], [b]) => a - b)
        .map(([layer, folders]) => [
          layer,
          folders
            .sort()
            .map((f) => `\`${f}\``)
            .join(', '),
        ]),
    ),
  );
  if (circles.length) out.push('\nCircles:\n\n' + circles.map((c) => `- ${c.join(', ')}`).join('\n'));
  if (backUp.length)
    out.push(
      '\n' +
        table(
          ['import running back up, from', 'to'],
          backUp.map(([from, to]) => [from, to]),
        ),
    );

  const features = featureImports(modules);
  out.push(`\n## Web features importing another feature: ${features.length}\n`);
  if (features.length)
    out.push(
      table(
        ['feature', 'imports', 'file'],
        features.map((f) => [...f]),
      ),
    );

  const files = sourceFiles();
  const large = files.filter((f) => f.lines > 300).sort((a, b) => b.lines - a.lines);
  out.push(`\n## Files over 300 lines (${productFolders.join(', ')}; tests apart): ${large.length}\n`);
  out.push(
    table(
      ['file', 'lines'],
      large.map((f) => [`\`${f.file}\``, f.lines]),
    ),
  );

  for (const { name, entries } of paths) {
    out.push(`\n## ${name}: the files it passes through\n`);
    for (const [lambda, entry] of entries) {
      const { rows, domain } = trace(modules, entry);
      out.push(`\n### ${lambda}: \`${entry}\`\n`);
      out.push(`Folders in order: ${folderChain(rows).join(' → ')}\n`);
      out.push(
        table(
          ['#', 'file (indented by import depth)', 'loaded'],
          rows.map((row, i) => [i + 1, `${'· '.repeat(row.depth)}\`${row.file}\``, row.lazy ? 'lazily' : 'at start']),
        ),
      );
      out.push(
        `\nand ${domain.length} files of the pure domain: ${domain.map((f) => path.basename(f, '.ts')).join(', ')}`,
      );
    }
  }

  out.push('\n## Where each small rule is stated (grep, comments skipped)\n');
  out.push(
    rules
      .map(({ rule, patterns, unless }) => {
        const shown = patterns.map((p) => `\`${p.source}\``).join(', ');
        return `- ${rule}: ${shown}${unless ? `, not on lines matching \`${unless.source}\`` : ''}`;
      })
      .join('\n') + '\n',
  );
  out.push(table(['rule', 'where', 'line'], rulePlaces(files)));
  return out.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) console.log(await houseReport());
