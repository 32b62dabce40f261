import type { Theme } from '@aws-amplify/ui-react';

/**
 * The portal's look, after the Italian public-administration guidelines (AGID / Designers Italia):
 * Titillium Web, the PA blue #0066CC, neutral greys, 4px corners, strong focus indicators.
 * Every text/background pair used here meets WCAG 2.1 AA (4.5:1 for text).
 *
 * The browser never runs Amplify's createTheme (two runs and a 125 KB <style> on every load with its
 * ThemeProvider): web/theme-css.ts turns this theme into web/src/theme.css, only the CSS variables that
 * differ from Amplify's defaults, and the app wraps its pages in `data-amplify-theme={THEME_NAME}`; the
 * theme context's default (breakpoints, style-prop tokens) is built from it by web/static-theme-context.ts.
 * After a change here run `npx tsx web/theme-css.ts` (a unit test checks that theme.css is up to date).
 */
export const colors = {
  blue: '#0066CC', // on white 5.57:1
  blueHover: '#004D99', // on white 8.4:1
  blueDark: '#003366', // on white 12.6:1
  text: '#1A1A1A',
  textSecondary: '#455B71', // on white 6.9:1
  border: '#8A9BAD',
  surface: '#F2F5F8',
  focus: '#003366',
} as const;

const font = "'Titillium Web', Geneva, Tahoma, sans-serif";

export const THEME_NAME = 'portale-pa';

export const theme: Theme = {
  name: THEME_NAME,
  tokens: {
    fonts: {
      default: {
        variable: { value: font },
        static: { value: font },
      },
    },
    colors: {
      primary: {
        10: { value: '#E6F0FA' },
        20: { value: '#CCE0F5' },
        40: { value: '#80B3E6' },
        60: { value: '#3385D6' },
        80: { value: colors.blue },
        90: { value: colors.blueHover },
        100: { value: colors.blueDark },
      },
      neutral: {
        10: { value: '#F7F9FA' },
        20: { value: colors.surface },
        40: { value: '#D9DADB' },
        60: { value: colors.border },
        80: { value: '#5C6F82' },
        90: { value: colors.textSecondary },
        100: { value: colors.text },
      },
      font: {
        primary: { value: colors.text },
        secondary: { value: colors.textSecondary },
        tertiary: { value: '#5C6F82' },
        interactive: { value: colors.blue },
        hover: { value: colors.blueHover },
        focus: { value: colors.blueDark },
        active: { value: colors.blueDark },
      },
      border: {
        focus: { value: colors.focus },
      },
    },
    radii: {
      xs: { value: '4px' },
      small: { value: '4px' },
      medium: { value: '4px' },
      large: { value: '4px' },
    },
    components: {
      button: {
        fontWeight: { value: '600' },
        borderColor: { value: colors.blue },
        color: { value: colors.blue },
        _hover: {
          color: { value: colors.blueHover },
          backgroundColor: { value: '#E6F0FA' },
          borderColor: { value: colors.blueHover },
        },
        primary: {
          backgroundColor: { value: colors.blue },
          color: { value: '#FFFFFF' },
          _hover: { backgroundColor: { value: colors.blueHover }, color: { value: '#FFFFFF' } },
          _focus: { backgroundColor: { value: colors.blueHover }, color: { value: '#FFFFFF' } },
          _active: { backgroundColor: { value: colors.blueDark }, color: { value: '#FFFFFF' } },
        },
      },
      heading: {
        color: { value: colors.text },
        1: { fontWeight: { value: '700' } },
        2: { fontWeight: { value: '600' } },
        3: { fontWeight: { value: '600' } },
      },
      link: {
        color: { value: colors.blue },
        hover: { color: { value: colors.blueHover } },
        focus: { color: { value: colors.blueDark } },
        active: { color: { value: colors.blueDark } },
        visited: { color: { value: colors.blue } },
      },
      card: {
        borderRadius: { value: '4px' },
      },
    },
  },
};
