import { DomainError, NotFoundError, ValidationError } from '../domain/errors.ts';
import {
  applicationNumber,
  compareWithInps,
  dsuYear,
  fetchMessage,
  inpsMessages,
  needsReview,
  outcomeOfError,
  outcomeOfEsito,
  storedInpsDetails,
  INPS_FISCAL_CODE,
  type InpsAnswer,
  type InpsAttestation,
  type InpsCheck,
  type InpsFetchOutcome,
  type InpsQueryReason,
} from '../domain/inps.ts';
import { iseeMessages, toIsee, type InpsFetchResult, type Isee } from '../domain/isee.ts';
import { toEuros } from '../domain/money.ts';
import { romeDay } from '../domain/period.ts';
import type { Actor } from '../domain/roles.ts';
import { userMessages } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import type { InpsQuery } from '../domain/inps.ts';
import type { AuditLog, Clock, IdGenerator, InpsIsee, InpsRequest } from '../adapters/ports.ts';
import type { EnsureCitizen, UserRepository } from '../users/use-cases.ts';
import type { StoredInpsQuery } from './inps-queries-repository.ts';
import type { NewIsee, StoredIsee } from './repository.ts';

/**
 * The ISEE from INPS through PDND (issue 24): the citizen's 'Recupera il mio ISEE da INPS', the operator's
 * 'Aggiorna ISEE da INPS' and 'Verifica con INPS', and the one fetch the refresh jobs repeat for each
 * subscriber. Every query is recorded (reference.md: purpose, voucher, fiscal code, benefit code,
 * application number, INPS's IdRichiesta and Esito, who, when), whatever its outcome. Nothing is written
 * but the record when INPS has no valid DSU, is unreachable, or answers something unreadable: no ISEE is
 * ever invented.
 */
export interface InpsQueryRepository {
  recordQuery(query: StoredInpsQuery): Promise<void>;
  listQueriesOfUser(userId: string, page: { limit?: number; cursor?: string }): Promise<Page<InpsQuery>>;
}

export interface InpsIseeDeps {
  /** Lazy: the settings are read at the first query, not when a function that never asks INPS loads. */
  inps: () => InpsIsee;
  settings: () => { benefitCode: string };
  isees: { getIseeItem(id: string): Promise<StoredIsee | null>; recordIsee(input: NewIsee): Promise<Isee> };
  users: Pick<UserRepository, 'getUserItem'>;
  ensureCitizen: EnsureCitizen;
  queries: InpsQueryRepository;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

/** Why and for what a query is made: recorded with it. */
export interface QueryContext {
  reason: InpsQueryReason;
  actor: Actor;
  callId?: string | null;
  /** The refresh job's run, when the query is one of a batch. */
  runId?: string | null;
}

/** The outcome of one fetch: what INPS said and what the portal did with it. */
export interface FetchOutcome {
  outcome: InpsFetchOutcome;
  isee: Isee | null;
  /** For the refresh report: the ISEE now in force (the one recorded, or the one INPS confirmed). */
  valueCents: number | null;
}

/** 503 when INPS (or PDND) cannot answer now, 502 when it refuses the council's request. */
export function inpsFailure(kind: 'RETRY_LATER' | 'REFUSED', audience: 'CITIZEN' | 'OPERATOR'): DomainError {
  if (kind === 'RETRY_LATER') return new DomainError(503, 'Servizio INPS non disponibile', inpsMessages.retryLater);
  return new DomainError(502, 'Richiesta rifiutata da INPS', audience === 'CITIZEN' ? inpsMessages.refused : inpsMessages.operatorRefused);
}

/** A failure to reach INPS, as the refresh jobs and the API tell it apart. */
export class InpsQueryFailed extends Error {
  override name = 'InpsQueryFailed';
  constructor(
    readonly kind: 'RETRY_LATER' | 'REFUSED',
    readonly cause: unknown,
  ) {
    super(`INPS: ${kind} (${(cause as Error)?.message ?? cause})`);
  }
}

const applicationState = (reason: InpsQueryReason) => (reason === 'CALL' || reason === 'NEW_YEAR' ? 'Erogata' : 'Da Erogare');

export function makeInpsIseeUseCases(deps: InpsIseeDeps) {
  const { isees, users, queries, audit, clock, ids } = deps;
  const requireUser = async (id: string) => (await users.getUserItem(id)) ?? Promise.reject(new NotFoundError(userMessages.notFound));

  /**
   * One query to INPS, recorded whatever happens. Throws InpsQueryFailed when no usable answer came
   * (unreachable, refused, unreadable): the record then says NESSUNA_RISPOSTA, or NON_INVIATA when PDND gave
   * no voucher (the request never left).
   */
  async function ask<T>(
    userId: string,
    fiscalCode: string,
    context: QueryContext,
    call: (request: InpsRequest) => Promise<InpsAnswer<T>>,
    operation: InpsAnswer<T>['operation'],
  ): Promise<InpsAnswer<T>> {
    const at = clock.now();
    const request: InpsRequest = {
      fiscalCode,
      dataValidita: romeDay(at),
      benefitCode: deps.settings().benefitCode,
      applicationNumber: applicationNumber(userId, context.callId),
      applicationState: applicationState(context.reason),
      requestedBy: { userID: context.actor.fiscalCode ?? context.actor.sub, LoA: 'SPID_L2' },
    };
    const record = (fields: Pick<StoredInpsQuery, 'purposeId' | 'voucherJti' | 'idRichiesta' | 'esito'>) =>
      queries.recordQuery({
        id: ids(),
        userId,
        at: at.toISOString(),
        operation,
        reason: context.reason,
        fiscalCode,
        benefitCode: request.benefitCode,
        applicationNumber: request.applicationNumber,
        applicationState: request.applicationState,
        who: { sub: context.actor.sub, role: context.actor.role, fullName: context.actor.fullName },
        callId: context.callId ?? null,
        runId: context.runId ?? null,
        ...fields,
      });
    let answer: InpsAnswer<T>;
    try {
      answer = await call(request);
    } catch (error) {
      const kind = outcomeOfError(error);
      if (!kind || kind === 'FOUND' || kind === 'NOT_FOUND') throw error;
      const name = (error as Error).name;
      await record({ purposeId: '', voucherJti: null, idRichiesta: null, esito: name.startsWith('Pdnd') ? 'NON_INVIATA' : 'NESSUNA_RISPOSTA' });
      throw new InpsQueryFailed(kind, error);
    }
    await record({ purposeId: answer.purposeId, voucherJti: answer.voucherJti, idRichiesta: answer.idRichiesta, esito: answer.esito });
    return answer;
  }

  const isSameDsu = (newest: StoredIsee | null, attestation: InpsAttestation) =>
    !!newest &&
    (newest.state === 'VALIDATED' || (newest.state === 'LOADED' && newest.source === 'INPS')) &&
    newest.protocollo === attestation.protocolloDSU &&
    newest.valueCents === attestation.ordinario?.iseeCents;

  /**
   * Fetches the attestation valid today and records it as the user's ISEE: validated at once without
   * omissions or discrepancies, otherwise waiting for the operators' review (design §4). The same DSU
   * already recorded is not written again (UNCHANGED). Throws InpsQueryFailed when INPS gives no usable answer.
   */
  async function fetchForUser(userId: string, context: QueryContext): Promise<FetchOutcome> {
    const user = await requireUser(userId);
    const fiscalCode = String(user.fiscalCode ?? '').toUpperCase();
    if (!INPS_FISCAL_CODE.test(fiscalCode)) throw new ValidationError(inpsMessages.noUserFiscalCode);
    const answer = await ask(userId, fiscalCode, context, (request) => deps.inps().attestation(request), 'ConsultazioneAttestazione');
    const kind = outcomeOfEsito(answer.esito, !!answer.data?.ordinario);
    if (kind === 'RETRY_LATER' || kind === 'REFUSED') throw new InpsQueryFailed(kind, new Error(`Esito ${answer.esito}: ${answer.descrizioneErrore ?? ''}`));
    if (kind === 'NOT_FOUND') return { outcome: 'NOT_FOUND', isee: null, valueCents: null };
    const attestation = answer.data!;
    const ordinario = attestation.ordinario!;
    // The newest the user's record names, read from the table (never through an index right after a write).
    const newest = user.lastIsee ? await isees.getIseeItem(user.lastIsee.id) : null;
    if (isSameDsu(newest, attestation)) return { outcome: 'UNCHANGED', isee: toIsee(newest!), valueCents: ordinario.iseeCents };
    const now = clock.now();
    const review = needsReview(attestation);
    const isee = await isees.recordIsee({
      id: ids(),
      userId,
      user: { firstName: user.firstName ?? '', lastName: user.lastName ?? '', fiscalCode: user.fiscalCode, email: user.email ?? null },
      value: toEuros(ordinario.iseeCents),
      year: dsuYear(attestation),
      date: now.toISOString(),
      protocollo: attestation.protocolloDSU,
      scadenza: attestation.dataValidita,
      state: review ? 'LOADED' : 'VALIDATED',
      file: null,
      uploadedBy: context.actor.role === 'CITIZEN' ? 'CITIZEN' : 'OPERATOR',
      uploadedBySub: context.actor.sub,
      source: 'INPS',
      inps: storedInpsDetails(attestation, answer, now.toISOString()),
    });
    // The citizen's own fetch is theirs; anything an operator (or a job in an operator's name) records is audited.
    if (context.actor.role !== 'CITIZEN') await audit.record({ actor: context.actor, entity: 'isee', id: isee.id, action: 'create', before: null, after: isee }, now);
    return { outcome: review ? 'REVIEW' : 'VALIDATED', isee, valueCents: ordinario.iseeCents };
  }

  /** The API's answer: the Italian message, or the 503 / 502 of a failure. */
  async function answered(userId: string, context: QueryContext, audience: 'CITIZEN' | 'OPERATOR'): Promise<InpsFetchResult> {
    try {
      const { outcome, isee } = await fetchForUser(userId, context);
      return { outcome, isee, message: fetchMessage(outcome, audience, isee && { valueCents: Math.round(isee.value * 100), protocollo: isee.protocollo, scadenza: isee.scadenza }) };
    } catch (error) {
      if (error instanceof InpsQueryFailed) throw inpsFailure(error.kind, audience);
      throw error;
    }
  }

  return {
    fetchForUser,

    /** 'Recupera il mio ISEE da INPS': the signed-in citizen, for themself only. */
    fetchMyIsee: async (actor: Actor) => answered(await deps.ensureCitizen(actor), { reason: 'CITIZEN', actor }, 'CITIZEN'),

    /** 'Aggiorna ISEE da INPS' on the user record (operators). */
    fetchUserIsee: (userId: string, actor: Actor) => answered(userId, { reason: 'OPERATOR', actor }, 'OPERATOR'),

    /**
     * 'Verifica con INPS' on an uploaded document: INPS's indicator beside the declared value and the
     * reading. Changes nothing but the query record.
     */
    async checkWithInps(iseeId: string, actor: Actor): Promise<InpsCheck> {
      const stored = await isees.getIseeItem(iseeId);
      if (!stored) throw new NotFoundError(iseeMessages.notFound);
      const fiscalCode = String(stored.user?.fiscalCode ?? '').toUpperCase();
      if (!INPS_FISCAL_CODE.test(fiscalCode)) throw new ValidationError(inpsMessages.noUserFiscalCode);
      const readCents = typeof stored.extraction?.iseeOrdinario === 'number' ? Math.round(stored.extraction.iseeOrdinario * 100) : null;
      const upload = { valueCents: stored.valueCents, readCents, protocollo: stored.protocollo ?? stored.extraction?.protocollo ?? null };
      let answer;
      try {
        answer = await ask(stored.userId, fiscalCode, { reason: 'CHECK', actor }, (request) => deps.inps().indicator(request), 'ConsultazioneIndicatore');
      } catch (error) {
        if (error instanceof InpsQueryFailed) throw inpsFailure(error.kind, 'OPERATOR');
        throw error;
      }
      const kind = outcomeOfEsito(answer.esito, !!answer.data);
      if (kind === 'RETRY_LATER' || kind === 'REFUSED') throw inpsFailure(kind, 'OPERATOR');
      if (kind === 'NOT_FOUND' || !answer.data) {
        return {
          found: false,
          message: inpsMessages.operatorNotFound,
          inps: null,
          declared: { value: toEuros(upload.valueCents), difference: 0 },
          read: readCents === null ? null : { value: toEuros(readCents), difference: 0 },
          protocolMatches: null,
          agrees: false,
        };
      }
      const comparison = compareWithInps(answer.data, upload);
      return { found: true, message: comparison.agrees ? inpsMessages.checkAgrees : inpsMessages.checkDiffers, ...comparison };
    },

    listUserQueries: async (userId: string, page: { limit?: number; cursor?: string }) => {
      await requireUser(userId);
      return queries.listQueriesOfUser(userId, page);
    },

    listMyQueries: async (actor: Actor, page: { limit?: number; cursor?: string }) => queries.listQueriesOfUser(await deps.ensureCitizen(actor), page),
  };
}

export type InpsIseeUseCases = ReturnType<typeof makeInpsIseeUseCases>;
