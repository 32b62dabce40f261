import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultTheme } from '@aws-amplify/ui';
import { createTheme } from '@aws-amplify/ui-react';
import { describe, expect, it } from 'vitest';
import { responsiveUtilsSource, staticThemeContextSource } from '../../web/static-theme-context.ts';
import { theme } from '../../web/src/theme.ts';

type Tree = { [key: string]: unknown };

/** Every design token (an object with a `value`) under a tree: path → value. */
function tokenPaths(tree: Tree, prefix: string[] = []): Map<string, unknown> {
  if ('value' in tree) return new Map([[prefix.join('.'), tree.value]]);
  const paths = new Map<string, unknown>();
  for (const [key, child] of Object.entries(tree)) {
    if (typeof child === 'object' && child !== null)
      for (const entry of tokenPaths(child as Tree, [...prefix, key])) paths.set(...entry);
  }
  return paths;
}

describe("Amplify's theme context built at build time (web/static-theme-context.ts)", () => {
  it('holds the breakpoints and every style-prop token of createTheme(theme), and computes nothing in the browser', async () => {
    const source = await staticThemeContextSource();
    const json = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(source)![1];
    const built = JSON.parse(JSON.parse(json) as string) as { name: string; breakpoints: unknown; tokens: Tree };
    const computed = createTheme(theme);

    expect(built.name).toBe('portale-pa');
    expect(built.breakpoints).toEqual(computed.breakpoints);
    // The groups style props map to (`padding="medium"` → space.medium, `color="font.primary"` → colors.font.primary).
    for (const group of [
      'colors',
      'space',
      'fontSizes',
      'fontWeights',
      'fonts',
      'lineHeights',
      'radii',
      'shadows',
      'borderWidths',
      'opacities',
    ]) {
      const expected = tokenPaths((computed.tokens as unknown as Tree)[group] as Tree);
      expect(expected.size).toBeGreaterThan(0);
      expect(tokenPaths(built.tokens[group] as Tree)).toEqual(expected);
    }
    expect(built.tokens.components).toBeUndefined();
    expect(source).not.toMatch(/createTheme|@aws-amplify/);
  }, 60_000);
});

describe("Amplify's responsive helpers without the default theme (web/static-theme-context.ts)", () => {
  const file = fileURLToPath(
    new URL(
      '../../node_modules/@aws-amplify/ui-react/dist/esm/primitives/shared/responsive/utils.mjs',
      import.meta.url,
    ),
  );

  it("read the default theme's breakpoints from a value built at build time, not from the whole theme", async () => {
    const source = await responsiveUtilsSource(fs.readFileSync(file, 'utf8'));
    expect(source).not.toMatch(/@aws-amplify\/ui'/);
    const built = /const defaultTheme = (\{.*\});/.exec(source)![1];
    expect(JSON.parse(built)).toEqual({ breakpoints: { values: defaultTheme.breakpoints.values } });
  });

  it('stop the build when Amplify changes how it imports the theme', async () => {
    await expect(responsiveUtilsSource('export const x = 1;')).rejects.toThrow(/review this plugin/);
  });
});
