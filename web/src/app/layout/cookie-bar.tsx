import { Button } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
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
  return (
    <section data-floating="" className="portal-cookiebar" aria-labelledby="cookiebar-title">
      <div className="portal-container portal-cookiebar__row">
        <div>
          <h2 id="cookiebar-title" className="visually-hidden">
            Informativa sui cookie
          </h2>
          <p>
            Questo portale utilizza solo cookie tecnici, necessari al suo funzionamento: nessun cookie di profilazione o
            di terze parti. <Link to={paths.privacy}>Leggi l’informativa privacy</Link>.
          </p>
        </div>
        <Button variation="primary" onClick={onAccept} className="portal-cookiebar__button">
          Ho capito
        </Button>
      </div>
    </section>
  );
}
