/**
 * The web's first-load budget: the JavaScript and CSS that index.html makes every visitor download
 * before anything shows (entry script, module preloads, stylesheets), gzipped (design.md §6: JS ≤ 135 KB,
 * CSS ≤ 30 KB). Also: no source map is published with the site, and no Amplify theme is computed by the first
 * load. Run after `npm run build:web`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = { js: 135, css: 30 };

const dist = path.resolve('web/dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(js|css))"/g)].map(([, file, kind]) => ({
  file,
  kind: kind as 'js' | 'css',
}));

const totals = { js: 0, css: 0 };
for (const { file, kind } of assets) {
  const gzipped = gzipSync(fs.readFileSync(path.join(dist, file))).length / 1024;
  totals[kind] += gzipped;
  console.log(`${file.padEnd(48)} ${gzipped.toFixed(1).padStart(7)} KB gzip`);
}

let failed = false;
for (const kind of ['js', 'css'] as const) {
  const ok = totals[kind] <= BUDGET_KB[kind];
  failed ||= !ok;
  console.log(
    `First-load ${kind.toUpperCase()}: ${totals[kind].toFixed(1)} KB gzip (budget ${BUDGET_KB[kind]} KB) ${ok ? 'OK' : 'OVER BUDGET'}`,
  );
}
// No theme computed in the browser: Amplify's createTheme (which writes the theme's `cssText`) is not in the
// first load; its ThemeContext default is built at build time (web/static-theme-context.ts).
const themeBuilders = assets.filter(
  ({ file, kind }) => kind === 'js' && /\bcssText\b/.test(fs.readFileSync(path.join(dist, file), 'utf8')),
);
if (themeBuilders.length > 0) {
  failed = true;
  console.log(`Amplify's createTheme in the first load: ${themeBuilders.map(({ file }) => file).join(', ')}`);
} else {
  console.log('Theme: none computed in the browser');
}
// Source maps would publish the whole source: none in the build, and no asset pointing at one.
const files = fs.readdirSync(dist, { recursive: true, encoding: 'utf8' });
const maps = files.filter((file) => file.endsWith('.map'));
const pointers = files.filter(
  (file) => /\.(js|css)$/.test(file) && /sourceMappingURL=/.test(fs.readFileSync(path.join(dist, file), 'utf8')),
);
if (maps.length > 0 || pointers.length > 0) {
  failed = true;
  console.log(`Source maps in web/dist: ${[...maps, ...pointers].join(', ')}`);
} else {
  console.log('Source maps: none published');
}
process.exit(failed ? 1 : 0);
