import { mapAtMost } from '../domain/at-most.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { iseeForMonth, iseeExpiry } from '../domain/fee.ts';
import { validatedIsee } from '../domain/latest-isee.ts';
import { inpsMessages } from '../domain/inps.ts';
import {
  CALL_REFRESH_JOB,
  EXPIRY_JOB,
  NEW_YEAR_JOB,
  expiryStatus,
  expiryStatusLabel,
  reminderContent,
  remindersDue,
  refreshOutcomeOf,
  refreshStart,
  refreshOutcomes,
  shouldRemind,
  type ExpiryList,
  type ReminderChannelState,
  type RefreshOutcome,
  type RefreshStatus,
} from '../domain/isee-refresh.ts';
import { jobStatusOf, type BackgroundJobs } from '../domain/jobs.ts';
import { fill, messages } from '../domain/messages.ts';
import { romeDay } from '../domain/period.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditEntry } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { IoMessages } from '../adapters/ports/io.ts';
import type { Mailer } from '../adapters/ports/mail.ts';
import type { BusinessMetrics } from '../adapters/ports/metrics.ts';
import type { IoRefusalReason } from '../adapters/io.ts';
import { makePacer } from '../adapters/pacer.ts';
import type { SubscriptionRecord } from '../domain/subscription-record.ts';
import type { StoredUser } from '../domain/user-record.ts';
import { InpsQueryFailed, inpsFailure, type FetchOutcome, type QueryContext } from './inps-use-cases.ts';
import type { ExpiryRecord, RefreshResult, StoredExpiry } from './refresh-repository.ts';

/**
 * Keeping ISEE current (issue 24), as background jobs (functions/jobs: bounded slices from a cursor, the job
 * record as the lock):
 * - CALL_REFRESH_JOB (key: call): 'Aggiorna ISEE da INPS' on a call, for each approved subscriber;
 * - NEW_YEAR_JOB (key: year): in the first days of January, every active subscriber (approved on a call not
 *   archived) without an ISEE valid this month;
 * - EXPIRY_JOB (key: year): the list of ISEE expiring or expired among active subscribers, and, from the
 *   configured day of December, the reminder (IO and e-mail, once) to those expiring on 31 December.
 * The queries are paced (INPS_RATE_PER_SECOND, slower while INPS answers 429: adapters/pacer.ts); every citizen's outcome is a
 * result item of the run's report, so a slice run twice, or a failed run started again (it resumes where it
 * stopped), asks INPS again only for those not done or in error. Several INPS failures in a row stop the run
 * with the reason; a refusal (configuration) stops it at once.
 */
export interface IseeRefreshDeps {
  fetchForUser(userId: string, context: QueryContext): Promise<FetchOutcome>;
  subscriptions: {
    pageApprovedSubscriptionsOfCall(
      callId: string,
      page: { limit?: number; cursor?: string },
    ): Promise<Page<SubscriptionRecord>>;
    countApprovedSubscriptions(callId: string): Promise<number>;
  };
  calls: { getCall(id: string): Promise<{ id: string; name: string } | null>; listActiveCallIds(): Promise<string[]> };
  users: { getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> };
  results: {
    putRefreshResult(result: RefreshResult): Promise<void>;
    refreshedAlready(reportId: string, userIds: readonly string[]): Promise<Set<string>>;
    countRefreshResults(reportId: string, outcome: RefreshOutcome): Promise<number>;
    countAskedOn(reportId: string, day: string): Promise<number>;
    listRefreshResults(reportId: string, outcome: RefreshOutcome): Promise<RefreshStatus['lists']['NEW']>;
  };
  expiry: {
    putExpiry(record: ExpiryRecord): Promise<void>;
    claimReminder(year: number, userId: string, at: string): Promise<boolean>;
    recordReminder(
      year: number,
      userId: string,
      outcome: { io: ReminderChannelState; mail: ReminderChannelState },
    ): Promise<void>;
    listExpiry(year: number, page: { limit?: number; cursor?: string }): Promise<Page<StoredExpiry>>;
  };
  /** Only the API starts jobs and reads their state. */
  jobs?: BackgroundJobs;
  /**
   * The benefit code (PrestazioneDaErogare) of a call's service, sent with its subscribers' queries (null: the
   * service has none, the deployment's default goes). Only the jobs' function asks INPS for a call.
   */
  benefitCodeOfCall?: (callId: string) => Promise<string | null>;
  /** Only the jobs' function sends the December reminders (the API's bundle carries no IO nor mail client). */
  reminders?: { io: Pick<IoMessages, 'sendMessage'>; mailer: Mailer };
  audit: { record(entry: AuditEntry, at: Date): Promise<void> };
  settings: () => {
    reminderFrom: string;
    portalUrl: string;
    sliceMs: number;
    /** The daily calls declared in the PDND purpose (null: none). */ dailyEstimate?: number | null;
  };
  /** Waits the turn of the next query (functions/adapters/pacer.ts). */
  pace: () => Promise<void>;
  clock: Clock;
  ids: IdGenerator;
  /** NoticesFailed (io) for a reminder IO did not take: its alarm tells the office when IO refuses the council. */
  metrics?: BusinessMetrics;
}

/**
 * A slice's position: the calls to walk, the one walked, the page of its subscribers, how many were walked, and
 * how many INPS queries the run made on which day (the January job stays within the purpose's daily estimate).
 */
interface Cursor {
  calls: string[];
  call: number;
  page: string | null;
  walked: number;
  asked?: { day: string; count: number };
}

/**
 * INPS stopped the run for the day: its daily limit (a 429 without Retry-After, still there after waiting) or
 * the daily estimate declared in the PDND purpose reached. The run fails with how many are left and resumes
 * from where it stopped (the January job's schedule starts it again the next day).
 */
class StoppedForTheDay extends Error {
  override name = 'StoppedForTheDay';
  constructor(readonly why: 'LIMIT' | 'ESTIMATE') {
    super(why);
  }
}

/** Why IO refuses the council itself (its key, its permissions or IP, its address), in a few words for the operators. */
const ioConfigurationReasons: Partial<Record<IoRefusalReason, string>> = {
  UNAUTHORIZED: 'la chiave del servizio non è riconosciuta',
  NOT_FOUND: 'l’indirizzo dell’API di IO non esiste',
  RECIPIENT_NOT_AUTHORIZED: 'la chiave del servizio è di prova',
};
const ioConfigurationMessage = (reason: IoRefusalReason | undefined) =>
  ioConfigurationReasons[reason!] ?? 'permessi della chiave o indirizzo IP del portale non autorizzati';

/** Queries in flight at once in a slice (the pacer spaces their starts). */
const IN_FLIGHT = 8;
/** INPS failing this many times in a row, or for all a page asked, stops the run (it resumes later from where it stopped). */
const FAILURES_TO_STOP = 10;

const emptyCounts = () => Object.fromEntries(refreshOutcomes.map((o) => [o, 0])) as Record<RefreshOutcome, number>;

export function makeIseeRefresh(deps: IseeRefreshDeps) {
  const { calls, users, results, expiry, clock } = deps;
  const requireJobs = () => deps.jobs ?? Promise.reject(new Error('Background jobs are not wired here'));
  const today = () => romeDay(clock.now());

  async function report(kind: string, key: string): Promise<RefreshStatus> {
    const status = await (await requireJobs()).status(kind, key);
    const { job } = status;
    const reportId = (job?.input.reportId as string | undefined) ?? job?.id;
    const counts = emptyCounts();
    const lists: RefreshStatus['lists'] = { NEW: [], REVIEW: [], NONE: [], ERROR: [] };
    if (reportId) {
      await Promise.all(
        refreshOutcomes.map(async (o) => void (counts[o] = await results.countRefreshResults(reportId, o))),
      );
      await Promise.all(
        (['NEW', 'REVIEW', 'NONE', 'ERROR'] as const).map(
          async (o) => void (lists[o] = await results.listRefreshResults(reportId, o)),
        ),
      );
    }
    return {
      isUpdating: status.running,
      ...jobStatusOf(status, inpsMessages.refreshFailed),
      counts,
      lists,
    };
  }

  /**
   * Starts a refresh job; a run that did not finish (INPS down, a refusal, cut at a timeout or at the jobs'
   * machine's limit) is resumed: the new run keeps its report and starts from its cursor. 409 while one runs.
   */
  async function start(kind: string, key: string, input: Record<string, unknown>, actor: Actor, running: string) {
    const jobs = await requireJobs();
    const { job: previous } = await jobs.status(kind, key);
    const job = await jobs.start(kind, key, { ...input, ...refreshStart(previous, clock.now(), deps.ids) }, actor);
    if (!job) throw new ConflictError(running);
    await deps.audit.record(
      { actor, entity: 'job', id: job.id, action: 'create', before: null, after: job },
      clock.now(),
    );
    return job;
  }

  async function expiryList(
    page: { limit?: number; cursor?: string },
    year = Number(today().slice(0, 4)),
  ): Promise<ExpiryList> {
    const jobs = await requireJobs();
    const [rows, status, newYearJob] = await Promise.all([
      expiry.listExpiry(year, page),
      jobs.status(EXPIRY_JOB, String(year)),
      report(NEW_YEAR_JOB, String(year)),
    ]);
    const current = await users.getUserItems(rows.items.map((r) => r.userId));
    return {
      year,
      remindersFrom: `${year}-${deps.settings().reminderFrom}`,
      items: rows.items.map((r) => ({
        userId: r.userId,
        fiscalCode: r.fiscalCode,
        firstName: r.firstName,
        lastName: r.lastName,
        status: r.status,
        statusLabel: expiryStatusLabel[r.status],
        scadenza: r.scadenza ?? null,
        remindedAt: r.remindedAt ?? null,
        io: r.io ?? null,
        email: r.mail ?? null,
        renewed: iseeForMonth(current.get(r.userId)?.lastIsee, year + 1, 1) !== null,
        checkedAt: r.checkedAt,
      })),
      nextCursor: rows.nextCursor,
      job: { isUpdating: status.running, ...jobStatusOf(status, inpsMessages.expiryFailed) },
      newYearJob,
    };
  }

  return {
    // --- a call's 'Aggiorna ISEE da INPS' -----------------------------------------------------------------
    async startCallRefresh(callId: string, actor: Actor): Promise<RefreshStatus> {
      const call = await calls.getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      await start(CALL_REFRESH_JOB, call.id, { callId: call.id }, actor, inpsMessages.refreshRunning);
      return report(CALL_REFRESH_JOB, call.id);
    },

    async callRefreshStatus(callId: string): Promise<RefreshStatus> {
      const call = await calls.getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      return report(CALL_REFRESH_JOB, call.id);
    },

    // --- January: every active subscriber without an ISEE valid this month -------------------------------
    async startNewYear(actor: Actor): Promise<RefreshStatus> {
      const year = Number(today().slice(0, 4));
      await start(NEW_YEAR_JOB, String(year), { year }, actor, inpsMessages.newYearRunning);
      return report(NEW_YEAR_JOB, String(year));
    },

    newYearStatus: (year: number) => report(NEW_YEAR_JOB, String(year)),

    // --- the expiry list and the December reminders ---------------------------------------------------------
    async startExpiry(actor: Actor) {
      const year = Number(today().slice(0, 4));
      await start(EXPIRY_JOB, String(year), { year }, actor, inpsMessages.expiryRunning);
      return expiryList({}, year);
    },

    /** The operators' list: expiring and expired ISEE among active subscribers, with the reminders sent and who has renewed since. */
    expiryList,
  };
}

export type IseeRefresh = ReturnType<typeof makeIseeRefresh>;

/**
 * The jobs' slices (functions/jobs/isee-jobs.ts): apart from the API's factory above, so the API's function does not
 * carry them.
 */
export function makeIseeRefreshJobs(deps: IseeRefreshDeps) {
  const { subscriptions, calls, users, results, expiry, clock } = deps;
  const requireReminders = () => {
    if (!deps.reminders) throw new Error('The December reminders are not wired here');
    return deps.reminders;
  };
  const today = () => romeDay(clock.now());

  /**
   * Walks approved subscribers from the cursor, up to the slice's time budget: `each` handles one page's
   * people. Returns the next cursor (null: done) and how many subscriptions were walked.
   */
  async function walk(start: Cursor, each: (page: SubscriptionRecord[]) => Promise<void>): Promise<Cursor> {
    const started = Date.now();
    let cursor = start;
    while (cursor.call < cursor.calls.length) {
      const page = await subscriptions.pageApprovedSubscriptionsOfCall(cursor.calls[cursor.call], {
        cursor: cursor.page ?? undefined,
        limit: 100,
      });
      await each(page.items);
      const walked = cursor.walked + page.items.length;
      cursor = page.nextCursor
        ? { ...cursor, page: page.nextCursor, walked }
        : { ...cursor, call: cursor.call + 1, page: null, walked };
      if (Date.now() - started > deps.settings().sliceMs) break;
    }
    return cursor;
  }

  /** The slice's answer to the job worker: the next cursor (null: done) and how far, in subscriptions walked. */
  const progress = (cursor: Cursor, total: number) => {
    const finished = cursor.call >= cursor.calls.length;
    return {
      cursor: finished ? null : JSON.stringify(cursor),
      done: finished ? Math.max(total, cursor.walked) : Math.min(cursor.walked, total),
      total,
    };
  };

  /**
   * Runs a slice; when INPS stops the run for the day, fails it with how many subscribers are left (a new start,
   * or the January schedule's next run, resumes from where it stopped).
   */
  async function untilStopped(
    reportId: string,
    from: Cursor,
    resume: string,
    slice: () => Promise<Cursor>,
  ): Promise<Cursor> {
    try {
      return await slice();
    } catch (error) {
      if (!(error instanceof StoppedForTheDay)) throw error;
      const done = (
        await Promise.all(
          refreshOutcomes.filter((o) => o !== 'ERROR').map((o) => results.countRefreshResults(reportId, o)),
        )
      ).reduce((a, b) => a + b, 0);
      const left = String(Math.max(0, (await totalOf(from)) - done));
      throw new ConflictError(
        error.why === 'LIMIT'
          ? fill(inpsMessages.dailyLimit, { left, resume })
          : fill(inpsMessages.dailyEstimate, { left, estimate: String(deps.settings().dailyEstimate) }),
      );
    }
  }

  /** Where a slice starts: the cursor, else (a new run) the resumed run's cursor, else the beginning. */
  const startAt = async (
    cursor: string | null,
    input: Record<string, unknown>,
    calls: () => Promise<string[]>,
  ): Promise<Cursor> => {
    const saved = cursor ?? (typeof input.resumeCursor === 'string' ? input.resumeCursor : null);
    return saved ? (JSON.parse(saved) as Cursor) : { calls: await calls(), call: 0, page: null, walked: 0 };
  };
  const totalOf = async (cursor: Cursor) =>
    (await Promise.all(cursor.calls.map((id) => subscriptions.countApprovedSubscriptions(id)))).reduce(
      (a, b) => a + b,
      0,
    );

  /**
   * Asks INPS for each of these subscribers (not yet in the report, or in it with an error) and writes their
   * result. `wanted` picks who needs asking (the January job: only those without an ISEE valid this month).
   */
  async function refreshPeople(
    reportId: string,
    people: SubscriptionRecord[],
    context: Omit<QueryContext, 'callId'> & { callId?: string | null },
    wanted: (user: StoredUser) => boolean,
    budget: { left: number; spend(): void } = { left: Infinity, spend: () => undefined },
  ) {
    const done = await results.refreshedAlready(
      reportId,
      people.map((p) => p.userId),
    );
    const todo = people.filter((p) => !done.has(p.userId));
    const found = await users.getUserItems([...new Set(todo.map((p) => p.userId))]);
    let failuresInARow = 0;
    let asked = 0;
    let failed = 0;
    let stopped: 'LIMIT' | 'ESTIMATE' | null = null;
    const seen = new Set<string>();
    await mapAtMost(todo, IN_FLIGHT, async (person) => {
      const user = found.get(person.userId);
      if (!user || seen.has(person.userId) || !wanted(user)) return;
      seen.add(person.userId);
      const base = {
        reportId,
        userId: user.id,
        fiscalCode: user.fiscalCode,
        firstName: user.firstName ?? '',
        lastName: user.lastName ?? '',
        at: clock.now().toISOString(),
        askedOn: today(),
      };
      if (failuresInARow >= FAILURES_TO_STOP || stopped) return;
      if (budget.left <= 0) {
        stopped = 'ESTIMATE';
        return;
      }
      budget.spend();
      await deps.pace();
      asked += 1;
      try {
        const callId = context.callId ?? person.announcementId;
        const fetched = await deps.fetchForUser(user.id, {
          ...context,
          callId,
          benefitCode: await deps.benefitCodeOfCall?.(callId),
        });
        failuresInARow = 0;
        await results.putRefreshResult({
          ...base,
          outcome: refreshOutcomeOf(fetched.outcome),
          valueCents: fetched.valueCents,
          detail: fetched.isee?.inps?.reviewReason ?? null,
        });
      } catch (error) {
        if (!(error instanceof InpsQueryFailed)) throw error;
        // A refusal is the council's configuration: nothing else will pass. Stop now, with the reason.
        if (error.kind === 'REFUSED') throw new ConflictError(inpsMessages.operatorRefused);
        if (error.kind === 'MISCONFIGURED') throw inpsFailure('MISCONFIGURED', 'OPERATOR', error.cause);
        if ((error.cause as { withoutRetryAfter?: boolean } | undefined)?.withoutRetryAfter) {
          stopped = 'LIMIT';
          return;
        }
        failuresInARow += 1;
        failed += 1;
        await results.putRefreshResult({
          ...base,
          outcome: 'ERROR',
          valueCents: null,
          detail: inpsMessages.retryLater,
        });
      }
    });
    if (stopped) throw new StoppedForTheDay(stopped);
    // INPS failing again and again, or for everyone asked: stop with the reason (a new start resumes from here).
    if (failuresInARow >= FAILURES_TO_STOP || (failed > 0 && failed === asked))
      throw new ConflictError(
        `${inpsMessages.retryLater} Avviando di nuovo l’aggiornamento riprende da dove si è fermato.`,
      );
  }

  return {
    /** One slice of a call's refresh: a time budget of its approved subscribers. */
    async callRefreshSlice(input: Record<string, unknown>, cursor: string | null, actor: Actor) {
      const callId = String(input.callId ?? '');
      const reportId = String(input.reportId);
      const from = await startAt(cursor, input, async () => [callId]);
      const next = await untilStopped(reportId, from, inpsMessages.resumeCall, () =>
        walk(from, (page) =>
          refreshPeople(reportId, page, { reason: 'CALL', actor, callId, runId: reportId }, () => true),
        ),
      );
      return progress(next, await totalOf(from));
    },

    /** One slice of the January refresh: those without a validated ISEE valid this month are asked for. */
    async newYearSlice(input: Record<string, unknown>, cursor: string | null, actor: Actor) {
      const reportId = String(input.reportId);
      const [year, month] = today().split('-').map(Number);
      const from = await startAt(cursor, input, () => calls.listActiveCallIds());
      const needsNew = (user: StoredUser) => iseeForMonth(user.lastIsee, year, month) === null;
      // Sized against the daily estimate declared in the PDND purpose: at most that many queries a day.
      const day = today();
      const estimate = deps.settings().dailyEstimate ?? Infinity;
      // A run started again the same day (its last cursor older than its stop) counts what it asked today from its report.
      const asked = {
        day,
        count: Math.max(
          from.asked?.day === day ? from.asked.count : 0,
          Number.isFinite(estimate) ? await results.countAskedOn(reportId, day) : 0,
        ),
      };
      const budget = {
        get left() {
          return estimate - asked.count;
        },
        spend: () => void (asked.count += 1),
      };
      const next = await untilStopped(reportId, from, inpsMessages.resumeNewYear, () =>
        walk(from, (page) =>
          refreshPeople(reportId, page, { reason: 'NEW_YEAR', actor, runId: reportId }, needsNew, budget),
        ),
      );
      return progress({ ...next, asked }, await totalOf(from));
    },

    /**
     * One slice of the expiry job: each active subscriber's row (status and expiry as of today), and the
     * reminder to those expiring on 31 December once the configured day has come (claimed before sending: once).
     */
    async expirySlice(input: Record<string, unknown>, cursor: string | null) {
      const year = Number(input.year ?? today().slice(0, 4));
      const day = today();
      const { reminderFrom, portalUrl } = deps.settings();
      const remind = remindersDue(day, reminderFrom);
      const from = await startAt(cursor, {}, () => calls.listActiveCallIds());
      // The e-mails keep to the sending rate (SES refuses what goes past it): each waits its turn.
      const rate = remind ? ((await requireReminders().mailer.maxSendRate?.()) ?? Infinity) : Infinity;
      const mailTurn = rate > 0 && Number.isFinite(rate) ? makePacer(rate).pace : async () => undefined;
      const next = await walk(from, async (page) => {
        const found = await users.getUserItems([...new Set(page.map((p) => p.userId))]);
        await mapAtMost([...found.values()], IN_FLIGHT, async (user) => {
          const status = expiryStatus(user.lastIsee, day);
          if (!status) return;
          const at = clock.now().toISOString();
          const validated = validatedIsee(user.lastIsee);
          await expiry.putExpiry({
            year,
            userId: user.id,
            fiscalCode: user.fiscalCode,
            firstName: user.firstName ?? '',
            lastName: user.lastName ?? '',
            email: user.email ?? null,
            status,
            scadenza: validated ? iseeExpiry(validated) : null,
            checkedAt: at,
          });
          if (!remind || !shouldRemind(status, user.lastIsee, day) || !(await expiry.claimReminder(year, user.id, at)))
            return;
          const content = reminderContent(iseeExpiry(user.lastIsee!), portalUrl);
          let configuration: string | null = null;
          const channels = requireReminders();
          const io = await channels.io
            .sendMessage(user.fiscalCode, { subject: content.subject, markdown: content.markdown })
            .then((): ReminderChannelState => 'SENT')
            .catch((error: Error & { reason?: IoRefusalReason }): ReminderChannelState => {
              if (error.name !== 'IoRefused') return 'FAILED';
              // Only IO's word about this citizen is 'no IO'; a refusal of the council's key or address is not.
              if (error.reason === 'NO_PROFILE' || error.reason === 'SENDER_NOT_ALLOWED') return 'NO_CHANNEL';
              configuration = ioConfigurationMessage(error.reason);
              return 'FAILED';
            });
          const mail: ReminderChannelState = user.email
            ? await mailTurn()
                .then(() => channels.mailer.send({ to: [user.email!], subject: content.subject, text: content.text }))
                .then((): ReminderChannelState => 'SENT')
                .catch((): ReminderChannelState => 'FAILED')
            : 'NO_CHANNEL';
          await expiry.recordReminder(year, user.id, { io, mail });
          if (io === 'FAILED') deps.metrics?.count('NoticesFailed', 1, { notice: 'io' });
          // Nothing else would pass either: the run stops with the reason (the alarm NoticesFailed fires).
          if (configuration) throw new ConflictError(fill(inpsMessages.remindersStopped, { reason: configuration }));
        });
      });
      return progress(next, await totalOf(from));
    },
  };
}

export type IseeRefreshJobs = ReturnType<typeof makeIseeRefreshJobs>;
