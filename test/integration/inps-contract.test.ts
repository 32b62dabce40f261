import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';
import {
  clientCertificateFetch,
  lazyClientCertificateFetch,
} from '../../functions/adapters/client-certificate-fetch.ts';
import * as jose from 'jose';
import * as soap from 'soap';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InpsMalformed,
  InpsMisconfigured,
  InpsUnavailable,
  makeInpsIsee,
  RATE_LIMIT_WAIT_MS,
  type InpsSettings,
} from '../../functions/adapters/inps-isee.ts';
import type { InpsRequest } from '../../functions/adapters/ports/inps.ts';
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
    purposes: {
      [LOCAL_PDND.purposes.attestazione]: { audience: LOCAL_PDND.inpsAudience },
      [LOCAL_PDND.purposes.indicatore]: { audience: LOCAL_PDND.inpsAudience },
      [LOCAL_PDND.residenti.purpose]: { audience: LOCAL_PDND.residenti.audience },
    },
  });
  inps = await startInpsSimulator({
    port: await freePort(),
    pdnd: { jwksUrl: pdnd.jwksUrl, issuer: pdnd.issuer },
    audience: LOCAL_PDND.inpsAudience,
    purposes: LOCAL_PDND.purposes,
    residenti: LOCAL_PDND.residenti,
  });
});
afterAll(async () => {
  await inps?.close();
  await pdnd?.close();
});
beforeEach(async () => {
  await post(`${pdnd.url}/admin/reset`, {});
  await post(`${inps.url}/admin/reset`, {});
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The v1 e-service's settings (ConsultazioneAttestazione and ConsultazioneIndicatore at …/v1). */
const v1 = (): InpsSettings => ({
  attestazione: {
    operation: 'ConsultazioneAttestazione',
    endpoint: inps.endpoint,
    audience: LOCAL_PDND.inpsAudience,
    purposeId: LOCAL_PDND.purposes.attestazione,
  },
  indicatore: {
    operation: 'ConsultazioneIndicatore',
    endpoint: inps.endpoint,
    audience: LOCAL_PDND.inpsAudience,
    purposeId: LOCAL_PDND.purposes.indicatore,
  },
  userId: '80012340123',
  codiceUfficio: '001',
  auditRest02: false,
});
/** The residents' e-service, as councils subscribe it. */
const residenti = (): InpsSettings => ({
  ...v1(),
  attestazione: {
    operation: 'ConsultazioneAttestazioneResidenti',
    endpoint: inps.residentiEndpoint,
    audience: LOCAL_PDND.residenti.audience,
    purposeId: LOCAL_PDND.residenti.purpose,
  },
  indicatore: null,
});

function adapter(
  overrides: {
    renewBeforeSeconds?: number;
    auditRest02?: boolean;
    timeoutMs?: number;
    kid?: string;
    settings?: InpsSettings;
    fetch?: typeof fetch;
    waits?: number[];
  } = {},
) {
  const client = makePdndClient({
    tokenUrl: pdnd.tokenUrl,
    clientId,
    kid: overrides.kid ?? kid,
    assertionAudience: LOCAL_PDND.assertionAudience,
    signer: localKeySigner(privateKey),
    renewBeforeSeconds: overrides.renewBeforeSeconds,
  });
  const port = makeInpsIsee({
    settings: { ...(overrides.settings ?? v1()), auditRest02: overrides.auditRest02 ?? false },
    pdnd: client,
    fetch: overrides.fetch,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
    waitAfterRateLimit: (ms) => (
      overrides.waits?.push(ms),
      new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50)))
    ),
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
    expect(answer).toMatchObject({
      operation: 'ConsultazioneAttestazione',
      esito: 'OK',
      purposeId: LOCAL_PDND.purposes.attestazione,
    });
    expect(answer.idRichiesta).toMatch(/^\d+$/);
    expect(answer.voucherJti).toMatch(/^[0-9a-f-]{36}$/);
    const attestation = answer.data!;
    expect(attestation.protocolloDSU).toMatch(/^INPS-ISEE-\d{4}-\d{8}[A-Z]-\d{2}$/);
    expect(attestation).toMatchObject({
      codiceFiscaleDichiarante: 'RSSMRA85C52H501N',
      dataPresentazione: `${year}-01-15`,
      dataValidita: `${year}-12-31`,
      omissions: [],
      discrepancies: [],
    });
    expect(attestation.ordinario).toMatchObject({ iseeCents: 845_032, scalaEquivalenza: 2.04 });
    // ISEE = ISE / scala, as INPS computes it.
    expect(Math.round(attestation.ordinario!.iseCents / attestation.ordinario!.scalaEquivalenza)).toBe(845_032);
    expect(attestation.household.map((m) => m.relation)).toEqual(['D', 'C', 'F']);
    expect(attestation.household[0]).toMatchObject({
      fiscalCode: 'RSSMRA85C52H501N',
      lastName: 'ROSSI',
      firstName: 'MARIA',
    });
  });

  it('reads names outside Latin-1 (the answer is iso-8859-1: they come as character references)', async () => {
    await post(`${inps.url}/admin/dsu`, {
      fiscalCode: 'NWKLCU80A41Z127X',
      firstName: 'ŁUCJA',
      lastName: 'NOWAK-ȘTEFĂNESCU',
      value: 9000,
    });
    const { port } = adapter();
    const answer = await port.attestation(request('NWKLCU80A41Z127X'));
    expect(answer.data!.household[0]).toMatchObject({
      fiscalCode: 'NWKLCU80A41Z127X',
      firstName: 'ŁUCJA',
      lastName: 'NOWAK-ȘTEFĂNESCU',
    });
  });

  it('reads the indicator', async () => {
    const { port } = adapter();
    const answer = await port.indicator(request('CLMGLI92T48L219U'));
    expect(answer.esito).toBe('OK');
    expect(answer.data).toMatchObject({
      tipoIndicatore: 'Ordinario',
      values: { iseeCents: 489_000 },
      dataPresentazione: `${year}-01-15`,
    });
  });

  it('an attestation with omissions carries them; an expired DSU and an unknown code are DATI_NON_TROVATI', async () => {
    const { port } = adapter();
    const withOmissions = await port.attestation(request('RCCMRC60A01H501V'));
    expect(withOmissions.data!.omissions).toEqual([
      { type: 'PatrimoniMobiliari', fiscalCode: 'RCCMRC60A01H501V', checkedOn: `${year}-01-18` },
    ]);
    const expired = await port.attestation(request('BRNNNA88M41F839L'));
    expect(expired).toMatchObject({ esito: 'DATI_NON_TROVATI', data: null });
    // The same DSU, asked for a day of last year, is found: it was valid then.
    expect((await port.attestation(request('BRNNNA88M41F839L', { dataValidita: `${year - 1}-06-30` }))).esito).toBe(
      'OK',
    );
    expect((await port.attestation(request('BNCLRA79H61F205F'))).esito).toBe('DATI_NON_TROVATI');
  });

  it('a request the XSD refuses is RICHIESTA_INVALIDA, with the reason', async () => {
    const { port } = adapter();
    const answer = await port.attestation(request('RSSMRA85C52H501N', { benefitCode: 'B9.99' }));
    expect(answer).toMatchObject({
      esito: 'RICHIESTA_INVALIDA',
      descrizioneErrore: expect.stringContaining('PrestazioneDaErogare'),
      data: null,
    });
  });

  it('uses one voucher per purpose for many queries', async () => {
    const { port } = adapter();
    const issued = pdnd.stats().issued;
    for (const code of ['RSSMRA85C52H501N', 'FRRLCU75E15F205M', 'GRCPLA70A01F205T'])
      await port.attestation(request(code));
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
    const client = makePdndClient({
      tokenUrl: pdnd.tokenUrl,
      clientId,
      kid,
      assertionAudience: LOCAL_PDND.assertionAudience,
      signer: localKeySigner(privateKey),
      now: () => Date.now() - 100_000,
    });
    const port = makeInpsIsee({ settings: v1(), pdnd: client });
    const [issued, refused] = [pdnd.stats().issued, inps.stats().unauthorized];
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect((await port.attestation(request('FRRLCU75E15F205M'))).esito).toBe('OK');
    expect(inps.stats().unauthorized - refused).toBe(1);
    expect(pdnd.stats().issued - issued).toBe(2);
  });

  it('sends the audit information (AUDIT_REST_02) the e-service checks against the voucher’s digest', async () => {
    const { port } = adapter({ auditRest02: true });
    const answer = await port.attestation(
      request('RSSMRA85C52H501N', { requestedBy: { userID: 'RSSMRA85C52H501N', LoA: 'SPID_L2' } }),
    );
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

  it('a 429 is waited out as Retry-After says; a storm ends as InpsRateLimited', async () => {
    const waits: number[] = [];
    const { port } = adapter({ waits });
    await post(`${inps.url}/admin/faults`, { kind: '429', times: 2 });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    expect(waits).toEqual([1000, 1000]);
    await post(`${inps.url}/admin/faults`, { kind: '429', times: 'always' });
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toMatchObject({
      name: 'InpsRateLimited',
      withoutRetryAfter: false,
    });
  });

  it('a 429 without Retry-After (INPS’s daily limit) is waited out, not asked again at once, and said to be one', async () => {
    const waits: number[] = [];
    const { port } = adapter({ waits });
    await post(`${inps.url}/admin/faults`, { kind: '429-daily', times: 'always' });
    const before = inps.stats().rateLimited;
    await expect(port.attestation(request('RSSMRA85C52H501N'))).rejects.toMatchObject({
      name: 'InpsRateLimited',
      withoutRetryAfter: true,
    });
    expect(waits).toEqual([RATE_LIMIT_WAIT_MS]);
    expect(inps.stats().rateLimited - before).toBe(2);
    // With a citizen waiting (a deadline a few seconds away) there is no time to wait: one request, then the answer.
    await expect(port.attestation(request('RSSMRA85C52H501N', { deadline: Date.now() + 4000 }))).rejects.toMatchObject({
      name: 'InpsRateLimited',
    });
    expect(inps.stats().rateLimited - before).toBe(3);
  });

  it('every call ends before the caller’s deadline: a slow INPS is given up on, not waited for', async () => {
    const { port } = adapter();
    await post(`${inps.url}/admin/faults`, { kind: 'slow', times: 'always', ms: 5000 });
    const before = inps.stats().requests;
    await expect(port.attestation(request('RSSMRA85C52H501N', { deadline: Date.now() + 2500 }))).rejects.toMatchObject({
      name: 'InpsUnavailable',
      message: expect.stringMatching(/tempo esaurito|nessuna risposta/),
    });
    expect(inps.stats().requests - before).toBe(1);
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

  it('a voucher for another e-service’s audience is a configuration problem: said so, and never sent', async () => {
    const settings = v1();
    const { port } = adapter({
      settings: { ...settings, attestazione: { ...settings.attestazione, purposeId: LOCAL_PDND.residenti.purpose } },
    });
    const before = inps.stats().requests;
    const error = await port.attestation(request('RSSMRA85C52H501N')).catch((e) => e);
    expect(error).toBeInstanceOf(InpsMisconfigured);
    expect(error.check).toContain(LOCAL_PDND.residenti.purpose);
    expect(inps.stats().requests - before).toBe(0);
  });
});

describe('the PDND simulator follows client-assertion-validation', () => {
  const purposeId = LOCAL_PDND.purposes.attestazione;
  const assertion = async (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) => {
    const iat = Math.floor(Date.now() / 1000);
    const payload = {
      iss: clientId,
      sub: clientId,
      aud: LOCAL_PDND.assertionAudience,
      purposeId,
      jti: randomUUID(),
      iat,
      exp: iat + 300,
      ...claims,
    };
    for (const [key, value] of Object.entries(payload))
      if (value === undefined) delete (payload as Record<string, unknown>)[key];
    return signJws(localKeySigner(privateKey), { alg: 'RS256', kid, typ: 'JWT', ...header }, payload);
  };
  const token = async (jws: string, extra: Record<string, string> = {}) => {
    const response = await fetch(pdnd.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: clientId,
        client_assertion: jws,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        grant_type: 'client_credentials',
        ...extra,
      }),
    });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };

  it('gives an RS256 at+jwt voucher with the e-service’s audience and the purpose', async () => {
    const { status, body, headers } = await token(await assertion());
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect(jose.decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt', use: 'sig' });
    const { payload } = await jose.jwtVerify(body.access_token, jose.createRemoteJWKSet(new URL(pdnd.jwksUrl)), {
      audience: LOCAL_PDND.inpsAudience,
    });
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
    const withoutIds = bodies.map(
      ({ correlationId, ...rest }) => (expect(correlationId).toMatch(/^[0-9a-f-]{36}$/), rest),
    );
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
    expect([
      limited.headers.get('x-rate-limit-limit'),
      limited.headers.get('x-rate-limit-interval'),
      limited.headers.get('x-rate-limit-remaining'),
    ]).toEqual(['2', '5000', '0']);
  });
});

describe('the INPS simulator speaks the WSDL', () => {
  it('answers the soap package’s request built from the WSDL, with the Identity header and the voucher', async () => {
    const { client: pdndClient } = adapter();
    const voucher = await pdndClient.voucher(LOCAL_PDND.purposes.attestazione);
    const client = await soap.createClientAsync(WSDL, { endpoint: inps.endpoint });
    client.addSoapHeader({ Identity: { UserId: '80012340123', CodiceUfficio: '001' } }, '', 'inps', 'http://inps.it/');
    client.addHttpHeader('Authorization', `Bearer ${voucher.token}`);
    client.addHttpHeader('INPS-Identity-UserId', '80012340123');
    client.addHttpHeader('INPS-Identity-CodiceUfficio', '001');
    const [result] = await client.ConsultazioneAttestazioneAsync({
      request: {
        RicercaCF: {
          CodiceFiscale: 'GRCPLA70A01F205T',
          DataValidita: today,
          PrestazioneDaErogare: 'A2.07',
          ProtocolloDomandaEnteErogatore: 'PORTALE-x',
          StatodomandaPrestazione: 'Da Erogare',
        },
      },
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
    await expect(client.ConsultazioneAttestazioneAsync(args)).rejects.toMatchObject({
      root: { Envelope: { Body: { Fault: { faultcode: 's:Client' } } } },
    });
    const anonymous = await soap.createClientAsync(WSDL, { endpoint: inps.endpoint });
    await expect(anonymous.ConsultazioneAttestazioneAsync(args)).rejects.toMatchObject({ response: { status: 401 } });
  });
});

describe('the e-service the council subscribed to', () => {
  it('the residents’ e-service answers ConsultazioneAttestazioneResidenti at its own endpoint, with its own voucher', async () => {
    const { port } = adapter({ settings: residenti() });
    const answer = await port.attestation(request('RSSMRA85C52H501N'));
    expect(answer).toMatchObject({
      operation: 'ConsultazioneAttestazioneResidenti',
      esito: 'OK',
      purposeId: LOCAL_PDND.residenti.purpose,
    });
    expect(answer.data).toMatchObject({
      codiceFiscaleDichiarante: 'RSSMRA85C52H501N',
      ordinario: { iseeCents: 845_032 },
    });
  });

  it('an operation the e-service does not have gets WCF’s ActionNotSupported: a configuration problem, asked once, never retried', async () => {
    // The v1 operation sent to the residents' endpoint (with the residents' voucher): what the portal did before.
    const settings = residenti();
    const { port } = adapter({
      settings: { ...settings, attestazione: { ...settings.attestazione, operation: 'ConsultazioneAttestazione' } },
    });
    const before = inps.stats();
    const error = await port.attestation(request('RSSMRA85C52H501N')).catch((e) => e);
    expect(error).toBeInstanceOf(InpsMisconfigured);
    expect(error.message).toContain('ContractFilter mismatch');
    expect(error.check).toContain(inps.residentiEndpoint);
    expect(inps.stats().requests - before.requests).toBe(1);
    expect(inps.stats().actionNotSupported - before.actionNotSupported).toBe(1);
    // And the residents' operation at the v1 endpoint is no better.
    const wrongEndpoint = adapter({
      settings: { ...v1(), attestazione: { ...v1().attestazione, operation: 'ConsultazioneAttestazioneResidenti' } },
    });
    await expect(wrongEndpoint.port.attestation(request('RSSMRA85C52H501N'))).rejects.toBeInstanceOf(InpsMisconfigured);
  });

  it('the fault is the one WCF writes (faultcode a:ActionNotSupported, HTTP 500)', async () => {
    const { client } = adapter();
    const voucher = await client.voucher(LOCAL_PDND.residenti.purpose);
    const response = await fetch(inps.residentiEndpoint, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml; charset=utf-8',
        SOAPAction: '"http://inps.it/ConsultazioneISEE/ISvcConsultazione/ConsultazioneIndicatore"',
        authorization: `Bearer ${voucher.token}`,
      },
      body: '<x/>',
    });
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toMatch(
      /<faultcode xmlns:a="http:\/\/schemas\.microsoft\.com\/ws\/2005\/05\/addressing\/none">a:ActionNotSupported<\/faultcode>/,
    );
  });

  it('sends the INPS-Identity-UserId and INPS-Identity-CodiceUfficio headers municipal clients send; without them the request is refused', async () => {
    const seen: Headers[] = [];
    const { port } = adapter({ fetch: (url, init) => (seen.push(new Headers(init?.headers)), fetch(url, init)) });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    expect([seen[0].get('INPS-Identity-UserId'), seen[0].get('INPS-Identity-CodiceUfficio')]).toEqual([
      '80012340123',
      '001',
    ]);
    const stripped = adapter({
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        headers.delete('INPS-Identity-UserId');
        return fetch(url, { ...init, headers });
      },
    });
    await expect(stripped.port.attestation(request('RSSMRA85C52H501N'))).rejects.toMatchObject({
      name: 'InpsRefused',
      message: expect.stringContaining('INPS-Identity-UserId'),
    });
  });

  it('a request the published XSD refuses is RICHIESTA_INVALIDA with the schema’s complaint', async () => {
    const { port } = adapter({ settings: residenti() });
    const answer = await port.attestation(request('RSSMRA85C52H501N', { dataValidita: '2026-02-30x' }));
    expect(answer).toMatchObject({ esito: 'RICHIESTA_INVALIDA', data: null });
    expect(answer.descrizioneErrore).toContain('DataValidita');
  });
});

describe('what an attestation may carry (ISEE_Attestazione.xsd)', () => {
  let validator: XsdValidator;
  beforeAll(() => {
    const dir = path.dirname(WSDL);
    xmlRegisterFsInputProviders();
    // The answer's schema includes the attestation's and the common types': libxml2 reads them from the folder.
    validator = XsdValidator.fromDoc(
      XmlDocument.fromString(readFileSync(path.join(dir, 'ISEE_EsitoConsultazioneAttestazione.xsd'), 'latin1'), {
        url: pathToFileURL(path.join(dir, 'ISEE_EsitoConsultazioneAttestazione.xsd')).href,
      }),
    );
  });
  /** The EsitoAttestazione INPS sends for a fiscal code, checked against the XSD before the adapter reads it. */
  async function attestationOf(fiscalCode: string, dataValidita = today) {
    const seen: string[] = [];
    const { port } = adapter({
      settings: residenti(),
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        const body = await response.text();
        const encoded = /<XmlEsitoAttestazione>([^<]+)</.exec(body)?.[1];
        if (encoded) seen.push(Buffer.from(encoded, 'base64').toString('latin1'));
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    const answer = await port.attestation(request(fiscalCode, { dataValidita }));
    for (const xml of seen) {
      const doc = XmlDocument.fromString(xml.replace(/^<\?xml[^>]*\?>/, ''));
      try {
        validator.validate(doc);
      } finally {
        doc.dispose();
      }
    }
    expect(seen).toHaveLength(1);
    return answer.data!;
  }

  it('an ISEE corrente: its own protocol and presentation day, expiring on DataScadenzaDSUCorrente', async () => {
    const attestation = await attestationOf('BNCGNN80A01H501T', `${year}-05-10`);
    expect(attestation.corrente).toEqual({
      protocolloDSU: expect.stringMatching(/^INPS-ISEE-\d{4}-\d{8}[A-Z]-\d{2}$/),
      dataPresentazione: `${year}-03-01`,
      dataScadenza: `${year}-08-31`,
    });
    expect(attestation.corrente!.protocolloDSU).not.toBe(attestation.protocolloDSU);
    expect(attestation.dataValidita).toBe(`${year}-12-31`);
    expect(attestation.ordinario!.iseeCents).toBe(512_000);
  });

  it('university, social-health, reduced and changed (Variazione) indicators', async () => {
    const attestation = await attestationOf('MRNLSE85M50F205X');
    expect(attestation.corrente).toBeNull();
    expect(attestation.otherIndicators.map((o) => [o.kind, o.iseeCents])).toEqual([
      ['UNIVERSITARIO', 1_480_000],
      ['SOCIOSANITARIO', 1_110_000],
      ['RIDOTTO', 832_500],
    ]);
    expect(attestation.discrepancies).toEqual([
      {
        fiscalCode: 'MRNLSE85M50F205X',
        type: 'Reddito',
        detail: 'Reddito complessivo diverso da quello dell’Agenzia delle Entrate',
      },
    ]);
  });

  it('a plain, an omissions and a minorenni-free attestation are valid too', async () => {
    expect((await attestationOf('RSSMRA85C52H501N')).otherIndicators).toEqual([]);
    expect((await attestationOf('RCCMRC60A01H501V')).omissions).toHaveLength(1);
  });

  it('once the ISEE corrente is over, the attestation is the DSU’s ordinary one again', async () => {
    await post(`${inps.url}/admin/dsu`, {
      fiscalCode: 'VRDLGU70A01L219G',
      value: 4000,
      kind: 'corrente',
      correnteMonths: 2,
    });
    expect(await attestationOf('VRDLGU70A01L219G', `${year}-04-30`)).toMatchObject({
      corrente: { dataScadenza: `${year}-04-30` },
      ordinario: { iseeCents: 400_000 },
    });
    expect(await attestationOf('VRDLGU70A01L219G', `${year}-05-01`)).toMatchObject({
      corrente: null,
      ordinario: { iseeCents: 500_000 },
    });
  });
});

describe('mutual TLS, where the agreement requires it', () => {
  let tlsInps: InpsSimulator;
  let client: { cert: string; key: string };
  let ca: string;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inps-tls-'));
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Test CA',
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=localhost',
    );
    writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    run(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'san.ext',
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'client.key',
      '-out',
      'client.csr',
      '-subj',
      '/CN=Comune di prova',
    );
    run(
      'x509',
      '-req',
      '-in',
      'client.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'client.pem',
      '-days',
      '2',
    );
    const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
    ca = read('ca.pem');
    client = { cert: read('client.pem'), key: read('client.key') };
    tlsInps = await startInpsSimulator({
      port: await freePort(),
      pdnd: { jwksUrl: pdnd.jwksUrl, issuer: pdnd.issuer },
      audience: LOCAL_PDND.inpsAudience,
      purposes: LOCAL_PDND.purposes,
      residenti: LOCAL_PDND.residenti,
      tls: { key: read('server.key'), cert: read('server.pem'), ca, requireClientCertificate: true },
    });
    rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => tlsInps?.close());

  const tlsSettings = (): InpsSettings => ({
    ...residenti(),
    clientCertificate: true,
    attestazione: { ...residenti().attestazione, endpoint: tlsInps.residentiEndpoint },
  });

  it('with the council’s certificate the query goes through', async () => {
    const { port } = adapter({ settings: tlsSettings(), fetch: clientCertificateFetch({ ...client, ca }) });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
  });

  it('with the certificate loaded at the first query (the cloud reads it from its secret), loaded once and used for every query', async () => {
    let loads = 0;
    const { port } = adapter({
      settings: tlsSettings(),
      fetch: lazyClientCertificateFetch(async () => (loads++, { ...client, ca })),
    });
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
    expect(loads).toBe(1);
  });

  it('a certificate secret that cannot be read is a configuration problem naming the certificate; the next query reads it again', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      if (loads === 1)
        throw new Error(
          'client certificate: secret portale/inps-client-cert unreadable (AccessDeniedException: not authorized)',
        );
      return { ...client, ca };
    };
    const { port } = adapter({ settings: tlsSettings(), fetch: lazyClientCertificateFetch(load) });
    const error = await port.attestation(request('RSSMRA85C52H501N')).catch((e) => e);
    expect(error).toBeInstanceOf(InpsMisconfigured);
    expect(error.check).toContain('INPS_CLIENT_CERT_SECRET');
    expect((await port.attestation(request('RSSMRA85C52H501N'))).esito).toBe('OK');
  });

  it('without it (or with one INPS does not know) it is a configuration problem, not INPS being down', async () => {
    const { privateKey: otherKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const stranger = { cert: client.cert, key: otherKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    for (const fetchWith of [
      clientCertificateFetch({ cert: '', key: '', ca } as never),
      clientCertificateFetch({ ...stranger, ca }),
    ]) {
      const { port } = adapter({ settings: tlsSettings(), fetch: fetchWith });
      const error = await port.attestation(request('RSSMRA85C52H501N')).catch((e) => e);
      expect(error).toBeInstanceOf(InpsMisconfigured);
      expect(error.check).toContain('certificato client');
    }
  });
});
