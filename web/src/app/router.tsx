import { lazy, type ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { paths } from '@/config/paths';
import { normalisePath } from './access';
import { RouteErrorPage } from './routes/route-error';
import { AuthCallbackPage } from './routes/auth-callback';
import { RouteGate, type PageMap } from './routes/gate';
import { HomePage } from './routes/home';
import { Shell } from './layout/shell';

// Feature pages load on demand: the first load carries only the shell and the home pages.
const bands = () => import('@/features/bands');
const services = () => import('@/features/services');
const users = () => import('@/features/users');
const isee = () => import('@/features/isee');
const calls = () => import('@/features/calls');
const subscriptions = () => import('@/features/subscriptions');
const configuration = () => import('@/features/configuration');
const flows = () => import('@/features/flows');
const tickets = () => import('@/features/tickets');
const payments = () => import('@/features/payments');
const page = <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  lazy(async () => ({ default: pick(await load()) }));
// The pages that bring several features together live with the routes (a feature imports no other).
const callDetail = lazy(() => import('./routes/call-detail').then((m) => ({ default: m.CallDetailPage })));
const citizenCall = lazy(() => import('./routes/citizen-call').then((m) => ({ default: m.CallPage })));
const callForms = () => import('./routes/call-forms');

/**
 * Which component shows each page. Access is decided by the table in access.ts; a page permitted there
 * and missing here reads 'Questa sezione non è ancora disponibile.'
 */
const pages: PageMap = new Map<string, ComponentType>(
  (
    [
      [paths.home, HomePage],
      [paths.privacy, lazy(() => import('./routes/privacy').then((m) => ({ default: m.PrivacyPage })))],
      [paths.bands, page(bands, (m) => m.BandsPage)],
      [paths.newBand, page(bands, (m) => m.NewBandPage)],
      [paths.editBand, page(bands, (m) => m.EditBandPage)],
      [paths.services, page(services, (m) => m.ServicesPage)],
      [paths.newService, page(services, (m) => m.NewServicePage)],
      [
        paths.serviceDetail,
        lazy(() => import('./routes/service-detail').then((m) => ({ default: m.ServiceDetailPage }))),
      ],
      [paths.users, page(users, (m) => m.UsersPage)],
      [paths.newUser, page(users, (m) => m.NewUserPage)],
      [paths.userRecord, lazy(() => import('./routes/user-record').then((m) => ({ default: m.UserRecordPage })))],
      [paths.profile, lazy(() => import('./routes/profile').then((m) => ({ default: m.ProfilePage })))],
      [paths.citizenIseeUpload, page(isee, (m) => m.CitizenIseeUploadPage)],
      [paths.iseeList, page(isee, (m) => m.IseeListPage)],
      ['/lista_isee/verifica_isee', page(isee, (m) => m.VerifyIseePage)],
      ['/lista_utenti/dati_utente/verifica_isee', page(isee, (m) => m.VerifyIseePage)],
      ['/visualizza_isee', page(isee, (m) => m.ViewIseePage)],
      ['/lista_utenti/dati_utente/visualizza_isee', page(isee, (m) => m.ViewIseePage)],
      ['/caricamento_ISEE_operatore', page(isee, (m) => m.OperatorIseeUploadPage)],
      ['/lista_utenti/dati_utente/caricamento_ISEE_operatore', page(isee, (m) => m.OperatorIseeUploadPage)],
      [paths.calls, page(calls, (m) => m.CallsPage)],
      [paths.newCall, page(callForms, (m) => m.NewCallRoute)],
      [paths.serviceNewCall, page(callForms, (m) => m.NewCallRoute)],
      [paths.callDetail, callDetail],
      [paths.serviceCallDetail, callDetail],
      [paths.editCall, page(callForms, (m) => m.EditCallRoute)],
      [paths.publicCall, citizenCall],
      [paths.subscriptionCall, citizenCall],
      [
        paths.serviceCalls,
        lazy(() => import('./routes/service-open-calls').then((m) => ({ default: m.ServiceOpenCallsPage }))),
      ],
      [paths.subscriptions, page(subscriptions, (m) => m.SubscriptionsPage)],
      [paths.configuration, page(configuration, (m) => m.ConfigurationPage)],
      [paths.flows, page(flows, (m) => m.FlowsPage)],
      [paths.payments, page(payments, (m) => m.PaymentsPage)],
      [paths.callPayments, lazy(() => import('./routes/payment-list').then((m) => ({ default: m.PaymentListRoute })))],
      [paths.support, page(tickets, (m) => m.SupportPage)],
      [paths.myTickets, page(tickets, (m) => m.MyTicketsPage)],
      [paths.tickets, page(tickets, (m) => m.TicketsPage)],
      [paths.userTickets, page(tickets, (m) => m.UserTicketsPage)],
      [paths.ticketDetail, page(tickets, (m) => m.TicketPage)],
    ] as const
  ).map(([path, component]) => [normalisePath(path), component]),
);

export const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { path: paths.authCallback, element: <AuthCallbackPage /> },
          { path: '*', element: <RouteGate pages={pages} /> },
        ],
      },
    ],
  },
]);
