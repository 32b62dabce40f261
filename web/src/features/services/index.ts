export { getServices } from './api/get-services';
export { useService } from './api/get-service';
