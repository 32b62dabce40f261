import { Breadcrumbs } from '@aws-amplify/ui-react';
import { Link, useLocation } from 'react-router';
import { useBreadcrumbQueryValues } from '@/components/breadcrumb-query';
import { paths } from '@/config/paths';
import { onPlatform } from '@/lib/platform';
import { canOpen, ruleFor, type Audience } from '../access';

interface Crumb {
  label: string;
  /** Absent when the page cannot be opened from here (another role's page, or one that needs an id). */
  to?: string;
}

/**
 * The trail of the current path, one crumb per known prefix: /fasce/modifica_fascia reads
 * Home › Fasce ISEE › Modifica fascia. A page that needs an id links with the one the page shown knows
 * (`known`, by query parameter: a ticket knows its citizen); pages the user may not open, or whose id is
 * not known, are shown as text.
 */
export function trailFor(pathname: string, audience: Audience, known: Readonly<Record<string, string>> = {}): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [{ label: 'Home', to: paths.home }];
  const current = ruleFor(pathname);
  if (!current || !canOpen(audience, pathname)) return [...crumbs, { label: 'Autorizzazione negata' }];
  for (let index = 1; index < segments.length; index += 1) {
    const prefix = `/${segments.slice(0, index).join('/')}`;
    const rule = ruleFor(prefix);
    if (!rule) continue;
    const id = rule.query ? known[rule.query] : undefined;
    const linkable = canOpen(audience, prefix) && (!rule.query || id !== undefined);
    crumbs.push({
      label: onPlatform(rule.title),
      to: linkable ? (rule.query ? `${rule.path}?${rule.query}=${encodeURIComponent(id!)}` : rule.path) : undefined,
    });
  }
  if (segments.length > 0) crumbs.push({ label: onPlatform(current.title) });
  return crumbs;
}

export function PortalBreadcrumbs({ audience }: { audience: Audience }) {
  const { pathname } = useLocation();
  const known = useBreadcrumbQueryValues();
  if (pathname === paths.home || pathname === paths.authCallback) return null;
  const crumbs = trailFor(pathname, audience, known);
  return (
    <div className="portal-breadcrumbs">
      <div className="portal-container">
        <Breadcrumbs.Container aria-label="Percorso di navigazione">
          {crumbs.map((crumb, index) => {
            const isCurrent = index === crumbs.length - 1;
            return (
              <Breadcrumbs.Item key={`${crumb.label}-${index}`}>
                {isCurrent ? (
                  <Breadcrumbs.Link isCurrent>{crumb.label}</Breadcrumbs.Link>
                ) : crumb.to ? (
                  <Breadcrumbs.Link as={Link} to={crumb.to}>
                    {crumb.label}
                  </Breadcrumbs.Link>
                ) : (
                  <span className="portal-breadcrumbs__text">{crumb.label}</span>
                )}
                {!isCurrent && <Breadcrumbs.Separator />}
              </Breadcrumbs.Item>
            );
          })}
        </Breadcrumbs.Container>
      </div>
    </div>
  );
}
