import type { Flow } from './flow-schemas.ts';
import type { FlowFileKind, FlowState, FlowStep } from './flows.ts';
import type { Skipped } from './payments.ts';
import type { Actor } from './roles.ts';

/**
 * The flow item (functions/flows/repository.ts): what the operator sees of a MyPay export and what its
 * workflow keeps besides. The notices' e-mail run (functions/notices) keeps its progress on it too: the
 * record lives here so that neither resource imports the other.
 */
export interface FlowRecord {
  id: string;
  stato: FlowState | string;
  step: FlowStep;
  dataInsert: string;
  dataUpdate: string;
  announcement: Flow['announcement'];
  mese: number;
  anno: number;
  fiscalCode: string | null;
  num: number;
  accepted: number | null;
  rejected: number | null;
  isEmailSent: boolean;
  error: string | null;
  /** The ZIP sent to MyPay, in the exports bucket, and its MD5 (hex). */
  zipKey: string | null;
  zipName: string | null;
  md5: string | null;
  /** Set once MyPay has given a token for this flow's upload (before the upload: see send()). */
  requestToken: string | null;
  uploadedAt: string | null;
  files: Record<FlowFileKind, string | null>;
  /**
   * Collect writes MyPay's verdicts back in slices (COLLECT_SLICE rows a call of the step): null until the
   * result files are in the exports bucket, then the number of rows already written back.
   */
  collectCursor?: number | null;
  /**
   * GPD (a platform that takes the positions themselves): the positions to send, as the port sends them, in the
   * exports bucket (Prepare writes it after saving their IUVs), and how many of them Send has handed over.
   */
  planKey?: string | null;
  sendCursor?: number | null;
  /** The ISEEs the month generation used (a JSON list in the exports bucket), and how many MarkIsees has done. */
  iseeKey?: string | null;
  iseeCursor?: number | null;
  collectedAt: string | null;
  /** Who started the export: the positions it (re)generates are audited as theirs. */
  startedBy: Actor;
  /** Positions of the month left out of the file, with the reason to fix (at most HELD_BACK_KEPT of them). */
  heldBack?: Skipped[] | null;
  /** The n-th sending of the file (a new IUF and ZIP name after MyPay failed or refused it): 1 at first. */
  attempt?: number | null;
  /** The Step Functions execution running the flow now: the end of an older one changes nothing. */
  execution?: string | null;
  /**
   * 'Rielabora' after MyPay failed an import that may have inserted rows (domain/flows.ts mayHoldRowsAfter): the
   * failed import's request token, the rows' plan in the exports bucket, how many of the rows to ask about are
   * done, and what was settled before the file goes again (added to the counts at the end).
   */
  reconcile?: {
    requestToken: string;
    planKey: string | null;
    cursor: number;
    accepted: number;
    rejected: number;
    doneAt: string | null;
  } | null;
  /** Since when the portal asks MyPay about the import (the upload, or the 'Rielabora' of a suspended flow). */
  pollingSince?: string | null;
  /** When the notices of the flow were last e-mailed, and the progress of the e-mail run (functions/notices). */
  dataIsEmailSent?: string | null;
  emailRun?: FlowEmailRun | null;
}

/** How the flow e-mail's progress is kept on the flow item between requests (and job slices). */
export interface FlowEmailRun {
  startedAt: string;
  cursor: string | null;
  sent: number;
  skipped: number;
  failed: number;
  finishedAt: string | null;
}
