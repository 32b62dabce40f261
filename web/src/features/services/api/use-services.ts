import type { Service } from '@domain/services';
import { useCursorList } from '@/components/cursor-pagination';
import { getServices } from './get-services';

// Apart from get-services.ts, which the landing page imports: the query layer stays out of the first load.
/** The services list with its cursor pagination. */
export const useServices = () => useCursorList<Service>(['services', 'list'], (cursor) => getServices({ cursor }));
