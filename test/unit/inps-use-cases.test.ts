import { beforeEach, describe, expect, it } from 'vitest';
import { InpsUnavailable } from '../../functions/adapters/inps-isee.ts';
import { PdndRefused } from '../../functions/adapters/pdnd.ts';
import type { InpsIsee } from '../../functions/adapters/ports.ts';
import type { InpsAnswer, InpsAttestation, InpsEsito, InpsIndicator } from '../../functions/domain/inps.ts';
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
  household: [{ relation: 'D', lastName: 'ROSSI', firstName: 'MARIA', fiscalCode: 'RSSMRA85C52H501N' }],
  ordinario: { iseCents: 1_723_865, scalaEquivalenza: 2.04, iseeCents: 845_032, isrCents: 1_500_000, ispCents: 1_119_325, dataRilascio: '2026-01-20' },
  otherIndicators: [],
  omissions: [],
  discrepancies: [],
  ...overrides,
});
const answer = <T>(esito: InpsEsito, data: T | null, operation: InpsAnswer<T>['operation'] = 'ConsultazioneAttestazione'): InpsAnswer<T> => ({
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
let inps: ReturnType<typeof makeInpsIseeUseCases>;
let userId: string;

beforeEach(async () => {
  app = portal();
  script = [];
  recorded = [];
  const port: InpsIsee = {
    attestation: async () => script.shift()!(),
    indicator: async () => script.shift()!(),
  };
  inps = makeInpsIseeUseCases({
    inps: () => port,
    settings: () => ({ benefitCode: 'A2.07' }),
    isees: { getIseeItem: app.store.isees.getIseeItem, recordIsee: app.isee.recordIsee },
    users: app.store.users,
    ensureCitizen: app.ensureCitizen,
    queries: { recordQuery: async (q) => void recorded.push(q), listQueriesOfUser: async () => ({ items: [], nextCursor: null }) },
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
    expect(result.isee).toMatchObject({ state: 'VALIDATED', source: 'INPS', sourceLabel: 'INPS tramite PDND', value: 8450.32, year: 2026, protocollo: 'INPS-ISEE-2026-00123456A-00', scadenza: '2026-12-31', hasFile: false });
    expect(result.isee!.inps).toMatchObject({ ise: 17238.65, scalaEquivalenza: 2.04, isee: 8450.32, household: [{ fiscalCode: 'RSSMRA85C52H501N' }], idRichiesta: '4242' });
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
    script.push(async () => answer('OK', attestation({ omissions: [{ type: 'PatrimoniMobiliari', fiscalCode: 'RSSMRA85C52H501N', checkedOn: '2026-01-18' }] })));
    const result = await inps.fetchMyIsee(actors.citizen);
    expect(result.outcome).toBe('REVIEW');
    expect(result.isee).toMatchObject({ state: 'LOADED', source: 'INPS' });
    expect(result.isee!.inps!.reviewReason).toBe('Omissioni o difformità segnalate da INPS: patrimonio mobiliare (RSSMRA85C52H501N, controllo del 18/01/2026).');
    expect((await app.isee.listIseesToVerify({})).items.map((i) => i.id)).toEqual([result.isee!.id]);
  });

  it('the same DSU again writes nothing new', async () => {
    script.push(async () => answer('OK', attestation()), async () => answer('OK', attestation()));
    const first = await inps.fetchMyIsee(actors.citizen);
    const second = await inps.fetchMyIsee(actors.citizen);
    expect(second.outcome).toBe('UNCHANGED');
    expect(second.isee!.id).toBe(first.isee!.id);
    expect((await app.isee.listMyIsees({}, actors.citizen)).items).toHaveLength(1);
    expect(recorded).toHaveLength(2);
  });

  it('no valid DSU: the Italian message says what to do, and the ISEE in force stays', async () => {
    script.push(async () => answer('OK', attestation()), async () => answer('DATI_NON_TROVATI', null));
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
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({ status: 503, message: expect.stringMatching(/non è raggiungibile/) });
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({ status: 503 });
    await expect(inps.fetchMyIsee(actors.citizen)).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/contatta il Comune/) });
    await expect(inps.fetchUserIsee(userId, actors.operator)).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/configurazione PDND/) });
    expect((await app.isee.listMyIsees({}, actors.citizen)).items).toHaveLength(0);
    expect(recorded.map((q) => q.esito)).toEqual(['DATABASE_OFFLINE', 'NESSUNA_RISPOSTA', 'NON_INVIATA', 'RICHIESTA_INVALIDA']);
  });

  it('an operator’s fetch is audited', async () => {
    script.push(async () => answer('OK', attestation()));
    const result = await inps.fetchUserIsee(userId, actors.operator);
    expect(result.message).toMatch(/^ISEE aggiornato da INPS e accettato/);
    expect(app.store.audit.entries.filter((e) => e.entity === 'isee')).toEqual([expect.objectContaining({ action: 'create', id: result.isee!.id })]);
  });
});

describe('Verifica con INPS', () => {
  const indicator = (iseeCents: number): InpsIndicator => ({
    tipoIndicatore: 'Ordinario',
    values: { iseCents: Math.round(iseeCents * 2.04), scalaEquivalenza: 2.04, iseeCents, isrCents: 1, ispCents: 1 },
    protocolloDSU: 'INPS-ISEE-2026-00123456A-00',
    dataPresentazione: '2026-01-15',
  });
  const upload = async (value: number) => app.isee.uploadMyIsee({ document: app.store.files.stage(actors.citizen.sub, 'foto.jpg'), value }, actors.citizen);

  it('shows INPS’s value beside the declared one and the difference; the upload does not change', async () => {
    const uploaded = await upload(0.77);
    script.push(async () => answer('OK', indicator(7_789_581), 'ConsultazioneIndicatore'));
    const check = await inps.checkWithInps(uploaded.id, actors.operator);
    expect(check).toMatchObject({ found: true, agrees: false, message: 'Il valore è diverso da quello di INPS.', inps: { value: 77895.81 }, declared: { value: 0.77, difference: 77895.04 } });
    expect((await app.isee.getIsee(uploaded.id, actors.operator)).value).toBe(0.77);
    expect(recorded[0]).toMatchObject({ reason: 'CHECK', operation: 'ConsultazioneIndicatore' });
  });

  it('agrees when the value is INPS’s', async () => {
    const uploaded = await upload(77895.81);
    script.push(async () => answer('OK', indicator(7_789_581), 'ConsultazioneIndicatore'));
    expect(await inps.checkWithInps(uploaded.id, actors.operator)).toMatchObject({ found: true, agrees: true, message: 'Il valore concorda con INPS.' });
  });
});
