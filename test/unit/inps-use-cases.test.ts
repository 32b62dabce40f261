import { beforeEach, describe, expect, it } from 'vitest';
import { InpsMisconfigured, InpsUnavailable } from '../../functions/adapters/inps-isee.ts';
import { PdndRefused } from '../../functions/adapters/pdnd.ts';
import type { InpsIsee, InpsRequest } from '../../functions/adapters/ports/inps.ts';
import type { BusinessMetrics } from '../../functions/adapters/ports/metrics.ts';
import {
  differenceFromInps,
  type InpsAnswer,
  type InpsAttestation,
  type InpsEsito,
  type InpsIndicator,
} from '../../functions/domain/inps.ts';
import { iseeBanner } from '../../functions/domain/isee.ts';
import type { StoredInpsQuery } from '../../functions/isee/inps-queries-repository.ts';
import { makeInpsIseeUseCases } from '../../functions/isee/inps-use-cases.ts';
import { actors, portal, type Portal } from '../support/in-memory.ts';

/**
 * The INPS use cases on in-memory stores and a scripted INPS: what the citizen and the operator get for each
 * answer, what is written (and what is not), and the accountability record of every query.
 */
const attestation = (overrides: Partial<InpsAttestation> = {}): InpsAttestation => ({
  protocolloDSU: 'INPS-ISEE-2026-00123456A-00',
  codiceFiscaleDichiarante: 'RSSMRA85C52H501N',
  dataPresentazione: '2026-01-15',
  dataValidita: '2026-12-31',
  dataScadenzaDSUCorrente: null,
  corrente: null,
  household: [{ relation: 'D', lastName: 'ROSSI', firstName: 'MARIA', fiscalCode: 'RSSMRA85C52H501N' }],
  ordinario: {
    iseCents: 1_723_865,
    scalaEquivalenza: 2.04,
    iseeCents: 845_032,
    isrCents: 1_500_000,
    ispCents: 1_119_325,
    dataRilascio: '2026-01-20',
  },
  otherIndicators: [],
  omissions: [],
  discrepancies: [],
  ...overrides,
});
const answer = <T>(
  esito: InpsEsito,
  data: T | null,
  operation: InpsAnswer<T>['operation'] = 'ConsultazioneAttestazione',
): InpsAnswer<T> => ({
  operation,
  idRichiesta: '4242',
  esito,
  descrizioneErrore: null,
  purposeId: 'purpose-attestazione',
  voucherJti: 'voucher-jti',
  data,
});

let app: Portal;
let script: (() => Promise<InpsAnswer<any>>)[];
let recorded: StoredInpsQuery[];
/** Every write of a query record, in order (a record is written before asking, then overwritten). */
let writes: StoredInpsQuery[];
let requests: InpsRequest[];
let hasIndicator: boolean;
let keepFullHousehold: boolean;
let metricCounts: Record<string, number>;
let inps: ReturnType<typeof makeInpsIseeUseCases>;
let userId: string;

beforeEach(async () => {
  app = portal();
  script = [];
  recorded = [];
  writes = [];
  requests = [];
  hasIndicator = true;
  keepFullHousehold = false;
  metricCounts = {};
  const port: InpsIsee = {
    get settings() {
      return { hasIndicator, attestationOperation: 'ConsultazioneAttestazione' };
    },
    attestation: async (request) => (requests.push(request), script.shift()!()),
    indicator: async (request) => (requests.push(request), script.shift()!()),
  };
  inps = makeInpsIseeUseCases({
    inps: () => port,
    settings: () => ({
      benefitCode: 'A2.07',
      purposes: { attestazione: 'purpose-attestazione', indicatore: 'purpose-indicatore' },
      keepFullHousehold,
    }),
    metrics: {
      count: ((metric: string, value: number) =>
        void (metricCounts[metric] = (metricCounts[metric] ?? 0) + value)) as BusinessMetrics['count'],
    },
    isees: { getIseeItem: app.store.isees.getIseeItem, recordIsee: app.isee.recordIsee },
    users: app.store.users,
    ensureCitizen: app.ensureCitizen,
    queries: {
      recordQuery: async (q) => {
        writes.push(q);
        const at = recorded.findIndex((r) => r.id === q.id);
        if (at >= 0) recorded[at] = q;
        else recorded.push(q);
      },
      listQueriesOfUser: async () => ({ items: [], nextCursor: null }),
    },
    audit: app.store.audit,
    clock: { now: () => new Date('2026-03-10T10:00:00.000Z') },
    ids: (() => {
      let n = 0;
      return () => `inps-${++n}`;
    })(),
  });
  userId = await app.ensureCitizen(actors.citizen);
});

const user = () => app.users.getUser(userId);

describe('Recupera il mio ISEE da INPS', () => {
  it('a DSU without omissions is accepted at once: validated, source INPS, the banner goes', async () => {
    script.push(async () => answer('OK', attestation()));
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result.outcome).toBe('VALIDATED');
    expect(result.message).toContain('8.450,32');
    expect(result.isee).toMatchObject({
      state: 'VALIDATED',
      source: 'INPS',
      sourceLabel: 'INPS tramite PDND',
      value: 8450.32,
      year: 2026,
      protocollo: 'INPS-ISEE-2026-00123456A-00',
      scadenza: '2026-12-31',
      hasFile: false,
    });
    expect(result.isee!.inps).toMatchObject({
      ise: 17238.65,
      scalaEquivalenza: 2.04,
      isee: 8450.32,
      household: [{ fiscalCode: 'RSSMRA85C52H501N' }],
      idRichiesta: '4242',
    });
    const current = await user();
    expect(current.lastIsee).toMatchObject({ state: 'VALIDATED' });
    expect(iseeBanner(current.lastIsee)).toBeNull();
  });

  it('records the query: purpose, voucher, fiscal code, benefit, application number, IdRichiesta, Esito, who, when', async () => {
    script.push(async () => answer('OK', attestation()));
    await inps.fetchMyIsee(actors.citizen);
    expect(recorded).toEqual([
      expect.objectContaining({
        userId,
        at: '2026-03-10T10:00:00.000Z',
        operation: 'ConsultazioneAttestazione',
        reason: 'CITIZEN',
        purposeId: 'purpose-attestazione',
        voucherJti: 'voucher-jti',
        fiscalCode: 'RSSMRA85C52H501N',
        benefitCode: 'A2.07',
        applicationNumber: `PORTALE-${userId}`,
        applicationState: 'Da Erogare',
        idRichiesta: '4242',
        esito: 'OK',
        who: expect.objectContaining({ role: 'CITIZEN' }),
      }),
    ]);
  });

  it('omissions or discrepancies send it to the operators’ review, with the reason', async () => {
    script.push(async () =>
      answer(
        'OK',
        attestation({
          omissions: [{ type: 'PatrimoniMobiliari', fiscalCode: 'RSSMRA85C52H501N', checkedOn: '2026-01-18' }],
        }),
      ),
    );
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result.outcome).toBe('REVIEW');
    expect(result.isee).toMatchObject({ state: 'LOADED', source: 'INPS' });
    expect(result.isee!.inps!.reviewReason).toBe(
      'Omissioni o difformità segnalate da INPS: patrimonio mobiliare (RSSMRA85C52H501N, controllo del 18/01/2026).',
    );
    expect((await app.isee.listIseesToVerify({})).items.map((i) => i.id)).toEqual([result.isee!.id]);
  });

  it('the same DSU again writes nothing new', async () => {
    script.push(
      async () => answer('OK', attestation()),
      async () => answer('OK', attestation()),
    );
    const first = await inps.fetchMyIsee(actors.citizen);
    const second = await inps.fetchMyIsee(actors.citizen);
    expect(second.outcome).toBe('UNCHANGED');
    expect(second.isee!.id).toBe(first.isee!.id);
    expect((await app.isee.listMyIsees({}, actors.citizen)).items).toHaveLength(1);
    expect(recorded).toHaveLength(2);
  });

  it('no valid DSU: the Italian message says what to do, and the ISEE in force stays', async () => {
    script.push(
      async () => answer('OK', attestation()),
      async () => answer('DATI_NON_TROVATI', null),
    );
    const first = await inps.fetchMyIsee(actors.citizen);
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result).toMatchObject({ outcome: 'NOT_FOUND', isee: null });
    expect(result.message).toMatch(/Presenta la DSU/);
    expect((await user()).lastIsee).toMatchObject({ id: first.isee!.id, state: 'VALIDATED' });
    expect(recorded.map((q) => q.esito)).toEqual(['OK', 'DATI_NON_TROVATI']);
  });

  it('INPS offline, unreachable or refusing: 503 or 502 in Italian, nothing written but the record', async () => {
    script.push(
      async () => answer('DATABASE_OFFLINE', null),
      async () => Promise.reject(new InpsUnavailable('timeout')),
      async () => Promise.reject(new PdndRefused(400, 'c0ffee', '015-0008')),
      async () => answer('RICHIESTA_INVALIDA', null),
    );
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/non è raggiungibile/),
    });
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({ status: 503 });
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/contatta il Comune/),
    });
    await expect(inps.fetchUserIsee(userId, actors.operator)).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/configurazione PDND/),
    });
    expect((await app.isee.listMyIsees({}, actors.citizen)).items).toHaveLength(0);
    expect(recorded.map((q) => q.esito)).toEqual([
      'DATABASE_OFFLINE',
      'NESSUNA_RISPOSTA',
      'NON_INVIATA',
      'RICHIESTA_INVALIDA',
    ]);
  });

  it('an operator’s fetch is audited', async () => {
    script.push(async () => answer('OK', attestation()));
    const result = await inps.fetchUserIsee(userId, actors.operator);
    expect(result.message).toMatch(/^ISEE aggiornato da INPS e accettato/);
    expect(app.store.audit.entries.filter((e) => e.entity === 'isee')).toEqual([
      expect.objectContaining({ action: 'create', id: result.isee!.id }),
    ]);
  });
});

describe('Verifica con INPS', () => {
  const indicator = (iseeCents: number): InpsIndicator => ({
    tipoIndicatore: 'Ordinario',
    values: { iseCents: Math.round(iseeCents * 2.04), scalaEquivalenza: 2.04, iseeCents, isrCents: 1, ispCents: 1 },
    protocolloDSU: 'INPS-ISEE-2026-00123456A-00',
    dataPresentazione: '2026-01-15',
  });
  const upload = async (value: number) =>
    app.isee.uploadMyIsee({ document: app.store.files.stage(actors.citizen.sub, 'foto.jpg'), value }, actors.citizen);

  it('shows INPS’s value beside the declared one and the difference; the upload does not change', async () => {
    const uploaded = await upload(0.77);
    script.push(async () => answer('OK', indicator(7_789_581), 'ConsultazioneIndicatore'));
    const check = await inps.checkWithInps(uploaded.id, actors.operator);
    expect(check).toMatchObject({
      found: true,
      agrees: false,
      message: 'Il valore è diverso da quello di INPS.',
      inps: { value: 77895.81 },
      declared: { value: 0.77, difference: 77895.04 },
    });
    expect((await app.isee.getIsee(uploaded.id, actors.operator)).value).toBe(0.77);
    expect(recorded[0]).toMatchObject({ reason: 'CHECK', operation: 'ConsultazioneIndicatore' });
  });

  it('agrees when the value is INPS’s', async () => {
    const uploaded = await upload(77895.81);
    script.push(async () => answer('OK', indicator(7_789_581), 'ConsultazioneIndicatore'));
    expect(await inps.checkWithInps(uploaded.id, actors.operator)).toMatchObject({
      found: true,
      agrees: true,
      message: 'Il valore concorda con INPS.',
    });
  });
});

describe('the e-service the council subscribed to, and its configuration faults', () => {
  it('a fault that means the settings are wrong: the citizen is told how to upload instead, the operator what to check, an alarm counts it, the record says so', async () => {
    const wrongAction = () =>
      new InpsMisconfigured(
        'ConsultazioneAttestazione: operazione non prevista dall’e-service',
        'l’e-service a cui il Comune aderisce su PDND: operazione ConsultazioneAttestazione',
      );
    script.push(
      async () => Promise.reject(wrongAction()),
      async () => Promise.reject(wrongAction()),
    );
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(
        /non è al momento disponibile per il Comune\. Puoi caricare qui sotto la tua attestazione ISEE/,
      ),
    });
    await expect(inps.fetchUserIsee(userId, actors.operator)).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(
        /configurazione del Comune .* da correggere: ConsultazioneAttestazione: operazione non prevista.*Controlla l’e-service a cui il Comune aderisce su PDND/,
      ),
    });
    expect(metricCounts.InpsConfigurationErrors).toBe(2);
    expect(recorded.map((q) => q.esito)).toEqual(['CONFIGURAZIONE_ERRATA', 'CONFIGURAZIONE_ERRATA']);
  });

  it('INPS busy or down is not a configuration problem: no alarm', async () => {
    script.push(async () => Promise.reject(new InpsUnavailable('timeout')));
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({ status: 503 });
    expect(metricCounts.InpsConfigurationErrors).toBeUndefined();
  });

  it('without the indicator e-service, Verifica con INPS compares with the attestation’s ordinary ISEE', async () => {
    hasIndicator = false;
    const uploaded = await app.isee.uploadMyIsee(
      { document: app.store.files.stage(actors.citizen.sub, 'foto.jpg'), value: 8450.32 },
      actors.citizen,
    );
    script.push(async () => answer('OK', attestation()));
    expect(await inps.checkWithInps(uploaded.id, actors.operator)).toMatchObject({
      found: true,
      agrees: true,
      inps: { value: 8450.32, protocolloDSU: 'INPS-ISEE-2026-00123456A-00' },
    });
    expect(recorded[0]).toMatchObject({
      reason: 'CHECK',
      operation: 'ConsultazioneAttestazione',
      purposeId: 'purpose-attestazione',
    });
  });
});

describe('answers inside the time budget', () => {
  it('the query is recorded before INPS is asked, and the function’s deadline goes with the request', async () => {
    const deadline = Date.parse('2026-03-10T10:00:08.000Z');
    let recordedWhileAsking: StoredInpsQuery[] = [];
    script.push(async () => {
      recordedWhileAsking = structuredClone(recorded);
      return answer('OK', attestation());
    });
    await inps.fetchMyIsee(actors.citizen, deadline);
    expect(recordedWhileAsking).toEqual([
      expect.objectContaining({
        esito: 'IN_CORSO',
        purposeId: 'purpose-attestazione',
        fiscalCode: 'RSSMRA85C52H501N',
        reason: 'CITIZEN',
      }),
    ]);
    expect(requests[0].deadline).toBe(deadline);
    expect(recorded).toEqual([expect.objectContaining({ esito: 'OK', idRichiesta: '4242' })]);
  });

  it('out of time: the portal’s Italian message, the record kept', async () => {
    script.push(async () =>
      Promise.reject(new InpsUnavailable('ConsultazioneAttestazione: tempo esaurito prima della risposta di INPS')),
    );
    await expect(inps.fetchMyIsee(actors.citizen, Date.now() + 8000)).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/INPS non ha risposto in tempo\. La richiesta è registrata/),
    });
    expect(recorded.map((q) => q.esito)).toEqual(['NESSUNA_RISPOSTA']);
  });
});

describe('the ISEE corrente', () => {
  it('is recorded with its own protocol and expiry, and shown as ISEE corrente', async () => {
    const corrente = {
      protocolloDSU: 'INPS-ISEE-2026-00999999C-00',
      dataPresentazione: '2026-03-01',
      dataScadenza: '2026-08-31',
    };
    script.push(async () => answer('OK', attestation({ corrente, dataScadenzaDSUCorrente: '2026-08-31' })));
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result.isee).toMatchObject({
      protocollo: 'INPS-ISEE-2026-00999999C-00',
      scadenza: '2026-08-31',
      state: 'VALIDATED',
    });
    expect(result.isee!.inps!.corrente).toEqual(corrente);
    expect(result.message).toContain(
      '(ISEE corrente, protocollo INPS-ISEE-2026-00999999C-00, valida fino al 31/08/2026)',
    );
  });
});

describe('who asked: the audit information', () => {
  it('carries the actor’s own level of assurance, and the job’s for a refresh', async () => {
    script.push(
      async () => answer('OK', attestation()),
      async () => answer('OK', attestation()),
      async () => answer('OK', attestation()),
    );
    await inps.fetchMyIsee({ ...actors.citizen, loa: 'CIE_L3' });
    await inps.fetchUserIsee(userId, { ...actors.operator, loa: 'SPID_L2' });
    await inps.fetchForUser(userId, { reason: 'CALL', actor: actors.operator, callId: 'call-1', benefitCode: 'A1.05' });
    expect(requests.map((r) => r.requestedBy?.LoA)).toEqual(['CIE_L3', 'SPID_L2', 'PROCEDURA_AUTOMATICA']);
    // The service's own benefit code, else the deployment's.
    expect(requests.map((r) => r.benefitCode)).toEqual(['A2.07', 'A2.07', 'A1.05']);
  });
});

describe('what the operator reads of INPS’s answer', () => {
  it('says which way a difference goes, in words', () => {
    // Declared 4.980,00 €, INPS 4.890,00 €: the difference (INPS − declared) is −90.
    expect(differenceFromInps(-90)).toMatch(/^90,00\s€ in più del valore INPS$/);
    expect(differenceFromInps(90)).toMatch(/^90,00\s€ in meno del valore INPS$/);
    expect(differenceFromInps(0)).toBeNull();
  });

  it('keeps of the household each member’s relation, and the fiscal codes only of the declarant and of those the review needs', async () => {
    const household = [
      { relation: 'D', lastName: 'ROSSI', firstName: 'MARIA', fiscalCode: 'RSSMRA85C52H501N' },
      { relation: 'C', lastName: 'BIANCHI', firstName: 'LUCA', fiscalCode: 'BNCLCU80A01H501X' },
      { relation: 'F', lastName: 'BIANCHI', firstName: 'SARA', fiscalCode: 'BNCSRA10A41H501Y' },
    ];
    script.push(async () =>
      answer(
        'OK',
        attestation({
          household,
          otherIndicators: [{ kind: 'UNIVERSITARIO', fiscalCode: 'BNCSRA10A41H501Y', iseeCents: 700_000 }],
        }),
      ),
    );
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result.isee!.inps!.household).toEqual([
      { relation: 'D', fiscalCode: 'RSSMRA85C52H501N', lastName: null, firstName: null },
      { relation: 'C', fiscalCode: null, lastName: null, firstName: null },
      { relation: 'F', fiscalCode: 'BNCSRA10A41H501Y', lastName: null, firstName: null },
    ]);
  });

  it('keeps every member’s names and fiscal code when the council’s setting asks for the full household', async () => {
    keepFullHousehold = true;
    const household = [
      { relation: 'D', lastName: 'ROSSI', firstName: 'MARIA', fiscalCode: 'RSSMRA85C52H501N' },
      { relation: 'C', lastName: 'BIANCHI', firstName: 'LUCA', fiscalCode: 'BNCLCU80A01H501X' },
    ];
    script.push(async () => answer('OK', attestation({ household })));
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result.isee!.inps!.household).toEqual([
      { relation: 'D', fiscalCode: 'RSSMRA85C52H501N', lastName: 'ROSSI', firstName: 'MARIA' },
      { relation: 'C', fiscalCode: 'BNCLCU80A01H501X', lastName: 'BIANCHI', firstName: 'LUCA' },
    ]);
  });
});
