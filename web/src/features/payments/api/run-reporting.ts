import type { ReportingResult, ReportingStatus } from '@domain/position-payment';
import { api } from '@/lib/api';
import { jobResult } from '@/lib/job-result';

const path = (callId: string) => `/api/calls/${encodeURIComponent(callId)}/reporting`;

/** 'Rendicontazione': POST starts it as a background job, GET says how it stands; its outcome once done. */
export const runReporting = async (callId: string): Promise<ReportingResult> =>
  jobResult(await api.post<ReportingStatus>(path(callId), {}), () => api.get<ReportingStatus>(path(callId)));
