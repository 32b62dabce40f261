import { generateKeyPairSync, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import * as soap from 'soap';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InpsMalformed, InpsRefused, InpsUnavailable, makeInpsIsee } from '../../functions/adapters/inps-isee.ts';
import type { InpsRequest } from '../../functions/adapters/ports.ts';
import { makePdndClient, PdndRefused, signJws } from '../../functions/adapters/pdnd.ts';
import { localKeySigner } from '../../functions/adapters/pdnd-signers.ts';
import { startInpsSimulator, type InpsSimulator } from '../../lib/local/inps-simulator.ts';
import { LOCAL_PDND, startPdndSimulator, type PdndSimulator } from '../../lib/local/pdnd-simulator.ts';
import { freePort } from '../support/ports.ts';
import { romeDay, romeYear } from '../../functions/domain/period.ts';

/**
 * The contracts, end to end on this machine: the portal's PDND client and INPS adapter against the two
 * simulators, the simulators against the rules of their services (interop-be-monorepo's client-assertion
 * validation; the ConsultazioneISEE WSDL/XSD v2.8 for PDND), and the `soap` package, driven by that WSDL,
 * against the INPS simulator.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const WSDL = path.resolve(here, '../../functions/adapters/inps/ConsultazioneISEE_v2.8_PDND.wsdl');
const year = romeYear(new Date());
const today = romeDay(new Date());

let pdnd: PdndSimulator;
let inps: InpsSimulator;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clientId = randomUUID();
let kid: string;

beforeAll(async () => {
  pdnd = await startPdndSimulator({ port: await freePort() });
  kid = await jose.calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as jose.JWK);
  pdnd.register({
    clientId,
    consumerId: 'comune-test',
    kid,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    purposes: { [LOCAL_PDND.purposes.attestazione]: { audience: LOCAL_PDND.inpsAudience }, [LOCAL_PDND.purposes.indicatore]: { audience: LOCAL_PDND.inpsAudience } },
  });
  inps = await startInpsSimulator({ port: await freePort(), pdnd: { jwksUrl: pdnd.jwksUrl, issuer: pdnd.issuer }, audience: LOCAL_PDND.inpsAudience, purposes: LOCAL_PDND.purposes });
});
afterAll(async () => {
  await inps?.close();
  await pdnd?.close();
});
beforeEach(async () => {
  await post(`${pdnd.url}/admin/reset`, {});
  await post(`${inps.url}/admin/reset`, {});
});

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function adapter(overrides: { renewBeforeSeconds?: number; auditRest02?: boolean; timeoutMs?: number; kid?: string } = {}) {
  const client = makePdndClient({
    tokenUrl: pdnd.tokenUrl,
    clientId,
    kid: overrides.kid ?? kid,
    assertionAudience: LOCAL_PDND.assertionAudience,
    signer: localKeySigner(privateKey),
    renewBeforeSeconds: overrides.renewBeforeSeconds,
  });
  const port = makeInpsIsee({
    settings: { endpoint: inps.endpoint, userId: '80012340123', codiceUfficio: '001', purposes: LOCAL_PDND.purposes, audience: LOCAL_PDND.inpsAudience, auditRest02: overrides.auditRest02 ?? false },
    pdnd: client,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
    timeoutMs: overrides.timeoutMs,
  });
  return { client, port };
}

const request = (fiscalCode: string, extra: Partial<InpsRequest> = {}): InpsRequest => ({
  fiscalCode,
  dataValidita: today,
  benefitCode: 'A2.07',
  applicationNumber: 'PORTALE-test',
  applicationState: 'Da Erogare',
  ...extra,
});

describe('the INPS adapter against the simulator', () => {
  it('reads a valid attestation: values, DSU, dates, household, no omissions', async () => {
    const { port } = adapter();
    const answer = await port.attestation(request('RSSMRA85C52H501N'));
    expect(answer).toMatchObject({ operation: 'ConsultazioneAttestazione', esito: 'OK', purposeId: LOCAL_PDND.purposes.attestazione });
    expect(answer.idRichiesta).toMatch(/^\d+$/);
    expect(answer.voucherJti).toMatch(/^[0-9a-f-]{36}$/);
    const attestation = answer.data!;
    expect(attestation.protocolloDSU).toMatch(/^INPS-ISEE-\d{4}-\d{8}[A-Z]-\d{2}$/);
    expect(attestation).toMatchObject({ codiceFiscaleDichiarante: 'RSSMRA85C52H501N', dataPresentazione: `${year}-01-15`, dataValidita: `${year}-12-31`, omissions: [], discrepancies: [] });
    expect(attestation.ordinario).toMatchObject({ iseeCents: 845_032, scalaEquivalenza: 2.04 });
    // ISEE = ISE / scala, as INPS computes it.
    expect(Math.round(attestation.ordinario!.iseCents / attestation.ordinario!.scalaEquivalenza)).toBe(845_032);
    expect(attestation.household.map((m) => m.relation)).toEqual(['D', 'C', 'F']);
    expect(attestation.household[0]).toMatchObject({ fiscalCode: 'RSSMRA85C52H501N', lastName: 'ROSSI', firstName: 'MARIA' });
  });

  it('reads names outside Latin-1 (the answer is iso-8859-1: they come as character references)', async () => {
    await post(`${inps.url}/admin/dsu`, { fiscalCode: 'NWKLCU80A41Z127X', firstName: 'ŁUCJA', lastName: 'NOWAK-ȘTEFĂNESCU', value: 9000 });
    const { port } = adapter();
    const answer = await port.attestation(request('NWKLCU80A41Z127X'));
    expect(answer.data!.household[0]).toMatchObject({ fiscalCode: 'NWKLCU80A41Z127X', firstName: 'ŁUCJA', lastName: 'NOWAK-ȘTEFĂNESCU' });
  });

  it('reads the indicator', async () => {
    const { port } = adapter();
    const answer = await port.indicator(request('CLMGLI92T48L219U'));
    expect(answer.esito).toBe('OK');
    expect(answer.data).toMatchObject({ tipoIndicatore: 'Ordinario', values: { iseeCents: 489_000 }, dataPresentazione: `${year}-01-15` });
  });

  it('an attestation with omissions carries them; an expired DSU and an unknown code are DATI_NON_TROVATI', async () => {
    const { port } = adapter();
    const withOmissions = await port.attestation(request('RCCMRC60A01H501V'));
    expect(withOmissions.data!.omissions).toEqual([{ type: 'PatrimoniMobiliari', fiscalCode: 'RCCMRC60A01H501V', checkedOn: `${year}-01-18` }]);
    const expired = await port.attestation(request('BRNNNA88M41F839L'));
    expect(expired).toMatchObject({ esito: 'DATI_NON_TROVATI', data: null });
    // The same DSU, asked for a day of last year, is found: it was valid then.
    expect((await port.attestation(request('BRNNNA88M41F839L', { dataValidita: `${year - 1}-06-30` }))).esito).toBe('OK');
    expect((await port.attestation(request('BNCLRA79H61F205F'))).esito).toBe('DATI_NON_TROVATI');
  });

  it('a request the XSD refuses is RICHIESTA_INVALIDA, with the reason', async () => {
    const { port } = adapter();
    const answer = await port.attestation(request('RSSMRA85C52H501N', { benefitCode: 'B9.99' }));
    expect(answer).toMatchObject({ esito: 'RICHIESTA_INVALIDA', descrizioneErrore: 'PrestazioneDaErogare non valida', data: null });
  });

  it('uses one voucher per purpose for many queries', async () => {
    const { port } = adapter();
    const issued = pdnd.stats().issued;
    for (const code of ['RSSMRA85C52H501N', 'FRRLCU75E15F205M', 'GRCPLA70A01F205T']) await port.attestation(request(code));
    await port.indicator(request('RSSMRA85C52H501N'));
    expect(pdnd.stats().issued - issued).toBe(2);
  });

  it('a voucher about to expire mid-batch is renewed before INPS sees it expired', async () => {
    await post(`${pdnd.url}/admin/voucher-lifespan`, { seconds: 3 });
    const { port } = adapter({ renewBeforeSeconds: 1 });
    const [issued, refused] = [pdnd.stats().issued, inps.stats().unauthorized];
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await port.attestation(request('FRRLCU75E15F205M'))).esito).toBe('OK');
    expect(pdnd.stats().issued - issued).toBe(2);
    expect(inps.stats().unauthorized - refused).toBe(0);
  });

  it('a voucher INPS refuses as expired (a clock behind PDND’s) is replaced, and the batch goes on', async () => {
    await post(`${pdnd.url}/admin/voucher-lifespan`, { seconds: 2 });
    const client = makePdndClient({ tokenUrl: pdnd.tokenUrl, clientId, kid, assertionAudience: LOCAL_PDND.assertionAudience, signer: localKeySigner(privateKey), now: () => Date.now() - 100_000 });
    const port = makeInpsIsee({ settings: { endpoint: inps.endpoint, userId: '80012340123', codiceUfficio: '001', purposes: LOCAL_PDND.purposes, audience: LOCAL_PDND.inpsAudience, auditRest02: false }, pdnd: client });
    const [issued, refused] = [pdnd.stats().issued, inps.stats().unauthorized];
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect((await port.attestation(request('FRRLCU75E15F205M'))).esito).toBe('OK');
    expect(inps.stats().unauthorized - refused).toBe(1);
    expect(pdnd.stats().issued - issued).toBe(2);
  });

  it('sends the audit information (AUDIT_REST_02) the e-service checks against the voucher’s digest', async () => {
    const { port } = adapter({ auditRest02: true });
    const answer = await port.attestation(request('RSSMRA85C52H501N', { requestedBy: { userID: 'RSSMRA85C52H501N', LoA: 'SPID_L2' } }));
    expect(answer.esito).toBe('OK');
  });
});

describe('faults', () => {
  it('DATABASE_OFFLINE and ERRORE_INTERNO come back as the answer’s Esito', async () => {
    const { port } = adapter();
    await post(`${inps.url}/admin/faults`, { kind: 'DATABASE_OFFLINE' });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('DATABASE_OFFLINE');
    await post(`${inps.url}/admin/faults`, { kind: 'ERRORE_INTERNO' });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('ERRORE_INTERNO');
  });

  it('a 429 is waited out as Retry-After says; a storm ends as InpsUnavailable', async () => {
    const { port } = adapter();
    await post(`${inps.url}/admin/faults`, { kind: '429', times: 2 });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    await post(`${inps.url}/admin/faults`, { kind: '429', times: 'always' });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(InpsUnavailable);
  });

  it('INPS down (503, server faults) is retried then InpsUnavailable; a slow answer past the timeout too', async () => {
    const { port } = adapter({ timeoutMs: 300 });
    await post(`${inps.url}/admin/faults`, { kind: '503', times: 1 });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    await post(`${inps.url}/admin/faults`, { kind: 'fault', times: 'always' });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(InpsUnavailable);
    await post(`${inps.url}/admin/reset`, {});
    await post(`${inps.url}/admin/faults`, { kind: 'slow', times: 3, ms: 1000 });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(InpsUnavailable);
  });

  it('an unreadable attestation is InpsMalformed, never a made-up ISEE', async () => {
    const { port } = adapter();
    await post(`${inps.url}/admin/faults`, { kind: 'malformed' });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(InpsMalformed);
  });

  it('a key PDND does not know is refused with the masked 400', async () => {
    const { port } = adapter({ kid: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(PdndRefused);
  });

  it('a voucher of the other purpose is refused by INPS (403): InpsRefused', async () => {
    const client = makePdndClient({ tokenUrl: pdnd.tokenUrl, clientId, kid, assertionAudience: LOCAL_PDND.assertionAudience, signer: localKeySigner(privateKey) });
    const port = makeInpsIsee({
      settings: { endpoint: inps.endpoint, userId: '80012340123', codiceUfficio: '001', purposes: { attestazione: LOCAL_PDND.purposes.indicatore, indicatore: LOCAL_PDND.purposes.indicatore }, audience: LOCAL_PDND.inpsAudience, auditRest02: false },
      pdnd: client,
    });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(InpsRefused);
  });
});

describe('the PDND simulator follows client-assertion-validation', () => {
  const purposeId = LOCAL_PDND.purposes.attestazione;
  const assertion = async (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) => {
    const iat = Math.floor(Date.now() / 1000);
    const payload = { iss: clientId, sub: clientId, aud: LOCAL_PDND.assertionAudience, purposeId, jti: randomUUID(), iat, exp: iat + 300, ...claims };
    for (const [key, value] of Object.entries(payload)) if (value === undefined) delete (payload as Record<string, unknown>)[key];
    return signJws(localKeySigner(privateKey), { alg: 'RS256', kid, typ: 'JWT', ...header }, payload);
  };
  const token = async (jws: string, extra: Record<string, string> = {}) => {
    const response = await fetch(pdnd.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, client_assertion: jws, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', grant_type: 'client_credentials', ...extra }),
    });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };

  it('gives an RS256 at+jwt voucher with the e-service’s audience and the purpose', async () => {
    const { status, body, headers } = await token(await assertion());
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect(jose.decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt', use: 'sig' });
    const { payload } = await jose.jwtVerify(body.access_token, jose.createRemoteJWKSet(new URL(pdnd.jwksUrl)), { audience: LOCAL_PDND.inpsAudience });
    expect(payload).toMatchObject({ client_id: clientId, sub: clientId, purposeId });
    expect(headers.get('x-rate-limit-limit')).toBeTruthy();
  });

  it('answers every invalid assertion with the same masked 400 (015-0008) and a correlationId', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const cases = [
      await assertion({ nbf: iat }),
      await assertion({ extra: 'x' }),
      await assertion({}, { x5t: 'x' }),
      await assertion({ sub: randomUUID() }),
      await assertion({ purposeId: 'not-a-uuid' }),
      await assertion({ purposeId: undefined }),
      await assertion({ aud: 'auth.interop.pagopa.it/client-assertion' }),
      await assertion({ iat: iat - 900, exp: iat - 600 }),
      await assertion({ jti: undefined }),
      await assertion({ digest: { alg: 'SHA256', value: 'abc' } }),
      await assertion({}, { kid: 'short' }),
      (await assertion()).replace(/\.[^.]+$/, '.AAAA'),
      'not-a-jwt',
    ];
    const bodies = [];
    for (const jws of cases) {
      const { status, body } = await token(jws);
      expect(status).toBe(400);
      bodies.push(body);
    }
    const withoutIds = bodies.map(({ correlationId, ...rest }) => (expect(correlationId).toMatch(/^[0-9a-f-]{36}$/), rest));
    expect(new Set(withoutIds.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(withoutIds[0]).toMatchObject({ status: 400, errors: [{ code: '015-0008' }] });
    expect((await token(await assertion(), { grant_type: 'password' })).status).toBe(400);
  });

  it('limits the organization’s requests: 429 with X-Rate-Limit-* (the interval in milliseconds)', async () => {
    await post(`${pdnd.url}/admin/rate-limit`, { maxRequests: 2, intervalMs: 5000 });
    expect((await token(await assertion())).status).toBe(200);
    expect((await token(await assertion())).status).toBe(200);
    const limited = await token(await assertion());
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe('015-10004');
    expect([limited.headers.get('x-rate-limit-limit'), limited.headers.get('x-rate-limit-interval'), limited.headers.get('x-rate-limit-remaining')]).toEqual(['2', '5000', '0']);
  });
});

describe('the INPS simulator speaks the WSDL', () => {
  it('answers the soap package’s request built from the WSDL, with the Identity header and the voucher', async () => {
    const { client: pdndClient } = adapter();
    const voucher = await pdndClient.voucher(LOCAL_PDND.purposes.attestazione);
    const client = await soap.createClientAsync(WSDL, { endpoint: inps.endpoint });
    client.addSoapHeader({ Identity: { UserId: '80012340123', CodiceUfficio: '001' } }, '', 'inps', 'http://inps.it/');
    client.addHttpHeader('Authorization', `Bearer ${voucher.token}`);
    const [result] = await client.ConsultazioneAttestazioneAsync({
      request: { RicercaCF: { CodiceFiscale: 'GRCPLA70A01F205T', DataValidita: today, PrestazioneDaErogare: 'A2.07', ProtocolloDomandaEnteErogatore: 'PORTALE-x', StatodomandaPrestazione: 'Da Erogare' } },
    });
    expect(result.ConsultazioneAttestazioneResult.Esito).toBe('OK');
    const xml = Buffer.from(result.ConsultazioneAttestazioneResult.XmlEsitoAttestazione, 'base64').toString('latin1');
    expect(xml).toContain('CodiceFiscaleDichiarante="GRCPLA70A01F205T"');
    expect(xml).toContain('ISEE="9800.00"');
  });

  it('refuses a request without the Identity header (Client fault) and without a voucher (401)', async () => {
    const { client: pdndClient } = adapter();
    const voucher = await pdndClient.voucher(LOCAL_PDND.purposes.attestazione);
    const client = await soap.createClientAsync(WSDL, { endpoint: inps.endpoint });
    client.addHttpHeader('Authorization', `Bearer ${voucher.token}`);
    const args = { request: { RicercaCF: { CodiceFiscale: 'GRCPLA70A01F205T' } } };
    await expect(client.ConsultazioneAttestazioneAsync(args)).rejects.toMatchObject({ root: { Envelope: { Body: { Fault: { faultcode: 's:Client' } } } } });
    const anonymous = await soap.createClientAsync(WSDL, { endpoint: inps.endpoint });
    await expect(anonymous.ConsultazioneAttestazioneAsync(args)).rejects.toMatchObject({ response: { status: 401 } });
  });
});
