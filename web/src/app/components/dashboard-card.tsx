import { Badge, Heading, Text } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/button-link';
import { DisabledButton } from '@/components/disabled-button';

/** The badge of a dashboard card: 'Notifica' for one, 'Notifiche' otherwise (spec part 1 §2). */
export const notificationLabel = (count: number) => `${count} ${count === 1 ? 'Notifica' : 'Notifiche'}`;

export interface DashboardCardProps {
  title: string;
  to: string;
  description?: ReactNode;
  /** The badge count; no badge when absent. */
  count?: number;
  /** The button's text; its accessible name adds the card's title ('Visualizza ISEE'). */
  action?: string;
  /** Opens in a new tab (a document rather than a page of the portal). */
  newTab?: boolean;
  /** Why this person may not open the page: the button is shown disabled, with this reason in a tooltip. */
  disabledReason?: string;
  icon?: ReactNode;
}

export function DashboardCard({
  title,
  to,
  description,
  count,
  action = 'Visualizza',
  newTab,
  icon,
  disabledReason,
}: DashboardCardProps) {
  const accessibleName = `${action} ${title}${newTab ? ' (si apre in una nuova scheda)' : ''}`;
  return (
    <article className="dashboard-card">
      <div className="dashboard-card__head">
        {icon && (
          <span className="dashboard-card__icon" aria-hidden="true">
            {icon}
          </span>
        )}
        <Heading level={2} className="dashboard-card__title">
          {title}
        </Heading>
        {count !== undefined && (
          <Badge className="dashboard-card__badge" variation={count > 0 ? 'info' : undefined}>
            {notificationLabel(count)}
          </Badge>
        )}
      </div>
      {description && <Text className="dashboard-card__text">{description}</Text>}
      {disabledReason ? (
        <DisabledButton
          look="amplify-button--primary"
          hostClassName="tooltip-host--start dashboard-card__action"
          aria-label={accessibleName}
          reason={disabledReason}
        >
          {action}
        </DisabledButton>
      ) : newTab ? (
        <a
          href={to}
          target="_blank"
          rel="noopener"
          className="amplify-button amplify-button--primary dashboard-card__action"
          aria-label={accessibleName}
        >
          {action}
        </a>
      ) : (
        <ButtonLink to={to} variation="primary" className="dashboard-card__action" aria-label={accessibleName}>
          {action}
        </ButtonLink>
      )}
    </article>
  );
}

/** The cards of a home page in its grid (`variant`: 'two', 'four' columns; none: the default). */
export function DashboardGrid({ cards, variant }: { cards: DashboardCardProps[]; variant?: 'two' | 'four' }) {
  return (
    <div className={variant ? `dashboard-grid dashboard-grid--${variant}` : 'dashboard-grid'}>
      {cards.map((card) => (
        <DashboardCard key={card.title} {...card} />
      ))}
    </div>
  );
}
