import { Heading } from '@aws-amplify/ui-react';
import { paths } from '@/config/paths';
import { useDashboardCounts } from './use-dashboard-counts';
import { DashboardGrid } from '../components/dashboard-card';
import { Icon } from '../components/icons';

/** Counts for the badges: ISEE to verify, users LOADED, open tickets (0 Aperto, 1 In Corso). */
export interface OperatorCounts {
  isee?: number;
  loadedUsers?: number;
  openTickets?: number;
}

/** The operator's home (spec part 1 §2, 'PANNELLO OPERATORE'). */
export function OperatorDashboard({ counts: given }: { counts?: OperatorCounts }) {
  const fetched = useDashboardCounts({ openTickets: true });
  const counts: OperatorCounts = { ...fetched, ...given };
  const usersTarget = (counts.loadedUsers ?? 0) > 0 ? `${paths.users}?loaded=true` : paths.users;
  return (
    <section className="portal-page">
      <Heading level={1}>PANNELLO OPERATORE</Heading>
      <DashboardGrid
        cards={[
          {
            title: 'ISEE',
            to: paths.iseeList,
            count: counts.isee,
            description: 'Attestazioni ISEE caricate dai cittadini e da verificare.',
            icon: <Icon name="document" />,
          },
          {
            title: 'UTENTI',
            to: usersTarget,
            count: counts.loadedUsers,
            description: 'Anagrafica dei cittadini, utenti da validare e nuovi utenti.',
            icon: <Icon name="users" />,
          },
          {
            title: 'TICKET',
            to: paths.tickets,
            count: counts.openTickets,
            description: 'Richieste di assistenza aperte.',
            icon: <Icon name="ticket" />,
          },
          {
            title: 'SERVIZI',
            to: paths.services,
            description: 'Servizi offerti dal Comune e relativi bandi.',
            icon: <Icon name="services" />,
          },
          {
            title: 'BANDI',
            to: paths.calls,
            description: 'Bandi, iscrizioni, graduatorie e pagamenti.',
            icon: <Icon name="calls" />,
          },
        ]}
      />
    </section>
  );
}
