import { api } from '@/lib/api';
import type { CsvFile } from './types';

/** GET /api/enrolments/template: the empty CSV the import accepts, 'Template_<date>.csv'. */
export const getEnrolmentTemplate = (): Promise<CsvFile> => api.get<CsvFile>('/api/enrolments/template');
