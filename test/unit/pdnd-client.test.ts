import { createHash, generateKeyPairSync } from 'node:crypto';
import { KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { makePdndClient, PdndRefused, PdndUnavailable } from '../../functions/adapters/pdnd.ts';
import { kmsSigner, localKeySigner } from '../../functions/adapters/pdnd-signers.ts';

/**
 * The PDND client against a fake token endpoint that records every request: the client assertion exactly as
 * PDND validates it (interop-be-monorepo client-assertion-validation), the voucher reused for its lifetime, and
 * PDND's 400 / 429 / 500 answers.
 */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const CLIENT_ID = '3f8a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const PURPOSE = '6f1d2c3b-4a59-4b7e-8c1d-2e3f4a5b6c7d';
const KID = 'ZxY0wV9uTsRqPoNmLkJiHgFeDcBa_-0123456789abc';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'refused';
const voucherFor = (exp: number, jti = 'voucher-1') =>
  `${Buffer.from('{"alg":"RS256","typ":"at+jwt"}').toString('base64url')}.${Buffer.from(JSON.stringify({ jti, exp, purposeId: PURPOSE })).toString('base64url')}.c2ln`;

function fakePdnd(answers: Answer[], start = 1_800_000_000_000) {
  let clock = start;
  const requests: URLSearchParams[] = [];
  const sleeps: number[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    requests.push(new URLSearchParams(String(init.body)));
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected token request');
    if (answer === 'refused') throw new TypeError('fetch failed');
    return new Response(JSON.stringify(answer.body ?? {}), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as unknown as typeof globalThis.fetch;
  const client = makePdndClient({
    tokenUrl: 'https://auth.uat.interop.pagopa.it/token.oauth2',
    clientId: CLIENT_ID,
    kid: KID,
    assertionAudience: 'auth.uat.interop.pagopa.it/client-assertion',
    signer: localKeySigner(privateKey),
    fetch,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
  });
  return { client, requests, sleeps, advance: (ms: number) => (clock += ms), now: () => clock };
}

const ok = (exp: number, jti?: string): Answer => ({
  status: 200,
  body: { access_token: voucherFor(exp, jti), token_type: 'Bearer', expires_in: 600 },
});

describe('PDND client: the client assertion', () => {
  it('is an RS256 JWS with kid and typ, and exactly the claims PDND accepts, signed by the client key', async () => {
    const { client, requests, now } = fakePdnd([ok(1_800_000_600)]);
    await client.voucher(PURPOSE);
    const form = requests[0];
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(form.get('client_id')).toBe(CLIENT_ID);
    const assertion = form.get('client_assertion')!;
    expect(jose.decodeProtectedHeader(assertion)).toEqual({ alg: 'RS256', kid: KID, typ: 'JWT' });
    const { payload } = await jose.jwtVerify(assertion, publicKey, {
      algorithms: ['RS256'],
      currentDate: new Date(now()),
    });
    expect(Object.keys(payload).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'purposeId', 'sub']);
    expect(payload).toMatchObject({
      iss: CLIENT_ID,
      sub: CLIENT_ID,
      aud: 'auth.uat.interop.pagopa.it/client-assertion',
      purposeId: PURPOSE,
    });
    expect(payload.iat).toBe(Math.floor(now() / 1000));
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(600);
  });

  it('carries the digest of the audit token (AUDIT_REST_02), and the voucher bound to it is never reused', async () => {
    const { client, requests } = fakePdnd([ok(1_800_000_600, 'a'), ok(1_800_000_600, 'b')]);
    const evidence = await client.trackingEvidence({
      aud: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
      purposeId: PURPOSE,
      userID: 'RSSMRA85C52H501N',
      userLocation: 'portale',
      LoA: 'SPID_L2',
    });
    expect(evidence.digest).toBe(createHash('sha256').update(evidence.jws).digest('hex'));
    expect(jose.decodeJwt(evidence.jws)).toMatchObject({
      userID: 'RSSMRA85C52H501N',
      LoA: 'SPID_L2',
      aud: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
    });
    await client.voucher(PURPOSE, evidence);
    await client.voucher(PURPOSE, evidence);
    expect(requests).toHaveLength(2);
    expect(jose.decodeJwt(requests[0].get('client_assertion')!).digest).toEqual({
      alg: 'SHA256',
      value: evidence.digest,
    });
  });
});

describe('PDND client: one token request per voucher lifetime', () => {
  it('reuses the voucher until a minute before it expires, then asks again', async () => {
    const { client, requests, advance } = fakePdnd([ok(1_800_000_600, 'first'), ok(1_800_001_200, 'second')]);
    const first = await client.voucher(PURPOSE);
    advance(500_000);
    expect((await client.voucher(PURPOSE)).jti).toBe('first');
    expect(requests).toHaveLength(1);
    advance(50_000);
    expect((await client.voucher(PURPOSE)).jti).toBe('second');
    expect(first.jti).toBe('first');
    expect(requests).toHaveLength(2);
  });

  it('makes one request for many callers at once', async () => {
    const { client, requests } = fakePdnd([ok(1_800_000_600)]);
    const vouchers = await Promise.all(Array.from({ length: 20 }, () => client.voucher(PURPOSE)));
    expect(new Set(vouchers.map((v) => v.token)).size).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('asks for a new voucher once the e-service refused the cached one', async () => {
    const { client, requests } = fakePdnd([ok(1_800_000_600, 'revoked'), ok(1_800_000_600, 'fresh')]);
    client.forget(await client.voucher(PURPOSE));
    expect((await client.voucher(PURPOSE)).jti).toBe('fresh');
    expect(requests).toHaveLength(2);
  });
});

describe('PDND client: PDND’s answers', () => {
  it('429: waits the window X-Rate-Limit-Interval names, then gets the voucher', async () => {
    const limited: Answer = {
      status: 429,
      body: { status: 429, errors: [{ code: '015-10004' }] },
      headers: { 'X-Rate-Limit-Limit': '10', 'X-Rate-Limit-Interval': '2000', 'X-Rate-Limit-Remaining': '0' },
    };
    const { client, sleeps, requests } = fakePdnd([limited, limited, ok(1_800_000_600)]);
    await client.voucher(PURPOSE);
    expect(sleeps).toEqual([2000, 2000]);
    expect(requests).toHaveLength(3);
    expect(client.stats.rateLimited).toBe(2);
  });

  it('a 429 storm ends as PdndUnavailable, not as an endless wait', async () => {
    const limited: Answer = { status: 429, headers: { 'X-Rate-Limit-Interval': '1000' } };
    const { client } = fakePdnd(Array.from({ length: 10 }, () => limited));
    await expect(client.voucher(PURPOSE)).rejects.toBeInstanceOf(PdndUnavailable);
  });

  it('400 (masked, 015-0008) is PdndRefused with the correlationId, not retried', async () => {
    const refused: Answer = {
      status: 400,
      body: {
        status: 400,
        detail: 'Bad request',
        errors: [{ code: '015-0008', detail: 'Unable to generate a token for the given request' }],
        correlationId: 'c0ffee',
      },
    };
    const { client, requests } = fakePdnd([refused]);
    const error = await client.voucher(PURPOSE).catch((e) => e);
    expect(error).toBeInstanceOf(PdndRefused);
    expect(error).toMatchObject({ correlationId: 'c0ffee', code: '015-0008' });
    expect(requests).toHaveLength(1);
  });

  it('500 and a refused connection are retried, then PdndUnavailable', async () => {
    const failing: Answer = { status: 500, body: { errors: [{ code: '015-0000' }], correlationId: 'x' } };
    const { client: retried } = fakePdnd([failing, 'refused', ok(1_800_000_600)]);
    expect((await retried.voucher(PURPOSE)).token).toBeTruthy();
    const { client: down } = fakePdnd([failing, failing, failing]);
    await expect(down.voucher(PURPOSE)).rejects.toBeInstanceOf(PdndUnavailable);
  });
});

describe('the KMS signer', () => {
  it('asks KMS to sign the raw signing input with RSASSA_PKCS1_V1_5_SHA_256, and uses its signature', async () => {
    const kms = mockClient(KMSClient);
    kms.on(SignCommand).resolves({ Signature: new Uint8Array([1, 2, 3]) });
    const signature = await kmsSigner('arn:aws:kms:eu-south-1:123456789012:key/abc', new KMSClient({})).sign(
      Buffer.from('header.payload'),
    );
    expect([...signature]).toEqual([1, 2, 3]);
    const input = kms.commandCalls(SignCommand)[0].args[0].input;
    expect(input).toMatchObject({
      KeyId: 'arn:aws:kms:eu-south-1:123456789012:key/abc',
      MessageType: 'RAW',
      SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
    });
    expect(Buffer.from(input.Message!).toString()).toBe('header.payload');
    kms.restore();
  });
});
