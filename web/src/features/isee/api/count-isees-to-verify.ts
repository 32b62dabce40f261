import { api } from '@/lib/api';

export const countIseesToVerify = () => api.get<{ count: number }>('/api/isee/to-verify/count');
