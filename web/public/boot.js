/*
 * Runs before the body is parsed (a classic script in index.html's head; the CSP allows scripts from 'self'
 * only, so it cannot be inline). It tells the prerendered shell of index.html what to show until the app
 * takes over (web/src/app/prerender.ts):
 * - data-portal-cookies="accepted" when the cookie notice was accepted (the prerendered bar stays hidden);
 * - data-portal-home="CITIZEN" | "OPERATOR" on the home page of a tab that holds a session: the role of its
 *   last profile (a hint kept by web/src/lib/auth.tsx), so that the role's heading shows before any script
 *   of the app has run. Only a picture: the app decides what the user sees and may do (from /api/me).
 * - data-portal-platform="gpd" there too, when the app last read paymentPlatform "gpd" in /config.json: the
 *   operator's menu reads 'Flussi pagoPA' instead of 'Flussi MyPay' (the shell carries both).
 * Nothing here is trusted for access, and nothing is read but this tab's own storage.
 */
(function () {
  var root = document.documentElement;
  var COOKIES_KEY = 'portale.cookieBar.accepted';
  try {
    if (window.localStorage.getItem(COOKIES_KEY) === 'true') root.setAttribute('data-portal-cookies', 'accepted');
  } catch (e) {
    // No storage: the bar shows, as the app would show it.
  }
  // 'Ho capito' on the shell's notice works before the app has arrived (the app's bar hears of it:
  // app/layout/cookie-bar.tsx).
  document.addEventListener('click', function (event) {
    var target = event.target;
    if (!(target instanceof Element) || !target.closest('#portal-prerender .portal-cookiebar__button')) return;
    try {
      window.localStorage.setItem(COOKIES_KEY, 'true');
    } catch (e) {
      // Storage refused: the notice goes away for this visit only.
    }
    root.setAttribute('data-portal-cookies', 'accepted');
    window.dispatchEvent(new Event('portale:cookies-accepted'));
  });
  try {
    if (window.location.pathname !== '/') return;
    var storage = window.sessionStorage;
    var signedInAt = Number(storage.getItem('portale.signedInAt'));
    var holdsUser = Object.keys(storage).some(function (key) {
      return key.indexOf('oidc.user:') === 0;
    });
    // The spec's 9-hour session (SESSION_MAX_AGE_MS in auth.tsx): an expired tab goes to the landing page.
    if (!holdsUser || !(signedInAt > 0) || signedInAt + 32400000 <= Date.now()) return;
    var role = storage.getItem('portale.role');
    if (role !== 'CITIZEN' && role !== 'OPERATOR') return;
    root.setAttribute('data-portal-home', role);
    // The operator's menu names the deployment's payment platform ('Flussi pagoPA' on GPD), as /config.json told the app.
    if (storage.getItem('portale.platform') === 'gpd') root.setAttribute('data-portal-platform', 'gpd');
    var greeting = storage.getItem('portale.greeting');
    if (role === 'CITIZEN' && greeting) {
      // The heading is parsed after this script: fill it in once the document is parsed (before the app runs).
      document.addEventListener('readystatechange', function fill() {
        var heading = document.getElementById('portal-prerender-greeting');
        if (!heading) return;
        heading.textContent = 'Ciao, ' + greeting;
        document.removeEventListener('readystatechange', fill);
      });
    }
  } catch (e) {
    // No session storage: the shell shows no role's page, the app shows it when it knows the session.
  }
})();
