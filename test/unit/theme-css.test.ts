import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THEME_CSS, themeCss } from '../../web/theme-css.ts';

describe('the web theme', () => {
  it('theme.css is generated from theme.ts (run `npx tsx web/theme-css.ts` after changing the theme)', () => {
    const css = themeCss();
    expect(css).toContain('--amplify-colors-primary-80: #0066CC;');
    expect(fs.readFileSync(THEME_CSS, 'utf8')).toBe(css);
  }, 60_000);
});
