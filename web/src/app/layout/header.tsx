import { Link, useNavigate } from 'react-router';
import { municipality } from '@/config/municipality';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { onPlatform } from '@/lib/platform';
import type { Audience } from '../access';
import { menus } from '../menus';
import { MainMenu } from './main-menu';

/** The council's emblem: a plain shield, decorative (the council's name is written beside it). */
function Emblem() {
  return (
    <svg
      className="portal-brand__emblem"
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 48 56"
      width="40"
      height="46"
    >
      <path d="M24 2 4 9v17c0 13 8.6 22.8 20 28 11.4-5.2 20-15 20-28V9z" fill="#fff" />
      <path d="M24 7 9 12.3V26c0 10 6.3 17.9 15 22.2C32.7 43.9 39 36 39 26V12.3z" fill="#0066CC" />
      <path d="M14 30c4-7 7-10 10-10s6 3 10 10c-3.5-2.5-6.5-3.6-10-3.6S17.5 27.5 14 30z" fill="#fff" />
      <circle cx="24" cy="16" r="3" fill="#fff" />
    </svg>
  );
}

export function Header({ audience }: { audience: Audience }) {
  const { status, me, signIn, signOut } = useAuth();
  const navigate = useNavigate();
  const signedIn = status === 'signed-in' && me !== null;
  // The profile belongs to citizens; a profile with a working entity has none (spec part 1 §1).
  const showProfile = signedIn && me.role === 'CITIZEN' && !me.workingEntityId;

  return (
    <header className="portal-header">
      <div className="portal-header__slim">
        <div className="portal-container portal-header__slim-row">
          <span className="portal-header__office">{municipality.office}</span>
          <div className="portal-header__account">
            {status === 'loading' ? null : signedIn ? (
              <>
                <span className="portal-header__user">{me.fullName}</span>
                {showProfile && (
                  <Link to={paths.profile} className="portal-header__action">
                    Profilo
                  </Link>
                )}
                <button
                  type="button"
                  className="portal-header__action"
                  onClick={() => void signOut().then(() => navigate(paths.home))}
                >
                  Esci
                </button>
              </>
            ) : (
              <button
                type="button"
                className="portal-header__action portal-header__signin"
                onClick={() => void signIn()}
              >
                <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 24 24">
                  <path
                    fill="currentColor"
                    d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z"
                  />
                </svg>
                Accedi
              </button>
            )}
          </div>
        </div>
      </div>
      <div className="portal-header__center">
        <div className="portal-container">
          <Link to={paths.home} className="portal-brand">
            <Emblem />
            <span className="portal-brand__text">
              <span className="portal-brand__name">{municipality.name}</span>
              <span className="portal-brand__tagline">{municipality.portalName}</span>
            </span>
          </Link>
        </div>
      </div>
      <MainMenu items={menus[audience].map((item) => ({ ...item, label: onPlatform(item.label) }))} />
    </header>
  );
}
