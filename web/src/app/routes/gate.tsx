import type { ComponentType } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { onPlatform } from '@/lib/platform';
import { audienceOf, normalisePath, ruleFor } from '../access';
import { useDocumentTitle } from '../hooks';
import { PageLoader } from '../layout/page-loader';
import { DeniedPage } from './denied';
import { NotAvailablePage } from './not-available';

export type PageMap = ReadonlyMap<string, ComponentType>;

/**
 * Every page goes through here: the access table decides whether the role may open the path; the page
 * map says which component shows it. A permitted page without a component says it is not available yet.
 */
export function RouteGate({ pages }: { pages: PageMap }) {
  const auth = useAuth();
  const { pathname, search } = useLocation();
  const rule = ruleFor(pathname);
  const audience = audienceOf(auth);
  const loading = auth.status === 'loading';
  const allowed = !loading && rule !== undefined && rule.roles.includes(audience);
  useDocumentTitle(loading ? null : allowed ? onPlatform(rule.title) : 'Autorizzazione negata');

  if (loading) return <PageLoader />;
  if (!allowed) return <DeniedPage />;
  if (rule.withoutQueryGoTo && rule.query && !new URLSearchParams(search).get(rule.query)) {
    return <Navigate to={rule.withoutQueryGoTo} replace />;
  }
  const Page = pages.get(normalisePath(rule.path));
  return Page ? <Page /> : <NotAvailablePage title={onPlatform(rule.title)} />;
}
