import { lazy } from 'react';
import { ROLE_HINT_KEY, useAuth } from '@/lib/auth';
import { audienceOf } from '../access';
import { LandingPage } from './landing';

const operatorDashboard = () => import('./operator-dashboard');
const delegatePanel = () => import('./delegate-panel');
const citizenHome = () => import('./citizen-home');
const OperatorDashboard = lazy(() => operatorDashboard().then((m) => ({ default: m.OperatorDashboard })));
const DelegatePanel = lazy(() => delegatePanel().then((m) => ({ default: m.DelegatePanel })));
const CitizenHome = lazy(() => citizenHome().then((m) => ({ default: m.CitizenHome })));

/**
 * A tab that holds a session starts loading its role's home page while the app starts (the role of its last
 * profile, kept by the auth module), instead of after the OIDC client and the profile have answered.
 * Only a head start: the page shown is still decided by the profile.
 */
function preloadRoleHome() {
  if (window.location.pathname !== '/') return;
  let role: string | null = null;
  try {
    role = window.sessionStorage.getItem(ROLE_HINT_KEY);
  } catch {
    return;
  }
  const load =
    role === 'OPERATOR'
      ? operatorDashboard
      : role === 'DELEGATE'
        ? delegatePanel
        : role === 'CITIZEN'
          ? citizenHome
          : null;
  void load?.().catch(() => undefined);
}
preloadRoleHome();

/** '/' shows each role its own home. */
export function HomePage() {
  switch (audienceOf(useAuth())) {
    case 'OPERATOR':
      return <OperatorDashboard />;
    case 'DELEGATE':
      return <DelegatePanel />;
    case 'CITIZEN':
      return <CitizenHome />;
    default:
      return <LandingPage />;
  }
}
