import { Heading, Text } from '@aws-amplify/ui-react';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { DashboardGrid } from '../components/dashboard-card';
import { Icon } from '../components/icons';
import { OpenCallsBoard } from '@/features/calls/components/open-calls-board';
import { CitizenServices } from '@/features/services/components/citizen-services-list';
import { IseeBanner } from '@/features/isee/components/isee-banner';
import { ProfileBanner } from '@/features/profile/components/profile-banner';

/**
 * The citizen's home (spec part 2 §2.4): greeting, the four cards, the 'Bacheca' (up to 3 open calls)
 * and the 'Servizi' list. The ISEE banners come with the ISEE issue.
 */
export function CitizenHome() {
  const { me } = useAuth();
  const name = me?.firstName || me?.fullName || '';
  return (
    <section className="portal-page">
      <Heading level={1}>{name ? `Ciao, ${name}` : 'La tua area personale'}</Heading>
      <Text className="portal-page__lead">
        Questa è la tua area personale dei servizi sociali: da qui segui le tue iscrizioni, carichi l’attestazione ISEE
        e aggiorni i tuoi dati.
      </Text>
      <ProfileBanner />
      <IseeBanner />
      <DashboardGrid
        variant="four"
        cards={[
          {
            title: 'Iscrizioni',
            to: paths.subscriptions,
            description: 'Le tue richieste di iscrizione ai servizi e il loro stato.',
            icon: <Icon name="calls" />,
          },
          {
            title: 'Caricamento ISEE',
            to: paths.citizenIseeUpload,
            action: 'Carica',
            description: 'Carica l’attestazione ISEE aggiornata: serve per iscriversi ai bandi.',
            icon: <Icon name="upload" />,
          },
          {
            title: 'I miei ISEE',
            to: `${paths.profile}?scroll=true`,
            description: 'Il tuo profilo e le attestazioni ISEE che hai caricato.',
            icon: <Icon name="person" />,
          },
          {
            title: 'Manuale d’uso',
            to: paths.manual,
            action: 'Apri',
            newTab: true,
            description: 'La guida al portale per i cittadini (PDF).',
            icon: <Icon name="book" />,
          },
        ]}
      />
      <OpenCallsBoard />
      <CitizenServices />
    </section>
  );
}
