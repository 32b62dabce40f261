import { Alert } from '@aws-amplify/ui-react';
import { Suspense, useLayoutEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { audienceOf } from '../access';
import { prerenderShowsHome, takeOverFromPrerender } from '../prerender';
import { useBackspaceGoesBack, useFocusOnNavigation } from '../hooks';
import { BackToTop } from './back-to-top';
import { PortalBreadcrumbs } from './breadcrumbs';
import { CookieBar, useCookieBar } from './cookie-bar';
import { Footer } from './footer';
import { Header } from './header';
import { useKeepFocusVisible } from './keep-focus-visible';
import { PageLoader } from './page-loader';
import { SessionExpiredDialog } from './session-expired-dialog';

export const MAIN_ID = 'contenuto-principale';

/**
 * Inside the page's Suspense boundary, so that it commits with the page, not with the loader: the app
 * takes the place of index.html's prerendered shell once it shows a page (app/prerender.ts). On the home page
 * of a tab holding a session the shell shows the role's heading: the app keeps it until the session is known.
 */
function TakeOverFromPrerender() {
  const { status } = useAuth();
  useLayoutEffect(() => {
    if (status !== 'loading' || !prerenderShowsHome()) takeOverFromPrerender();
  }, [status]);
  return null;
}

/** The frame of every page (spec part 1 §1, part 2 §2.2). */
export function Shell() {
  const auth = useAuth();
  const audience = audienceOf(auth);
  const cookieBar = useCookieBar();
  const { pathname } = useLocation();
  useFocusOnNavigation(MAIN_ID);
  useBackspaceGoesBack();
  useKeepFocusVisible();

  return (
    <div className="portal">
      <span id="inizio-pagina" tabIndex={-1} />
      <a className="portal-skiplink" href={`#${MAIN_ID}`}>
        Vai al contenuto principale
      </a>
      <Header audience={audience} />
      <PortalBreadcrumbs audience={audience} />
      <main id={MAIN_ID} tabIndex={-1} className="portal-main">
        <div className="portal-container">
          {auth.error && pathname !== paths.authCallback && (
            <Alert variation="error" heading="Attenzione" className="portal-main__alert">
              {auth.error}
            </Alert>
          )}
          <Suspense fallback={<PageLoader />}>
            <Outlet />
            <TakeOverFromPrerender />
          </Suspense>
        </div>
      </main>
      <Footer />
      {cookieBar.visible && <CookieBar onAccept={cookieBar.accept} />}
      <BackToTop raised={cookieBar.visible} />
      <SessionExpiredDialog />
      <ScrollRestoration />
    </div>
  );
}
