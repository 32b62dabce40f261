/**
 * In-memory stand-ins for the use cases' dependencies (the same interfaces the DynamoDB repositories and
 * the S3 file store implement), and `portal()`, every use case wired on them. Use-case tests run on these:
 * no AWS, no mocks, and they assert what an operator or a citizen would notice.
 */
import type { AuditEntry, AuditHistory, AuditLog } from '../../functions/adapters/ports/audit.ts';
import type { Clock } from '../../functions/adapters/ports/clock.ts';
import type { EnrolmentRepository } from '../../functions/adapters/ports/enrolments.ts';
import type { FileStore } from '../../functions/adapters/ports/files.ts';
import type { Mailer, MailMessage } from '../../functions/adapters/ports/mail.ts';
import type { BusinessMetrics } from '../../functions/adapters/ports/metrics.ts';
import type { UserRepository } from '../../functions/adapters/ports/users.ts';
import type { BusinessMetric } from '../../functions/domain/business-metrics.ts';
import type { Band } from '../../functions/domain/bands.ts';
import { hourlyQuota } from '../../functions/domain/bands.ts';
import { CallState, nameSearchKey } from '../../functions/domain/calls.ts';
import { ValidationError } from '../../functions/domain/errors.ts';
import { fileMessages, isAcceptedType } from '../../functions/domain/files.ts';
import { toCents } from '../../functions/domain/money.ts';
import { actorFromClaims } from '../../functions/domain/roles.ts';
import type { Service } from '../../functions/domain/services.ts';
import {
  interleaveNames,
  normaliseEmail,
  normalisePhone,
  normaliseSearchText,
  toUser,
} from '../../functions/domain/users.ts';
import type { Page } from '../../functions/domain/validation.ts';
import { makeBandUseCases, type BandRepository } from '../../functions/bands/use-cases.ts';
import type { CallRecord } from '../../functions/domain/call-record.ts';
import { makeCallUseCases, type CallRepository } from '../../functions/calls/use-cases.ts';
import type { StoredIsee } from '../../functions/isee/repository.ts';
import { isIseeUsedForFee, toIsee } from '../../functions/domain/isee.ts';
import { makeIseeUseCases, type IseeRepository } from '../../functions/isee/use-cases.ts';
import { makeProfileUseCases } from '../../functions/profile/use-cases.ts';
import { makeServiceUseCases, type ServiceRepository } from '../../functions/services/use-cases.ts';
import type { EnrolmentIsee, SubscriptionRecord } from '../../functions/domain/subscription-record.ts';
import { makeEnrolmentUseCases } from '../../functions/enrolments/use-cases.ts';
import { makeEnrolmentCsvUseCases } from '../../functions/enrolment-csv/use-cases.ts';
import { makeImportApply, type ImportPlanRepository } from '../../functions/enrolment-csv/import-apply.ts';
import type { ImportPlan, PlannedImportAction } from '../../functions/domain/enrolment-import.ts';
import { RESET_HOURS_JOB, type JobRecord } from '../../functions/domain/jobs.ts';
import { makeJobs, makeJobWorker, type JobRepository, type JobRun } from '../../functions/jobs/use-cases.ts';
import { makeSubscriptionUseCases, type SubscriptionRepository } from '../../functions/subscriptions/use-cases.ts';
import type { StoredUser } from '../../functions/domain/user-record.ts';
import { isOpenTicket, searchKey } from '../../functions/domain/tickets.ts';
import type { StoredTicket } from '../../functions/tickets/repository.ts';
import { makeTicketUseCases, type TicketRepository } from '../../functions/tickets/use-cases.ts';
import { makeEnsureCitizen, makeUserUseCases } from '../../functions/users/use-cases.ts';
import { runningExportsOf } from '../../functions/flows/running-exports.ts';
import { claimsOf } from './events.ts';

export const actors = {
  operator: actorFromClaims(claimsOf.operator),
  citizen: actorFromClaims(claimsOf.citizen),
  otherCitizen: actorFromClaims({
    sub: 'giuseppe.verdi',
    role: '[CITIZEN]',
    given_name: 'Giuseppe',
    family_name: 'Verdi',
    fiscal_code: 'VRDGPP90P07F839R',
  }),
};

/** A clock that moves one second at every reading, so that "newest first" is never a tie. */
export function tickingClock(start = '2026-03-01T09:00:00.000Z'): Clock {
  let time = Date.parse(start);
  return { now: () => new Date((time += 1000)) };
}

export function sequentialIds(prefix = 'id') {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

export function memoryAudit(): AuditLog & AuditHistory & { entries: Array<AuditEntry & { at: string }> } {
  const entries: Array<AuditEntry & { at: string }> = [];
  return {
    entries,
    record: async (entry, at) => void entries.push(copy({ ...entry, at: at.toISOString() })),
    historyOf: async (entity, id, page) =>
      pageOf(
        entries
          .filter((e) => e.entity === entity && e.id === id)
          .map((e) => ({
            at: e.at,
            action: e.action,
            who: { sub: e.actor.sub, fiscalCode: e.actor.fiscalCode, fullName: e.actor.fullName, role: e.actor.role },
            before: e.before,
            after: e.after,
          })),
        page,
        50,
      ),
  };
}

/** The business metrics a use case counted: `total(metric, dimension?)` sums them (the dimension's values must match). */
export function memoryMetrics(): BusinessMetrics & {
  counted: { metric: BusinessMetric; value: number; dimension?: Record<string, string> }[];
  total(metric: BusinessMetric, dimension?: Record<string, string>): number;
} {
  const counted: { metric: BusinessMetric; value: number; dimension?: Record<string, string> }[] = [];
  return {
    counted,
    count: (metric, value, ...dimension) =>
      void counted.push({ metric, value, dimension: dimension[0] as Record<string, string> | undefined }),
    total: (metric, dimension) =>
      counted
        .filter(
          (c) =>
            c.metric === metric &&
            Object.entries(dimension ?? {}).every(([name, value]) => c.dimension?.[name] === value),
        )
        .reduce((sum, c) => sum + c.value, 0),
  };
}

/** The mail stand-in of the use-case tests: what was sent, or a failure on demand. */
export function memoryMailer(): Mailer & { sent: MailMessage[]; failNext: number } {
  const state = {
    sent: [] as MailMessage[],
    failNext: 0,
    async send(message: MailMessage) {
      if (state.failNext > 0) {
        state.failNext--;
        throw new Error('SES non raggiungibile');
      }
      state.sent.push(copy(message));
      return { messageId: `mail-${state.sent.length}` };
    },
  };
  return state;
}

export function memoryTickets() {
  const all = new Map<string, StoredTicket>();
  const rates = new Map<string, number>();
  let counter = 0;
  const byOpening = (list: StoredTicket[]) =>
    list.sort((a, b) => `${a.dataApertura}#${a.id}`.localeCompare(`${b.dataApertura}#${b.id}`));
  const strip = ({ richiedenteCognome: _s, origin: _o, ...ticket }: StoredTicket) => copy(ticket);
  const repository: TicketRepository = {
    nextTicketId: async () => String(++counter),
    async createTicket(input, id) {
      const item: StoredTicket = { ...copy(input), id, stato: 0, ultimoAggiornamento: input.dataApertura };
      all.set(id, item);
      return copy(item);
    },
    getTicketItem: async (id) => copy(all.get(id) ?? null),
    async updateTicket(current, changes, now) {
      const stored = all.get(current.id);
      if (!stored || !isOpenTicket(stored.stato) || stored.ultimoAggiornamento !== current.ultimoAggiornamento)
        return null;
      all.set(current.id, { ...stored, ...copy(changes), ultimoAggiornamento: now });
      return copy(all.get(current.id)!);
    },
    listOpenTickets: async (page) =>
      pageOf(byOpening([...all.values()].filter((t) => isOpenTicket(t.stato))).map(strip), page, 10),
    countOpenTickets: async () => [...all.values()].filter((t) => isOpenTicket(t.stato)).length,
    listTicketsOfUser: async (userId, page) =>
      pageOf(
        byOpening([...all.values()].filter((t) => t.userId === userId))
          .reverse()
          .map(strip),
        page,
        10,
      ),
    searchByFiscalCode: async (prefix, page) =>
      pageOf(byOpening([...all.values()].filter((t) => (t.fiscalCode ?? '').startsWith(prefix))).map(strip), page, 10),
    searchByText: async (prefix, page) =>
      pageOf(
        byOpening(
          [...all.values()].filter(
            (t) => searchKey(t.richiedenteCognome).startsWith(prefix) || searchKey(t.categoria).startsWith(prefix),
          ),
        ).map(strip),
        page,
        10,
      ),
    async countSupportMessage(userId, window, key, max) {
      const name = `${userId}|${window}|${key}`;
      if ((rates.get(name) ?? 0) >= max) return false;
      rates.set(name, (rates.get(name) ?? 0) + 1);
      return true;
    },
    async uncountSupportMessage(userId, window, key) {
      const name = `${userId}|${window}|${key}`;
      rates.set(name, (rates.get(name) ?? 1) - 1);
    },
  };
  return { ...repository, all, rates };
}

/** A page of an in-memory list; the cursor is the offset of the next page. */
function pageOf<T>(items: T[], page: { limit?: number; cursor?: string }, defaultLimit: number): Page<T> {
  const start = page.cursor ? Number(page.cursor) : 0;
  const end = start + (page.limit ?? defaultLimit);
  return { items: items.slice(start, end), nextCursor: end < items.length ? String(end) : null };
}

const copy = <T>(value: T): T => structuredClone(value);

/**
 * The documents bucket: `stage` puts an upload where the browser would (under the uploader's prefix);
 * a claim checks the owner and the type, as the S3 adapter does on the stored bytes.
 */
export function memoryFiles() {
  let next = 0;
  const staged = new Map<string, { contentType: string; size: number }>();
  const stored = new Map<string, { contentType: string; size: number }>();
  const stagingPrefix = (ownerSub: string) => `staging/${ownerSub}/`;
  const store: FileStore = {
    async createUpload(ownerSub, request) {
      const uploadKey = `${stagingPrefix(ownerSub)}${request.purpose}/${++next}`;
      staged.set(uploadKey, { contentType: request.contentType, size: request.size });
      return { uploadKey, url: 'memory://upload', fields: {}, expiresInSeconds: 300 };
    },
    async claimUpload(ownerSub, uploadKey, finalKey) {
      const file = staged.get(uploadKey);
      if (!file || !uploadKey.startsWith(stagingPrefix(ownerSub))) throw new ValidationError(fileMessages.notFound);
      staged.delete(uploadKey);
      if (!isAcceptedType(file.contentType)) throw new ValidationError(fileMessages.unsupported);
      stored.set(finalKey, file);
      return { key: finalKey, ...file };
    },
    downloadUrl: async (key) => `memory://${key}`,
    deleteFile: async (key) => void stored.delete(key),
  };
  return {
    ...store,
    stored,
    /** What a form sends after uploading `name` as `ownerSub`. */
    stage(ownerSub: string, name = 'documento.pdf', contentType = 'application/pdf') {
      const uploadKey = `${stagingPrefix(ownerSub)}memory/${++next}`;
      staged.set(uploadKey, { contentType, size: 1234 });
      return { uploadKey, name };
    },
  };
}

export function memoryBands(): BandRepository & {
  all: Map<string, Band>;
  getBands(ids: readonly string[]): Promise<Band[]>;
} {
  const all = new Map<string, Band>();
  const toBand = (id: string, input: Omit<Band, 'id' | 'hourlyQuota'>): Band => ({
    id,
    ...input,
    percent: input.percent ?? null,
    hourlyQuota: hourlyQuota({ percent: input.percent ?? null, fixedCost: input.fixedCost }),
  });
  return {
    all,
    listBands: async (page) =>
      pageOf(
        [...all.values()].sort((a, b) => a.min - b.min),
        page,
        20,
      ),
    getBand: async (id) => copy(all.get(id) ?? null),
    getBands: async (ids) => ids.flatMap((id) => (all.has(id) ? [copy(all.get(id)!)] : [])),
    async createBand(input, id) {
      all.set(id, toBand(id, { ...input, percent: input.percent ?? null }));
      return copy(all.get(id)!);
    },
    async updateBand(id, input) {
      if (!all.has(id)) return null;
      all.set(id, toBand(id, { ...input, percent: input.percent ?? null }));
      return copy(all.get(id)!);
    },
    deleteBand: async (id) => all.delete(id),
  };
}

export function memoryServices(): ServiceRepository & { all: Map<string, Service> } {
  const all = new Map<string, Service>();
  return {
    all,
    listServices: async (page) =>
      pageOf(
        [...all.values()].sort((a, b) => a.name.localeCompare(b.name)),
        page,
        20,
      ),
    getService: async (id) => copy(all.get(id) ?? null),
    async createService(input, id) {
      all.set(id, { id, ...input, inpsBenefitCode: input.inpsBenefitCode ?? null });
      return copy(all.get(id)!);
    },
    async updateService(id, input) {
      const before = all.get(id);
      if (!before) return null;
      all.set(id, {
        id,
        ...input,
        inpsBenefitCode: input.inpsBenefitCode === undefined ? before.inpsBenefitCode : input.inpsBenefitCode,
      });
      return copy(all.get(id)!);
    },
    deleteService: async (id) => all.delete(id),
  };
}

export function memoryCalls() {
  const all = new Map<string, CallRecord>();
  const summary = ({ id, name, year, state, serviceId, serviceName, dataInsert }: CallRecord) => ({
    id,
    name,
    year,
    state,
    serviceId,
    serviceName,
    dataInsert,
  });
  const byName = () => [...all.values()].sort((a, b) => nameSearchKey(a.name).localeCompare(nameSearchKey(b.name)));
  const repository: CallRepository & {
    bandIsUsedByCalls(id: string): Promise<boolean>;
    serviceHasCalls(id: string): Promise<boolean>;
  } = {
    getCall: async (id) => copy(all.get(id) ?? null),
    listCalls: async (query, pageSize) =>
      pageOf(
        byName()
          .filter((c) => nameSearchKey(c.name).startsWith(nameSearchKey(query.name ?? '')))
          .map(summary),
        query,
        pageSize,
      ),
    listCallsOfService: async (serviceId, page, pageSize) =>
      pageOf(
        byName()
          .filter((c) => c.serviceId === serviceId)
          .map(summary),
        page,
        pageSize,
      ),
    listOpenCalls: async (query, pageSize) =>
      pageOf(
        [...all.values()]
          .filter((c) => c.state === CallState.OPEN && (!query.serviceId || c.serviceId === query.serviceId))
          .sort((a, b) => b.dataInsert.localeCompare(a.dataInsert))
          .map(summary),
        query,
        pageSize,
      ),
    async putCall(record, previous) {
      const stored = all.get(record.id);
      if (previous ? stored?.version !== previous.version : stored) return false;
      all.set(record.id, copy(record));
      return true;
    },
    deleteCall: async (record) => void all.delete(record.id),
    bandIsUsedByCalls: async (bandId) => [...all.values()].some((c) => c.bandsId.includes(bandId)),
    serviceHasCalls: async (serviceId) => [...all.values()].some((c) => c.serviceId === serviceId),
  };
  return { ...repository, all };
}

export function memorySubscriptions() {
  const all = new Map<string, SubscriptionRecord>();
  /** Conditional as the DynamoDB writes: on the version (dataUpdate) and state read, or on absence. */
  const unchanged = (previous: SubscriptionRecord | null) => {
    const stored = previous ? all.get(previous.id) : undefined;
    return previous ? !!stored && stored.dataUpdate === previous.dataUpdate && stored.state === previous.state : true;
  };
  const repository: SubscriptionRepository & EnrolmentRepository = {
    getSubscription: async (callId, userId) => copy(all.get(`${callId}.${userId}`) ?? null),
    async createSubscription(record) {
      if (all.has(record.id)) return false;
      all.set(record.id, copy(record));
      return true;
    },
    listSubscriptionsOfUser: async (userId, query, pageSize) =>
      pageOf(
        [...all.values()]
          .filter((s) => s.userId === userId && (!query.state || s.state === query.state))
          .sort((a, b) => b.dataInsert.localeCompare(a.dataInsert)),
        query,
        pageSize,
      ),
    async putSubscription(record, previous) {
      if (previous ? !unchanged(previous) : all.has(record.id)) return false;
      all.set(record.id, copy(record));
      return true;
    },
    async deleteSubscription(previous) {
      if (!unchanged(previous)) return false;
      return all.delete(previous.id);
    },
    // The same semantics as the DynamoDB pages, on a plain filter and sort (the index choice is DynamoDB's).
    async listEnrolments(callId, filters) {
      const prefix = (value: string, wanted: string | undefined) =>
        !wanted || normaliseSearchText(value).startsWith(normaliseSearchText(wanted));
      const value = (s: SubscriptionRecord) =>
        filters.sort.endsWith('ranking') ? s.rankingScore : (s.isee?.valueCents ?? null);
      const sign = filters.sort.startsWith('-') ? -1 : 1;
      const found = [...all.values()]
        .filter(
          (s) =>
            s.announcementId === callId &&
            s.fiscalCode.startsWith((filters.fiscalCode ?? '').toUpperCase()) &&
            prefix(s.firstName, filters.firstName) &&
            prefix(s.lastName, filters.lastName) &&
            (!filters.confirmed || s.state === 'VALIDATED') &&
            (filters.iseeAbove === undefined || (!!s.isee && s.isee.valueCents > filters.iseeAbove)),
        )
        .sort((a, b) => {
          const [x, y] = [value(a), value(b)];
          if (x === null || y === null) return x === y ? a.userId.localeCompare(b.userId) : x === null ? 1 : -1;
          return sign * (x - y) || a.userId.localeCompare(b.userId);
        });
      return { ...pageOf(found.map(copy), filters, 10), total: found.length };
    },
    listAllSubscriptionsOfCall: async (callId) =>
      [...all.values()].filter((s) => s.announcementId === callId).map(copy),
    recountEnrolments: async () => undefined,
  };
  return {
    ...repository,
    all,
    countSubscriptionsOfCall: async (callId: string) =>
      [...all.values()].filter((s) => s.announcementId === callId).length,
    userHasSubscriptions: async (userId: string) => [...all.values()].some((s) => s.userId === userId),
    async syncUserNames(
      userId: string,
      person: { fiscalCode: string; firstName: string; lastName: string },
      now: string,
    ) {
      for (const s of all.values())
        if (s.userId === userId)
          all.set(s.id, { ...s, ...person, dataUpdate: now > s.dataUpdate ? now : s.dataUpdate });
    },
    async syncUserIsee(userId: string, isee: EnrolmentIsee | null, now: string) {
      for (const s of all.values())
        if (s.userId === userId)
          all.set(s.id, { ...s, isee: isee && { ...isee }, dataUpdate: now > s.dataUpdate ? now : s.dataUpdate });
    },
  };
}

export function memoryUsers(): UserRepository & {
  all: Map<string, StoredUser>;
  codes: Map<string, string>;
  signIns: Map<string, Set<string>>;
  getUsersByFiscalCodes(codes: string[]): Promise<Map<string, StoredUser>>;
} {
  const all = new Map<string, StoredUser>();
  const codes = new Map<string, string>();
  /** The Cognito subs that signed in, by fiscal code. */
  const signIns = new Map<string, Set<string>>();
  const repository: UserRepository = {
    // Every filter of /lista_utenti, as the DynamoDB repository applies them (prefixes of the normalised
    // values); ordered by the index it would read: both names → their interleaving, else last name.
    async searchUsers(search) {
      const last = normaliseSearchText(search.lastName);
      const first = normaliseSearchText(search.firstName);
      const fiscalCode = (search.fiscalCode ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
      const email = normaliseEmail(search.email);
      const phone = normalisePhone(search.phoneNumber);
      const byNames = !!last && !!first && !fiscalCode && !email && !phone && !search.loaded;
      const order = (u: StoredUser) => {
        const [l, f] = [normaliseSearchText(u.lastName), normaliseSearchText(u.firstName)];
        return `${byNames ? interleaveNames(l, f) : `${l}#${f}`}#${u.id}`;
      };
      const found = [...all.values()]
        .filter(
          (u) =>
            normaliseSearchText(u.lastName).startsWith(last) &&
            normaliseSearchText(u.firstName).startsWith(first) &&
            u.fiscalCode.toUpperCase().startsWith(fiscalCode) &&
            (!email || normaliseEmail(u.email).startsWith(email)) &&
            (!phone || normalisePhone(u.phoneNumber).startsWith(phone)) &&
            (!search.loaded || u.state === 'LOADED'),
        )
        .sort((a, b) => (order(a) < order(b) ? -1 : 1)); // byte order, as DynamoDB sorts keys
      return pageOf(found.map(toUser), search, 15);
    },
    countLoadedUsers: async () => [...all.values()].filter((u) => u.state === 'LOADED').length,
    getUserItem: async (id) => copy(all.get(id) ?? null),
    findUserIdByFiscalCode: async (fiscalCode) => codes.get(fiscalCode.toUpperCase()) ?? null,
    async claimFiscalCode(fiscalCode, userId) {
      if (codes.has(fiscalCode.toUpperCase())) return false;
      codes.set(fiscalCode.toUpperCase(), userId);
      return true;
    },
    async releaseFiscalCode(fiscalCode, userId) {
      if (codes.get(fiscalCode.toUpperCase()) === userId) codes.delete(fiscalCode.toUpperCase());
    },
    async recordSignIn(fiscalCode, sub) {
      const code = fiscalCode.toUpperCase();
      signIns.set(code, (signIns.get(code) ?? new Set()).add(sub));
    },
    async insertUser(record, now) {
      if (all.has(record.id)) return false;
      all.set(record.id, { ...copy(record), createdAt: now, updatedAt: now });
      return true;
    },
    async createUser(input, id, now) {
      if (!(await repository.claimFiscalCode(input.fiscalCode, id))) return null;
      await repository.insertUser({ id, ...input, state: 'VALIDATED', dataInsert: now }, now);
      return toUser(all.get(id)!);
    },
    async updateUserFields(id, changes, now) {
      const before = all.get(id);
      if (!before) return null;
      const after: Record<string, any> = { ...before, ...copy(changes), updatedAt: now };
      for (const [key, value] of Object.entries(after))
        if (value === null || value === undefined || value === '') delete after[key];
      all.set(id, after as StoredUser);
      return { before: copy(before), after: copy(after as StoredUser) };
    },
    async deleteUser(id, expected) {
      const user = all.get(id);
      if (!user || (user.iseeCount ?? 0) !== expected.iseeCount) return false;
      return all.delete(id);
    },
  };
  return {
    ...repository,
    all,
    codes,
    signIns,
    async getUsersByFiscalCodes(fiscalCodes: string[]) {
      const found = new Map<string, StoredUser>();
      for (const code of fiscalCodes) {
        const id = codes.get(code.toUpperCase());
        if (id && all.has(id)) found.set(code.toUpperCase(), copy(all.get(id)!));
      }
      return found;
    },
  };
}

export function memoryIsees() {
  const all = new Map<string, StoredIsee>();
  const newestFirst = (userId: string) =>
    [...all.values()]
      .filter((i) => i.userId === userId)
      .sort((a, b) => `${b.dataInsert}#${b.id}`.localeCompare(`${a.dataInsert}#${a.id}`));
  const repository: IseeRepository = {
    getIseeItem: async (id) => copy(all.get(id) ?? null),
    async createIsee(input, now) {
      const { value, file, ...rest } = input;
      const item: StoredIsee = {
        ...rest,
        valueCents: toCents(value),
        hasFile: !!file,
        fileName: file?.name ?? null,
        contentType: file?.contentType ?? null,
        excludeVerification: !!input.excludeVerification,
        extractionStatus: file ? 'PENDING' : 'NONE',
        dataInsert: now,
      };
      all.set(input.id, item);
      return copy(item);
    },
    async changeIseeState(id, expected, state, now, fields = {}) {
      const item = all.get(id);
      if (!item || item.state !== expected) return null;
      const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      all.set(id, { ...item, ...defined, state, updatedAt: now });
      return copy(all.get(id)!);
    },
    // Conditional, as the DynamoDB delete: not an ISEE used for a fee.
    deleteIsee: async (id) => all.has(id) && !isIseeUsedForFee(all.get(id)!) && all.delete(id),
    recentIseesOfUser: async (userId, limit) =>
      newestFirst(userId)
        .slice(0, limit)
        .map((isee) => copy(isee)!),
    listIseesOfUser: async (userId, page) => pageOf(newestFirst(userId).map(toIsee), page, 5),
    listIseesToVerify: async (page) =>
      pageOf(
        [...all.values()]
          .filter((i) => i.state === 'LOADED')
          .sort((a, b) => a.dataInsert.localeCompare(b.dataInsert))
          .map(toIsee),
        page,
        5,
      ),
    countIseesToVerify: async () => [...all.values()].filter((i) => i.state === 'LOADED').length,
  };
  return { ...repository, all, userHasIsees: async (userId: string) => newestFirst(userId).length > 0 };
}

/** The background jobs' records with the same conditions as functions/jobs/repository.ts. */
export function memoryJobs(): JobRepository & { all: Map<string, JobRecord> } {
  const all = new Map<string, JobRecord>();
  const key = (kind: string, k: string) => `${kind}#${k}`;
  return {
    all,
    getJob: async (kind, k) => structuredClone(all.get(key(kind, k)) ?? null),
    async takeJob(job, staleBefore) {
      const current = all.get(key(job.kind, job.key));
      if (current && current.state === 'RUNNING' && current.updatedAt >= staleBefore) return false;
      all.set(key(job.kind, job.key), structuredClone(job));
      return true;
    },
    async updateJob(kind, k, id, fields) {
      const current = all.get(key(kind, k));
      if (!current || current.id !== id || current.state !== 'RUNNING') return false;
      Object.assign(current, fields);
      return true;
    },
  };
}

/** Stored import previews (functions/enrolment-csv/plan-repository.ts). */
export function memoryImportPlans(): ImportPlanRepository & {
  plans: Map<string, ImportPlan>;
  slices: Map<string, PlannedImportAction[]>;
} {
  const plans = new Map<string, ImportPlan>();
  const slices = new Map<string, PlannedImportAction[]>();
  return {
    plans,
    slices,
    async savePlan(plan, planSlices) {
      planSlices.forEach((actions, n) => slices.set(`${plan.previewId}#${n}`, structuredClone(actions)));
      plans.set(plan.previewId, structuredClone(plan));
    },
    getPlan: async (previewId) => structuredClone(plans.get(previewId) ?? null),
    getPlanSlice: async (previewId, n) => structuredClone(slices.get(`${previewId}#${n}`) ?? null),
  };
}

/** Every use case of the portal on one set of in-memory stores, as the handlers wire the real ones. */
export function portal() {
  const store = {
    bands: memoryBands(),
    services: memoryServices(),
    calls: memoryCalls(),
    subscriptions: memorySubscriptions(),
    users: memoryUsers(),
    isees: memoryIsees(),
    files: memoryFiles(),
    audit: memoryAudit(),
    tickets: memoryTickets(),
    mailer: memoryMailer(),
    mailFailures: [] as { ticketId: string; message: string }[],
    /** callId → the flow exporting it (the MyPay export lock). */
    exportLocks: new Map<string, string>(),
    jobs: memoryJobs(),
    importPlans: memoryImportPlans(),
    /** The runs started (what Step Functions would execute). */
    jobRuns: [] as JobRun[],
  };
  const clock = tickingClock();
  const ids = sequentialIds();
  const common = { audit: store.audit, clock, ids };
  const ensureCitizen = makeEnsureCitizen({ users: store.users, ids, clock });
  const isee = makeIseeUseCases({
    ...common,
    isees: store.isees,
    users: store.users,
    ensureCitizen,
    files: store.files,
    subscriptions: store.subscriptions,
  });
  const exports = runningExportsOf({
    runningExportOf: async (callId: string) => store.exportLocks.get(callId) ?? null,
  });
  const jobs = makeJobs({
    jobs: store.jobs,
    runner: { start: async (run) => void store.jobRuns.push(run) },
    clock,
    ids,
  });
  const getUserItems = async (userIds: readonly string[]) => {
    const found = new Map<string, StoredUser>();
    for (const id of userIds) {
      const user = await store.users.getUserItem(id);
      if (user) found.set(id, user);
    }
    return found;
  };
  const enrolmentImport = makeImportApply({
    ...common,
    plans: store.importPlans,
    subscriptions: store.subscriptions,
    calls: store.calls,
    users: { getUserItems },
    isees: isee,
    files: store.files,
    exports,
  });
  const enrolments = makeEnrolmentUseCases({
    ...common,
    subscriptions: store.subscriptions,
    calls: store.calls,
    bands: store.bands,
    users: store.users,
    files: store.files,
    exports,
    jobs,
  });
  const jobWorker = makeJobWorker({
    jobs: store.jobs,
    kinds: {
      'enrolment-import': { slice: enrolmentImport.applySlice, failure: 'Importazione non riuscita.' },
      [RESET_HOURS_JOB]: { slice: enrolments.resetHoursSlice, failure: 'Azzeramento non riuscito.' },
    },
    clock,
  });
  /** What the state machine does with the latest run started: slices until finished (the number of slices). */
  async function runLatestJob(): Promise<number> {
    const run = store.jobRuns.at(-1)!;
    let cursor = run.cursor;
    for (let i = 1; i < 1000; i++) {
      const result = await jobWorker.slice({ ...run, cursor });
      if (result.finished) return i;
      cursor = result.cursor;
    }
    throw new Error('job never finished');
  }
  return {
    jobWorker,
    runLatestJob,
    enrolmentImport,
    store,
    ensureCitizen,
    bands: makeBandUseCases({ ...common, bands: store.bands, calls: store.calls }),
    services: makeServiceUseCases({ ...common, services: store.services, calls: store.calls }),
    calls: makeCallUseCases({
      ...common,
      calls: store.calls,
      services: store.services,
      bands: store.bands,
      subscriptions: store.subscriptions,
      citizens: store.users,
      files: store.files,
    }),
    subscriptions: makeSubscriptionUseCases({
      ...common,
      subscriptions: store.subscriptions,
      calls: store.calls,
      bands: store.bands,
      users: store.users,
      ensureCitizen,
      files: store.files,
    }),
    users: makeUserUseCases({ ...common, users: store.users, isees: store.isees, subscriptions: store.subscriptions }),
    profile: makeProfileUseCases({ users: store.users, ensureCitizen, clock }),
    isee,
    tickets: makeTicketUseCases({
      tickets: store.tickets,
      users: store.users,
      services: store.services,
      ensureCitizen,
      mailer: store.mailer,
      supportAddress: () => 'supporto@comune.example.it',
      audit: store.audit,
      history: store.audit,
      clock,
      onMailFailure: (error, ticketId) => store.mailFailures.push({ ticketId, message: (error as Error).message }),
    }),
    enrolments,
    enrolmentCsv: makeEnrolmentCsvUseCases({
      ...common,
      subscriptions: store.subscriptions,
      calls: store.calls,
      users: store.users,
      plans: store.importPlans,
      jobs,
      exports,
    }),
  };
}

export type Portal = ReturnType<typeof portal>;

/**
 * An ISEE the operator records for a citizen (the user record's upload): validated at once, or, with
 * `verified: false`, left to the review (by default with its attestation staged as the operator's upload).
 */
export function recordIsee(
  app: Portal,
  userId: string,
  input: { value: number; year?: number; verified?: boolean; withDocument?: boolean; protocollo?: string },
) {
  const { value, year = 2026, verified = true, withDocument = !verified, protocollo = 'P' } = input;
  return app.isee.uploadUserIsee(
    userId,
    {
      excludeVerification: verified,
      document: withDocument ? app.store.files.stage(actors.operator.sub) : null,
      value,
      year,
      date: '2026-01-20',
      protocollo,
      scadenza: '2026-12-31',
    },
    actors.operator,
  );
}
