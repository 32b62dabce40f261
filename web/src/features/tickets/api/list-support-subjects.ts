import { api } from '@/lib/api';

/** GET /api/support/subjects: the service names and 'Altro'. */
export const listSupportSubjects = () => api.get<{ subjects: string[] }>('/api/support/subjects');
