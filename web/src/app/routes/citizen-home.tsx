import { Heading, Text } from '@aws-amplify/ui-react';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { DashboardCard } from '../components/dashboard-card';
import { Icon } from '../components/icons';

/**
 * The citizen's home (spec part 2 §2.4): greeting and the four cards. The ISEE banners, the 'Bacheca'
 * and the 'Servizi' list of this page come with the calls and ISEE issues.
 */
export function CitizenHome() {
  const { me } = useAuth();
  const name = me?.firstName || me?.fullName || '';
  return (
    <section className="portal-page">
      <Heading level={1}>{name ? `Ciao, ${name}` : 'La tua area personale'}</Heading>
      <Text className="portal-page__lead">
        Questa è la tua area personale dei servizi sociali: da qui segui le tue iscrizioni, carichi l’attestazione
        ISEE e aggiorni i tuoi dati.
      </Text>
      <div className="dashboard-grid dashboard-grid--four">
        <DashboardCard
          title="Iscrizioni"
          to={paths.subscriptions}
          description="Le tue richieste di iscrizione ai servizi e il loro stato."
          icon={<Icon name="calls" />}
        />
        <DashboardCard
          title="Caricamento ISEE"
          to={paths.citizenIseeUpload}
          action="Carica"
          description="Carica l’attestazione ISEE aggiornata: serve per iscriversi ai bandi."
          icon={<Icon name="upload" />}
        />
        <DashboardCard
          title="I miei ISEE"
          to={`${paths.profile}?scroll=true`}
          description="Il tuo profilo e le attestazioni ISEE che hai caricato."
          icon={<Icon name="person" />}
        />
        <DashboardCard
          title="Manuale d’uso"
          to={paths.manual}
          action="Apri"
          newTab
          description="La guida al portale per i cittadini (PDF)."
          icon={<Icon name="book" />}
        />
      </div>
    </section>
  );
}
