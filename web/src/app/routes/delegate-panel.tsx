import { Heading } from '@aws-amplify/ui-react';
import { paths } from '@/config/paths';
import { useDashboardCounts } from './use-dashboard-counts';
import { DashboardGrid } from '../components/dashboard-card';
import { Icon } from '../components/icons';

export interface DelegateCounts {
  isee?: number;
  loadedUsers?: number;
}

/** Why the delegate's ISEE card does not open /lista_ISEE (part 2 §2.1 denies it to delegates). */
export const ISEE_LIST_FOR_OPERATORS = 'La lista degli ISEE da verificare è riservata agli operatori.';

/**
 * The delegate's home (spec part 2 §2.3): the ISEE card with its count, its 'Visualizza' disabled with a
 * tooltip (design.md §4: /lista_ISEE is the operators'), and the UTENTI card.
 */
export function DelegatePanel({ counts: given }: { counts?: DelegateCounts }) {
  const fetched = useDashboardCounts();
  const counts: DelegateCounts = { ...fetched, ...given };
  return (
    <section className="portal-page">
      <Heading level={1}>Pannello delegato</Heading>
      <DashboardGrid
        variant="two"
        cards={[
          {
            title: 'ISEE',
            to: '/lista_ISEE',
            disabledReason: ISEE_LIST_FOR_OPERATORS,
            count: counts.isee,
            description: 'Attestazioni ISEE caricate dai cittadini.',
            icon: <Icon name="document" />,
          },
          {
            title: 'UTENTI',
            to: paths.users,
            count: counts.loadedUsers,
            description: 'Anagrafica dei cittadini (sola consultazione).',
            icon: <Icon name="users" />,
          },
        ]}
      />
    </section>
  );
}
