import { Button } from '@aws-amplify/ui-react';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

const KEY = 'portale.cookieBar.accepted';

const readAccepted = () => {
  try {
    return window.localStorage.getItem(KEY) === 'true';
  } catch {
    return false;
  }
};

/** Accepted on the prerendered shell's notice before the app took its place (public/boot.js). */
export const COOKIES_ACCEPTED_EVENT = 'portale:cookies-accepted';

export function useCookieBar() {
  const [accepted, setAccepted] = useState(readAccepted);
  useEffect(() => {
    const heard = () => setAccepted(true);
    window.addEventListener(COOKIES_ACCEPTED_EVENT, heard);
    return () => window.removeEventListener(COOKIES_ACCEPTED_EVENT, heard);
  }, []);
  const accept = () => {
    try {
      window.localStorage.setItem(KEY, 'true');
    } catch {
      // Storage refused (private mode): the bar goes away for this visit only.
    }
    setAccepted(true);
  };
  return { visible: !accepted, accept };
}

/** The cookie notice: the portal uses technical cookies only (spec part 1 §1). */
export function CookieBar({ onAccept }: { onAccept: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useKeepFocusAboveBar(ref);
  return (
    <section ref={ref} className="portal-cookiebar" aria-labelledby="cookiebar-title">
      <div className="portal-container portal-cookiebar__row">
        <div>
          <h2 id="cookiebar-title" className="visually-hidden">
            Informativa sui cookie
          </h2>
          <p>
            Questo portale utilizza solo cookie tecnici, necessari al suo funzionamento: nessun cookie di
            profilazione o di terze parti. <Link to={paths.privacy}>Leggi l’informativa privacy</Link>.
          </p>
        </div>
        <Button variation="primary" onClick={onAccept} className="portal-cookiebar__button">
          Ho capito
        </Button>
      </div>
    </section>
  );
}

/**
 * The bar sticks to the bottom of the window: while it shows, the page's scroll padding at the bottom is the
 * bar's height plus the room of 'Torna su' (styles.css), so a control that gets the focus (Tab, a form's
 * first invalid field) is scrolled fully above the bar instead of under it (WCAG 2.4.11). Follows the bar's
 * height as it wraps. (The padding itself is written, not an inherited custom property: changing one of
 * those on the root restyles the whole page.)
 */
function useKeepFocusAboveBar(ref: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty('scroll-padding-bottom', `calc(${bar.getBoundingClientRect().height}px + var(--portal-backtotop-room))`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty('scroll-padding-bottom');
    };
  }, [ref]);
}
