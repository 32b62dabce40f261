import { useApiQuery } from '@/lib/queries';
import { countIseesToVerify } from '@/features/isee/api/count-isees-to-verify';
import { countOpenTickets } from '@/features/tickets/api/count-open-tickets';
import { countLoadedUsers } from '@/features/users/api/count-loaded-users';

/**
 * The badges of the operator dashboard and the delegate panel: ISEE to verify and users LOADED; with
 * `openTickets` (the operator's TICKET card; delegates have no ticket access) the open tickets too.
 */
export function useDashboardCounts({ openTickets = false }: { openTickets?: boolean } = {}): {
  isee?: number;
  loadedUsers?: number;
  openTickets?: number;
} {
  const counts = useApiQuery(['dashboard-counts', openTickets], async () => {
    const [isee, users, tickets] = await Promise.all([
      countIseesToVerify(),
      countLoadedUsers(),
      openTickets ? countOpenTickets() : undefined,
    ]);
    return { isee: isee.count, loadedUsers: users.count, openTickets: tickets?.count };
  });
  return counts.data ?? {};
}
