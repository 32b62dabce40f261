import type { StoredInpsDetails } from './inps.ts';

/** A new ISEE as functions/isee/repository.ts createIsee writes it (the citizen's upload, the operator's entry, INPS, an enrolment import). */
export interface NewIsee {
  id: string;
  userId: string;
  user: { firstName: string; lastName: string; fiscalCode: string; email: string | null };
  value: number;
  year: number;
  date: string;
  protocollo?: string | null;
  scadenza?: string | null;
  state: 'LOADED' | 'VALIDATED';
  file: { name: string; contentType: string; size: number } | null;
  uploadedBy: 'CITIZEN' | 'OPERATOR';
  uploadedBySub: string;
  excludeVerification?: boolean;
  /** 'INPS': fetched from INPS through PDND (no document), with what INPS said. */
  source?: 'INPS';
  inps?: StoredInpsDetails;
}
