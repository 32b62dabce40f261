import type { FlowFileKind } from '@domain/flows';
import { api } from '@/lib/api';

/** GET /api/flows/{id}/files/{kind}: a link of a few minutes to one of MyPay's result files. */
export const getFlowFile = (id: string, kind: FlowFileKind) =>
  api.get<{ url: string }>(`/api/flows/${encodeURIComponent(id)}/files/${kind}`);
