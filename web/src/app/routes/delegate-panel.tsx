import { Heading } from '@aws-amplify/ui-react';
import { paths } from '@/config/paths';
import { useDashboardCounts } from './use-dashboard-counts';
import { DashboardCard } from '../components/dashboard-card';
import { Icon } from '../components/icons';

export interface DelegateCounts {
  isee?: number;
  loadedUsers?: number;
}

/**
 * The delegate's home (spec part 2 §2.3). The ISEE card points at /lista_ISEE as the spec writes it,
 * although the delegate may not open that page: it leads to 'Autorizzazione negata'.
 */
export function DelegatePanel({ counts: given }: { counts?: DelegateCounts }) {
  const fetched = useDashboardCounts();
  const counts: DelegateCounts = { ...fetched, ...given };
  return (
    <section className="portal-page">
      <Heading level={1}>Pannello delegato</Heading>
      <div className="dashboard-grid dashboard-grid--two">
        <DashboardCard
          title="ISEE"
          to="/lista_ISEE"
          count={counts.isee}
          description="Attestazioni ISEE caricate dai cittadini."
          icon={<Icon name="document" />}
        />
        <DashboardCard
          title="UTENTI"
          to={paths.users}
          count={counts.loadedUsers}
          description="Anagrafica dei cittadini (sola consultazione)."
          icon={<Icon name="users" />}
        />
      </div>
    </section>
  );
}
