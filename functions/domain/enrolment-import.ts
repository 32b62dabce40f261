import { jobStatusOf, type JobRecord } from './jobs.ts';
import type { ImportStatus } from './enrolment.ts';
import type { SubscriptionState } from './subscriptions.ts';

/**
 * Applying an enrolment import (issue 7) in the background: the preview's plan is stored in slices, and the
 * job kind 'enrolment-import' (functions/jobs) applies one slice per step. Pure rules only (no CSV parser:
 * the job function does not carry it).
 */
export const IMPORT_JOB = 'enrolment-import';
/** Planned changes per slice: one stored item (≈ 50 KB) and a few seconds of conditional writes. */
export const IMPORT_SLICE_ROWS = 200;
/** An approved preview is applied within this time, or previewed again. */
export const IMPORT_PREVIEW_TTL_MS = 60 * 60 * 1000;

/** One planned change, as stored: what the preview showed for that citizen. */
export interface PlannedImportAction {
  kind: 'add' | 'update' | 'remove';
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  /** add: the new state (VALIDATED when hours are given, ADDED otherwise). */
  state?: SubscriptionState;
  /** The values to set (add, update; undefined: left as it is). */
  rankingScore?: number | null;
  weeklyHour?: number | null;
  /** A new VALIDATED ISEE recorded first (updateIsees). */
  isee?: { valueCents: number; year: number } | null;
}

/** The stored preview (its header): the plan's slices are read one per job step. */
export interface ImportPlan {
  previewId: string;
  callId: string;
  /** The call's subscriptions as the preview read them (subscriptionsFingerprint): applying refuses a changed call. */
  fingerprint: string;
  createdAt: string;
  createdBy: string;
  total: number;
  slices: number;
  summary: { add: number; update: number; remove: number; rejected: number };
}

export interface FingerprintedSubscription {
  userId: string;
  state: string;
  dataUpdate: string;
  rankingScore: number | null;
  weeklyHour: number | null;
  isee?: { valueCents: number; year: number; state: string } | null;
}

/**
 * A short digest (FNV-1a, 64 bits as two 32-bit halves) of everything a plan was computed from: who is
 * subscribed, in which state and version, with which score, hours and ISEE. Same subscriptions, same text.
 */
export function subscriptionsFingerprint(subscriptions: readonly FingerprintedSubscription[]): string {
  const lines = subscriptions
    .map((s) =>
      [
        s.userId,
        s.state,
        s.dataUpdate,
        s.rankingScore ?? '',
        s.weeklyHour ?? '',
        s.isee ? `${s.isee.valueCents}/${s.isee.year}/${s.isee.state}` : '',
      ].join('|'),
    )
    .sort();
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ lines.length;
  for (const line of lines) {
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c ^ (a & 0xff), 0x01000193) >>> 0;
    }
    a = Math.imul(a ^ 10, 0x01000193) >>> 0;
  }
  return `${lines.length}-${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

/** The plan cut in slices of IMPORT_SLICE_ROWS, in order. */
export function sliceActions<T>(actions: readonly T[], size = IMPORT_SLICE_ROWS): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < actions.length; i += size) slices.push(actions.slice(i, i + size));
  return slices;
}

/** Where the next slice starts: the job cursor is the slice number as text. */
export function parseImportCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  const n = Number(cursor);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Bad import cursor ${cursor}`);
  return n;
}

/** The status the web polls, from the job's latest run on the call. */
export function importStatusOf(status: { job: JobRecord | null; running: boolean }): ImportStatus {
  const summary = (status.job?.input as { summary?: ImportPlan['summary'] } | undefined)?.summary ?? null;
  return {
    isRunning: status.running,
    ...jobStatusOf(
      status,
      'L’importazione si è interrotta: carica di nuovo il file per vedere cosa resta da applicare.',
    ),
    summary,
  };
}
