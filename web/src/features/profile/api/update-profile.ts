import type { ProfileUpdateInput } from '@domain/user-input';
import type { User } from '@domain/users';
import { api } from '@/lib/api';

/** PUT /api/profile: the citizen's edit of their data (names and fiscal code excluded), answers the saved profile. */
export const updateProfile = (input: ProfileUpdateInput): Promise<User> => api.put<User>('/api/profile', input);
