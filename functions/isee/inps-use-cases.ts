import { DomainError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { fill } from '../domain/messages.ts';
import {
  applicationNumber,
  attestationDsu,
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
  type InpsIndicator,
  type InpsFetchOutcome,
  type InpsQueryReason,
} from '../domain/inps.ts';
import { iseeMessages, toIsee } from '../domain/isee-rules.ts';
import type { InpsFetchResult, Isee } from '../domain/isee.ts';
import { toCents, toEuros } from '../domain/money.ts';
import { romeDay } from '../domain/period.ts';
import type { Actor } from '../domain/roles.ts';
import { userMessages } from '../domain/user-rules.ts';
import type { Page } from '../domain/validation.ts';
import type { InpsQuery } from '../domain/inps.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { InpsIsee, InpsRequest } from '../adapters/ports/inps.ts';
import { type BusinessMetrics, noMetrics } from '../adapters/ports/metrics.ts';
import type { EnsureCitizen, UserRepository } from '../adapters/ports/users.ts';
import type { StoredInpsQuery } from './inps-queries-repository.ts';
import type { StoredIsee } from './repository.ts';
import type { NewIsee } from '../domain/isee-record.ts';

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
  /**
   * The default benefit code (a service's own wins) and the purposes, recorded with a query before it is sent;
   * whether every household member's names and fiscal code are kept (default: relations only).
   */
  settings: () => {
    benefitCode: string;
    purposes: { attestazione: string; indicatore: string | null };
    keepFullHousehold?: boolean;
  };
  /** InpsConfigurationErrors: a fault that means the settings are wrong (an alarm). */
  metrics?: BusinessMetrics;
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
  /** PrestazioneDaErogare of the service the query is for (the refresh jobs give their call's), else the deployment's default. */
  benefitCode?: string | null;
  /** Epoch ms by which the query must be over: the calling function's time budget (none: the adapter's own). */
  deadline?: number;
}

/** The outcome of one fetch: what INPS said and what the portal did with it. */
export interface FetchOutcome {
  outcome: InpsFetchOutcome;
  isee: Isee | null;
  /** For the refresh report: the ISEE now in force (the one recorded, or the one INPS confirmed). */
  valueCents: number | null;
}

export type InpsFailureKind = 'RETRY_LATER' | 'REFUSED' | 'MISCONFIGURED';

/** The configuration problem's reason and what to check (adapters/inps-isee.ts InpsMisconfigured). */
const misconfiguration = (cause: unknown) => ({
  reason: (cause as Error | undefined)?.message ?? 'errore di configurazione',
  check: (cause as { check?: string } | undefined)?.check ?? 'la configurazione PDND e INPS',
});

/**
 * 503 when INPS (or PDND) cannot answer now (in time, or at all), 502 when it refuses the council's request or
 * the council's settings do not match the e-service (the operator is told what to check, the citizen how to
 * upload the attestation instead).
 */
export function inpsFailure(kind: InpsFailureKind, audience: 'CITIZEN' | 'OPERATOR', cause?: unknown): DomainError {
  if (kind === 'RETRY_LATER') {
    const outOfTime = (cause as Error | undefined)?.message?.includes('tempo esaurito');
    return new DomainError(
      503,
      'Servizio INPS non disponibile',
      outOfTime ? inpsMessages.outOfTime : inpsMessages.retryLater,
    );
  }
  if (kind === 'MISCONFIGURED') {
    return new DomainError(
      502,
      'Configurazione INPS da correggere',
      audience === 'CITIZEN'
        ? inpsMessages.councilCheckUnavailable
        : fill(inpsMessages.operatorMisconfigured, misconfiguration(cause)),
    );
  }
  return new DomainError(
    502,
    'Richiesta rifiutata da INPS',
    audience === 'CITIZEN' ? inpsMessages.refused : inpsMessages.operatorRefused,
  );
}

/** A failure to reach INPS, as the refresh jobs and the API tell it apart. */
export class InpsQueryFailed extends Error {
  override name = 'InpsQueryFailed';
  constructor(
    readonly kind: InpsFailureKind,
    readonly cause: unknown,
  ) {
    super(`INPS: ${kind} (${(cause as Error)?.message ?? cause})`);
  }
}

/**
 * The LoA of the audit information (AUDIT_REST_02): the level of the sign-in of whoever asked (a citizen's
 * SPID/CIE level, an operator's), or the job's own when a refresh job asks unattended.
 */
export const auditLoa = (context: Pick<QueryContext, 'reason' | 'actor'>): string =>
  context.reason === 'CALL' || context.reason === 'NEW_YEAR'
    ? 'PROCEDURA_AUTOMATICA'
    : (context.actor.loa ?? 'NON_DISPONIBILE');

/** The attestation's ordinary ISEE as an indicator (with the protocol the portal records: an ISEE corrente's own). */
const indicatorOf = (answer: InpsAnswer<InpsAttestation>): InpsAnswer<InpsIndicator> => {
  const attestation = answer.data;
  return {
    ...answer,
    data: attestation?.ordinario
      ? {
          tipoIndicatore: 'Ordinario',
          values: attestation.ordinario,
          protocolloDSU: attestationDsu(attestation).protocollo,
          dataPresentazione: attestation.corrente?.dataPresentazione ?? attestation.dataPresentazione,
        }
      : null,
  };
};

const applicationState = (reason: InpsQueryReason) =>
  reason === 'CALL' || reason === 'NEW_YEAR' ? 'Erogata' : 'Da Erogare';

export function makeInpsIseeUseCases(deps: InpsIseeDeps) {
  const { isees, users, queries, audit, clock, ids } = deps;
  const metrics = deps.metrics ?? noMetrics;
  const requireUser = async (id: string) =>
    (await users.getUserItem(id)) ?? Promise.reject(new NotFoundError(userMessages.notFound));

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
    const settings = deps.settings();
    const request: InpsRequest = {
      fiscalCode,
      dataValidita: romeDay(at),
      benefitCode: context.benefitCode || settings.benefitCode,
      applicationNumber: applicationNumber(userId, context.callId),
      applicationState: applicationState(context.reason),
      requestedBy: { userID: context.actor.fiscalCode ?? context.actor.sub, LoA: auditLoa(context) },
      deadline: context.deadline,
    };
    const id = ids();
    const record = (fields: Pick<StoredInpsQuery, 'purposeId' | 'voucherJti' | 'idRichiesta' | 'esito'>) =>
      queries.recordQuery({
        id,
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
    const purposeId =
      (operation === 'ConsultazioneIndicatore' ? settings.purposes.indicatore : settings.purposes.attestazione) ?? '';
    // Recorded before asking: if the function is stopped while INPS runs the query, the record says so.
    await record({ purposeId, voucherJti: null, idRichiesta: null, esito: 'IN_CORSO' });
    let answer: InpsAnswer<T>;
    try {
      answer = await call(request);
    } catch (error) {
      const kind = outcomeOfError(error);
      if (!kind || kind === 'FOUND' || kind === 'NOT_FOUND') throw error;
      const name = (error as Error).name;
      if (kind === 'MISCONFIGURED' || kind === 'REFUSED') metrics.count('InpsConfigurationErrors', 1);
      const esito =
        kind === 'MISCONFIGURED'
          ? 'CONFIGURAZIONE_ERRATA'
          : name.startsWith('Pdnd')
            ? 'NON_INVIATA'
            : 'NESSUNA_RISPOSTA';
      await record({ purposeId, voucherJti: null, idRichiesta: null, esito });
      throw new InpsQueryFailed(kind, error);
    }
    await record({
      purposeId: answer.purposeId,
      voucherJti: answer.voucherJti,
      idRichiesta: answer.idRichiesta,
      esito: answer.esito,
    });
    if (outcomeOfEsito(answer.esito, true) === 'REFUSED') metrics.count('InpsConfigurationErrors', 1);
    return answer;
  }

  const isSameDsu = (newest: StoredIsee | null, attestation: InpsAttestation) =>
    !!newest &&
    (newest.state === 'VALIDATED' || (newest.state === 'LOADED' && newest.source === 'INPS')) &&
    newest.protocollo === attestationDsu(attestation).protocollo &&
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
    const answer = await ask(
      userId,
      fiscalCode,
      context,
      (request) => deps.inps().attestation(request),
      attestationOperation(),
    );
    const kind = outcomeOfEsito(answer.esito, !!answer.data?.ordinario);
    if (kind === 'RETRY_LATER' || kind === 'REFUSED')
      throw new InpsQueryFailed(kind, new Error(`Esito ${answer.esito}: ${answer.descrizioneErrore ?? ''}`));
    if (kind === 'NOT_FOUND') return { outcome: 'NOT_FOUND', isee: null, valueCents: null };
    const attestation = answer.data!;
    const ordinario = attestation.ordinario!;
    // The newest the user's record names, read from the table (never through an index right after a write).
    const newest = user.lastIsee ? await isees.getIseeItem(user.lastIsee.id) : null;
    if (isSameDsu(newest, attestation))
      return { outcome: 'UNCHANGED', isee: toIsee(newest!), valueCents: ordinario.iseeCents };
    const now = clock.now();
    const review = needsReview(attestation);
    const isee = await isees.recordIsee({
      id: ids(),
      userId,
      user: {
        firstName: user.firstName ?? '',
        lastName: user.lastName ?? '',
        fiscalCode: user.fiscalCode,
        email: user.email ?? null,
      },
      value: toEuros(ordinario.iseeCents),
      year: dsuYear(attestation),
      date: now.toISOString(),
      // An ISEE corrente is recorded with its own protocol and expiry: the month rule (fee.ts) then stops using it when it ends.
      protocollo: attestationDsu(attestation).protocollo,
      scadenza: attestationDsu(attestation).scadenza,
      state: review ? 'LOADED' : 'VALIDATED',
      file: null,
      uploadedBy: context.actor.role === 'CITIZEN' ? 'CITIZEN' : 'OPERATOR',
      uploadedBySub: context.actor.sub,
      source: 'INPS',
      inps: storedInpsDetails(attestation, answer, now.toISOString(), deps.settings().keepFullHousehold),
    });
    // The citizen's own fetch is theirs; anything an operator (or a job in an operator's name) records is audited.
    if (context.actor.role !== 'CITIZEN')
      await audit.record(
        { actor: context.actor, entity: 'isee', id: isee.id, action: 'create', before: null, after: isee },
        now,
      );
    return { outcome: review ? 'REVIEW' : 'VALIDATED', isee, valueCents: ordinario.iseeCents };
  }

  /** The API's answer: the Italian message, or the 503 / 502 of a failure. */
  async function answered(
    userId: string,
    context: QueryContext,
    audience: 'CITIZEN' | 'OPERATOR',
  ): Promise<InpsFetchResult> {
    try {
      const { outcome, isee } = await fetchForUser(userId, context);
      return {
        outcome,
        isee,
        message: fetchMessage(
          outcome,
          audience,
          isee && {
            valueCents: toCents(isee.value),
            protocollo: isee.protocollo,
            scadenza: isee.scadenza,
            corrente: !!isee.inps?.corrente,
          },
        ),
      };
    } catch (error) {
      if (error instanceof InpsQueryFailed) throw inpsFailure(error.kind, audience, error.cause);
      throw error;
    }
  }

  /** The operation the council's attestation e-service answers (recorded with the query). */
  const attestationOperation = () => deps.inps().settings.attestationOperation as InpsAnswer<unknown>['operation'];

  return {
    fetchForUser,

    /** 'Recupera il mio ISEE da INPS': the signed-in citizen, for themself only; `deadline` is the function's. */
    fetchMyIsee: async (actor: Actor, deadline?: number) =>
      answered(await deps.ensureCitizen(actor), { reason: 'CITIZEN', actor, deadline }, 'CITIZEN'),

    /** 'Aggiorna ISEE da INPS' on the user record (operators). */
    fetchUserIsee: (userId: string, actor: Actor, deadline?: number) =>
      answered(userId, { reason: 'OPERATOR', actor, deadline }, 'OPERATOR'),

    /**
     * 'Verifica con INPS' on an uploaded document: INPS's indicator beside the declared value and the
     * reading. Changes nothing but the query record.
     */
    async checkWithInps(iseeId: string, actor: Actor, deadline?: number): Promise<InpsCheck> {
      const stored = await isees.getIseeItem(iseeId);
      if (!stored) throw new NotFoundError(iseeMessages.notFound);
      const fiscalCode = String(stored.user?.fiscalCode ?? '').toUpperCase();
      if (!INPS_FISCAL_CODE.test(fiscalCode)) throw new ValidationError(inpsMessages.noUserFiscalCode);
      const readCents =
        typeof stored.extraction?.iseeOrdinario === 'number' ? toCents(stored.extraction.iseeOrdinario) : null;
      const upload = {
        valueCents: stored.valueCents,
        readCents,
        protocollo: stored.protocollo ?? stored.extraction?.protocollo ?? null,
      };
      let answer: InpsAnswer<InpsIndicator>;
      const context: QueryContext = { reason: 'CHECK', actor, deadline };
      try {
        // Without the indicator e-service (the residents' attestation alone), the attestation's ordinary ISEE is the indicator.
        answer = deps.inps().settings.hasIndicator
          ? await ask(
              stored.userId,
              fiscalCode,
              context,
              (request) => deps.inps().indicator(request),
              'ConsultazioneIndicatore',
            )
          : indicatorOf(
              await ask(
                stored.userId,
                fiscalCode,
                context,
                (request) => deps.inps().attestation(request),
                attestationOperation(),
              ),
            );
      } catch (error) {
        if (error instanceof InpsQueryFailed) throw inpsFailure(error.kind, 'OPERATOR', error.cause);
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
      return {
        found: true,
        message: comparison.agrees ? inpsMessages.checkAgrees : inpsMessages.checkDiffers,
        ...comparison,
      };
    },

    listUserQueries: async (userId: string, page: { limit?: number; cursor?: string }) => {
      await requireUser(userId);
      return queries.listQueriesOfUser(userId, page);
    },

    listMyQueries: async (actor: Actor, page: { limit?: number; cursor?: string }) =>
      queries.listQueriesOfUser(await deps.ensureCitizen(actor), page),
  };
}

export type InpsIseeUseCases = ReturnType<typeof makeInpsIseeUseCases>;
