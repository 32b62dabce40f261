import type { UserUpdateInput } from '@domain/user-input';
import type { User } from '@domain/users';
import { api } from '@/lib/api';

/** PUT /api/users/{id}: the operator's edit of a user, answers the saved user. */
export const updateUser = (id: string, input: UserUpdateInput): Promise<User> =>
  api.put<User>(`/api/users/${encodeURIComponent(id)}`, input);
