import { lazy } from 'react';
import { useAuth } from '@/lib/auth';
import { audienceOf } from '../access';
import { LandingPage } from './landing';

const OperatorDashboard = lazy(() => import('./operator-dashboard').then((m) => ({ default: m.OperatorDashboard })));
const DelegatePanel = lazy(() => import('./delegate-panel').then((m) => ({ default: m.DelegatePanel })));
const CitizenHome = lazy(() => import('./citizen-home').then((m) => ({ default: m.CitizenHome })));

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
