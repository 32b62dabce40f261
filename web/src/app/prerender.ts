/**
 * index.html carries a prerendered shell (#portal-prerender: header, the role's home heading, cookie notice)
 * so that a visit paints before the app's scripts have run; public/boot.js marks <html> with what it shows.
 * The app renders hidden beside it (styles.css) and takes its place in one frame (no layout shift, the same
 * classes) as soon as it has a page to show: at its first render, except on the home page of a tab holding a
 * session (data-portal-home), where it waits until the session is known and the role's page has rendered.
 */
const PRERENDER_ID = 'portal-prerender';

/** The shell shows a role's home page: the app keeps it until it renders that page (or another). */
export const prerenderShowsHome = () => document.documentElement.hasAttribute('data-portal-home');

/** The app takes the shell's place (at most once; later calls do nothing). */
export function takeOverFromPrerender() {
  document.getElementById(PRERENDER_ID)?.remove();
  document.documentElement.removeAttribute('data-portal-home');
}
