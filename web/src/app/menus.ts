import { paths } from '@/config/paths';
import type { Audience } from './access';

export interface MenuItem {
  label: string;
  to: string;
}

const home: MenuItem = { label: 'Home', to: paths.home };

/** The menu of each role, in the spec's order (part 2 §2.2). */
export const menus: Record<Audience, readonly MenuItem[]> = {
  ANONYMOUS: [home],
  CITIZEN: [
    home,
    { label: 'Iscrizioni', to: paths.subscriptions },
    { label: 'Caricamento ISEE', to: paths.citizenIseeUpload },
    { label: 'Profilo', to: paths.profile },
    { label: 'Supporto', to: paths.support },
  ],
  OPERATOR: [
    home,
    { label: 'ISEE', to: paths.iseeList },
    { label: 'Utenti', to: paths.users },
    { label: 'Pagamenti', to: paths.payments },
    { label: 'Servizi', to: paths.services },
    { label: 'Lista Bandi', to: paths.calls },
    { label: 'Fasce', to: paths.bands },
    { label: 'Flussi MyPay', to: paths.flows },
    { label: 'Configurazione', to: paths.configuration },
  ],
  DELEGATE: [home, { label: 'Utenti', to: paths.users }],
};
