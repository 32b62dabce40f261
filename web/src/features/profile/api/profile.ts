import type { ProfileUpdateInput, User } from '@domain/users';
import { api } from '@/lib/api';
import { useAsync } from '@/components/use-async';

export const getProfile = () => api.get<User>('/api/profile');
export const useProfile = () => useAsync(getProfile, []);
export const updateProfile = (input: ProfileUpdateInput) => api.put<User>('/api/profile', input);
