export { MyTicketsPage } from './components/my-tickets-page';
export { SupportPage } from './components/support-page';
export { TicketPage } from './components/ticket-page';
export { TicketsPage } from './components/tickets-page';
export { UserTicketsPage } from './components/user-tickets-page';
export { countOpenTickets } from './api/count-open-tickets';
