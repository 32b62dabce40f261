/**
 * A Vite plugin: Amplify UI's ThemeContext with the portal's theme computed at build time.
 *
 * Amplify's ThemeContext module runs `createTheme()` when it is loaded, as the context's default value, even
 * without a ThemeProvider: every visit paid for a whole theme (all component tokens and ~125 KB of CSS text)
 * while the app started, on the main thread before the first paint. The primitives read only two things from
 * that context (`useStyles`, `useThemeBreakpoint`): the breakpoints, and whether a style prop's value names a
 * theme token (`<View padding="medium">` → `var(--amplify-space-medium)`), for the token groups style props
 * map to. This module is built from `createTheme(theme)` (web/src/theme.ts, whose CSS variables theme.css
 * sets) with just those: the breakpoints and the token tree without component tokens, each token reduced to
 * its value. Nothing is computed in the browser. The primitives' responsive helpers, which imported Amplify's
 * whole default theme for its breakpoint names, get those names built here too.
 */
import type { Plugin } from 'vite';
import { theme } from './src/theme.ts';

const THEME_CONTEXT = '/@aws-amplify/ui-react/dist/esm/components/ThemeProvider/ThemeContext.mjs';
const USE_THEME = '/@aws-amplify/ui-react/dist/esm/hooks/useTheme.mjs';
const RESPONSIVE_UTILS = '/@aws-amplify/ui-react/dist/esm/primitives/shared/responsive/utils.mjs';
const DEFAULT_THEME_IMPORT = "import { defaultTheme } from '@aws-amplify/ui';";

/**
 * Amplify's useTheme with the same exports, whose fallback (no context value) is the built theme instead of
 * a `createTheme()` call: createTheme's code then leaves the first load too.
 */
const useThemeSource = [
  "import * as React from 'react';",
  "import { ThemeContext, builtTheme } from '../components/ThemeProvider/ThemeContext.mjs';",
  '// Replaced by web/static-theme-context.ts: the fallback is the theme built at build time.',
  'const getThemeFromContext = (context) => (typeof context === "undefined" || typeof context.theme === "undefined" ? builtTheme : context.theme);',
  'const useTheme = () => getThemeFromContext(React.useContext(ThemeContext));',
  'const useColorMode = () => React.useContext(ThemeContext).colorMode;',
  'export { getThemeFromContext, useColorMode, useTheme };',
  '',
].join('\n');

type Tree = { [key: string]: Tree | unknown };

/** The token tree with each design token (an object with a `value`) reduced to `{ value }`. */
function tokenValues(tree: Tree): Tree {
  if ('value' in tree) return { value: tree.value };
  return Object.fromEntries(
    Object.entries(tree)
      .filter(([, child]) => typeof child === 'object' && child !== null)
      .map(([key, child]) => [key, tokenValues(child as Tree)]),
  );
}

export async function staticThemeContextSource(): Promise<string> {
  const { createTheme } = await import('@aws-amplify/ui-react');
  const { name, breakpoints, tokens } = createTheme(theme);
  const { components: _components, ...styleTokens } = tokens as unknown as Tree;
  const value = { name, breakpoints, tokens: tokenValues(styleTokens) };
  return [
    "import * as React from 'react';",
    "// Built by web/static-theme-context.ts at build time: the portal theme's breakpoints and style-prop tokens.",
    `const theme = JSON.parse(${JSON.stringify(JSON.stringify(value))});`,
    'const ThemeContext = React.createContext({ theme, colorMode: undefined });',
    'export { ThemeContext, theme as builtTheme };',
    '',
  ].join('\n');
}

/**
 * The primitives' responsive helpers import Amplify's whole default theme (every component's tokens, ~20 KB
 * gzipped in the first load) only to read the names of its breakpoints: those names, taken at build time.
 */
export async function responsiveUtilsSource(original: string): Promise<string> {
  if (!original.includes(DEFAULT_THEME_IMPORT)) {
    throw new Error(`${RESPONSIVE_UTILS}: Amplify no longer imports its default theme as expected; review this plugin`);
  }
  const { defaultTheme } = await import('@aws-amplify/ui');
  const built = { breakpoints: { values: defaultTheme.breakpoints.values } };
  return original.replace(
    DEFAULT_THEME_IMPORT,
    `// Replaced by web/static-theme-context.ts: the default theme's breakpoints, built at build time.\nconst defaultTheme = ${JSON.stringify(built)};`,
  );
}

export function staticThemeContext(): Plugin {
  return {
    name: 'portal:static-amplify-theme-context',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0].replaceAll('\\', '/');
      if (file.endsWith(THEME_CONTEXT)) return staticThemeContextSource();
      if (file.endsWith(USE_THEME)) return useThemeSource;
      return null;
    },
    async transform(code, id) {
      const file = id.split('?')[0].replaceAll('\\', '/');
      return file.endsWith(RESPONSIVE_UTILS) ? responsiveUtilsSource(code) : null;
    },
  };
}
