import type { Role } from '@domain/roles';
import { paths } from '@/config/paths';

/** Who is looking at the portal: a signed-in role, or nobody. */
export type Audience = Role | 'ANONYMOUS';

const ANONYMOUS = 'ANONYMOUS';
const CITIZEN = 'CITIZEN';
const OPERATOR = 'OPERATOR';
const DELEGATE = 'DELEGATE';

export interface RouteRule {
  path: string;
  /** Who may open the page (spec part 2 §2.1). Anyone else sees 'Autorizzazione negata'. */
  roles: readonly Audience[];
  /** The page's name: breadcrumb label, document title and, while the page is not built, its heading. */
  title: string;
  /** The query parameter that names what the page shows (e.g. ?id=): without it the page has no subject. */
  query?: string;
  /** Where to go when the page is opened without its query parameter (spec part 2 §2.1). */
  withoutQueryGoTo?: string;
}

/**
 * THE access table of the portal: every page, who may open it, and its Italian name. Paths are matched
 * on the path name only (query parameters are the page's business) and without regard to case, as the
 * spec spells some paths with capitals (/caricamento_ISEE) and links others both ways (/lista_ISEE).
 */
export const routeRules: readonly RouteRule[] = [
  // Everyone. The spec's delegate list omits the privacy page, but the footer links it on every page and
  // the privacy notice must be reachable by whoever uses the portal (GDPR art. 13): it is open to all.
  { path: paths.home, roles: [ANONYMOUS, CITIZEN, OPERATOR, DELEGATE], title: 'Home' },
  { path: paths.privacy, roles: [ANONYMOUS, CITIZEN, OPERATOR, DELEGATE], title: 'Privacy' },
  { path: paths.publicCall, roles: [ANONYMOUS, CITIZEN], title: 'Dettaglio bando', query: 'id' },

  // Citizen
  { path: paths.subscriptions, roles: [CITIZEN], title: 'Iscrizioni' },
  { path: paths.subscriptionCall, roles: [CITIZEN], title: 'Dettaglio iscrizione', query: 'id' },
  { path: paths.citizenIseeUpload, roles: [CITIZEN], title: 'Caricamento ISEE' },
  { path: paths.serviceCalls, roles: [CITIZEN], title: 'Bandi del servizio', query: 'id' },
  { path: paths.profile, roles: [CITIZEN], title: 'Profilo' },
  { path: paths.support, roles: [CITIZEN], title: 'Supporto' },
  { path: paths.myTickets, roles: [CITIZEN], title: 'Le mie segnalazioni' },

  // Users (operator; the delegate reads the list and the record)
  { path: paths.users, roles: [OPERATOR, DELEGATE], title: 'Lista utenti' },
  { path: paths.newUser, roles: [OPERATOR], title: 'Nuovo utente' },
  {
    path: paths.userRecord,
    roles: [OPERATOR, DELEGATE],
    title: 'Dati utente',
    query: 'citizen',
    withoutQueryGoTo: paths.users,
  },
  { path: paths.userTickets, roles: [OPERATOR], title: 'Ticket utente', query: 'userId' },
  { path: paths.ticketDetail, roles: [OPERATOR], title: 'Dettaglio ticket' },

  // ISEE (operator)
  { path: paths.iseeList, roles: [OPERATOR], title: 'Lista ISEE' },
  { path: '/lista_isee/verifica_isee', roles: [OPERATOR], title: 'Verifica ISEE', query: 'idIsee' },
  { path: '/lista_utenti/dati_utente/verifica_isee', roles: [OPERATOR], title: 'Verifica ISEE', query: 'idIsee' },
  { path: '/visualizza_isee', roles: [OPERATOR], title: 'Visualizza ISEE', query: 'idIsee' },
  { path: '/lista_utenti/dati_utente/visualizza_isee', roles: [OPERATOR], title: 'Visualizza ISEE', query: 'idIsee' },
  { path: '/caricamento_ISEE_operatore', roles: [OPERATOR], title: 'Carica ISEE', query: 'userId' },
  {
    path: '/lista_utenti/dati_utente/caricamento_ISEE_operatore',
    roles: [OPERATOR],
    title: 'Carica ISEE',
    query: 'userId',
  },

  // Tickets, payments, bands, services (operator)
  { path: paths.tickets, roles: [OPERATOR], title: 'Lista ticket' },
  { path: paths.payments, roles: [OPERATOR], title: 'Pagamenti' },
  { path: paths.bands, roles: [OPERATOR], title: 'Fasce ISEE' },
  { path: paths.newBand, roles: [OPERATOR], title: 'Nuova fascia' },
  { path: paths.editBand, roles: [OPERATOR], title: 'Modifica fascia', query: 'range' },
  { path: paths.services, roles: [OPERATOR], title: 'Servizi' },
  { path: paths.newService, roles: [OPERATOR], title: 'Nuovo servizio' },
  { path: paths.serviceDetail, roles: [OPERATOR], title: 'Dettaglio servizio', query: 'id' },

  // Calls (operator; the delegate reads a call's payment list)
  { path: paths.calls, roles: [OPERATOR], title: 'Lista bandi' },
  { path: '/lista_bandi/nuova_sessione', roles: [OPERATOR], title: 'Nuovo bando' },
  { path: '/servizi/visualizza_servizio/nuova_sessione', roles: [OPERATOR], title: 'Nuovo bando' },
  { path: paths.callDetail, roles: [OPERATOR], title: 'Dettaglio bando', query: 'id' },
  { path: '/servizi/visualizza_servizio/dettaglio_sessione', roles: [OPERATOR], title: 'Dettaglio bando', query: 'id' },
  {
    path: '/lista_bandi/dettaglio_sessione/modifica_sessione',
    roles: [OPERATOR],
    title: 'Modifica bando',
    query: 'sessionId',
  },
  { path: paths.callPayments, roles: [OPERATOR, DELEGATE], title: 'Lista pagamenti', query: 'id' },

  // Payment flows and configuration (operator)
  { path: paths.flows, roles: [OPERATOR], title: 'Flussi MyPay' },
  { path: paths.configuration, roles: [OPERATOR], title: 'Configurazione' },
];

export const normalisePath = (pathname: string) => {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (trimmed || '/').toLowerCase();
};

const byPath = new Map(routeRules.map((rule) => [normalisePath(rule.path), rule]));

/** The rule for a path name, or undefined for a path the portal does not have. */
export const ruleFor = (pathname: string): RouteRule | undefined => byPath.get(normalisePath(pathname));

/** Whether the audience may open the path: unknown paths are denied to everyone. */
export const canOpen = (audience: Audience, pathname: string): boolean =>
  ruleFor(pathname)?.roles.includes(audience) ?? false;

/** The audience of the routing table: the role the API derived, or anonymous until /api/me answered. */
export const audienceOf = ({ status, me }: { status: string; me: { role: Role } | null }): Audience =>
  status === 'signed-in' && me ? me.role : ANONYMOUS;
