import { postWithUploadProgress } from '@/lib/api';
import type { ImportPreview, ImportRequest } from './types';

/**
 * POST /api/calls/{id}/enrolments/import: with `apply: false` the preview (nothing written), with
 * `apply: true` the same analysis applied. `onUploadProgress` follows the sending of the file.
 */
export const importEnrolments = (
  callId: string,
  request: ImportRequest,
  onUploadProgress: (fraction: number) => void = () => {},
): Promise<ImportPreview> =>
  postWithUploadProgress<ImportPreview>(
    `/api/calls/${encodeURIComponent(callId)}/enrolments/import`,
    request,
    onUploadProgress,
  );
