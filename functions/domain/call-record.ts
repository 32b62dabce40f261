import type { CallSummary } from './calls.ts';
import type { KeptFile } from './files.ts';

/** A call as stored (functions/calls/repository.ts writes it): the record every folder that reads a call shares. */
export type StoredCallFile = KeptFile;

export interface CallRecord extends CallSummary {
  nomeMyPay: string;
  codAccertamento: string;
  codCapitolo: string;
  bandsId: string[];
  files: StoredCallFile[];
  serviceDescription: string;
  version: number;
  updatedAt: string;
}
