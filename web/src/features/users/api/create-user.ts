import type { NewUserInput } from '@domain/user-input';
import type { User } from '@domain/users';
import { api } from '@/lib/api';

/** POST /api/users (201): the new user. The input must pass `newUserSchema`, as the API checks it again. */
export const createUser = (input: NewUserInput): Promise<User> => api.post<User>('/api/users', input);
