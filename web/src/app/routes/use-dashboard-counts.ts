import { useAsync } from '@/components/use-async';
import { countIseesToVerify } from '@/features/isee/api/count-isees-to-verify';
import { countLoadedUsers } from '@/features/users/api/count-loaded-users';

/** The badges of the operator dashboard and the delegate panel: ISEE to verify and users LOADED. */
export function useDashboardCounts(): { isee?: number; loadedUsers?: number } {
  const counts = useAsync(async () => {
    const [isee, users] = await Promise.all([countIseesToVerify(), countLoadedUsers()]);
    return { isee: isee.count, loadedUsers: users.count };
  }, []);
  return counts.data ?? {};
}
