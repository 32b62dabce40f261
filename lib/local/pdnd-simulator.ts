import { createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import * as jose from 'jose';
import type { Closable } from './stores.ts';

/**
 * PDND Interoperabilità's authorization server on this machine (`npm start` and the tests). It follows
 * pagopa/interop-be-monorepo, not our notes:
 *
 * - `POST /token.oauth2` (form-encoded): the request parameters (grant_type client_credentials,
 *   client_assertion_type jwt-bearer), then the client assertion as packages/client-assertion-validation
 *   checks it (validation.ts verifyClientAssertion + utils.ts): jti, iat, exp, iss present; sub a UUID equal to
 *   client_id; purposeId a UUID; kid a JWK thumbprint (43 characters of base64url); aud one of the expected
 *   audiences; alg RS256; digest { alg: SHA256, value: 64 characters }; and, as with the strict-claims flag
 *   on, no other header or payload field. Then the key registered for (client, kid, purpose), the signature
 *   and expiry (jose.jwtVerify), the purpose (a consumer client must name one), the rate limit per
 *   organization. Every 400 is the one masked body of routerUtils.ts (015-0008, with a correlationId); 429
 *   has the problem 015-10004 and X-Rate-Limit-Limit/-Interval (ms)/-Remaining, as every answer does.
 * - The voucher: RS256, `typ: at+jwt`, `use: sig`, claims jti, iss, aud (the e-service's), client_id, sub,
 *   iat, nbf, exp, purposeId and the digest if sent (commons interopTokenService.generateInteropConsumerToken);
 *   answer { access_token, token_type: 'Bearer', expires_in }.
 * - `GET /.well-known/jwks.json`: the key that signs vouchers (the e-services check them with it).
 * - Admin (JSON): `POST /admin/faults` { kind: 'refuse' | '500' | '429', times: n | 'always' },
 *   `POST /admin/rate-limit` { maxRequests, intervalMs }, `POST /admin/voucher-lifespan` { seconds },
 *   `POST /admin/reset` {}, `GET /admin/state` (token requests, vouchers issued, 400s, 429s).
 */

export const LOCAL_PDND = {
  /** The issuer PDND's collaudo puts in vouchers; locally the simulator's own. */
  assertionAudience: 'auth.local.interop.pagopa.it/client-assertion',
  /** The e-services' audience (the INPS simulator's). */
  inpsAudience: 'https://api.inps.local/pdnd/soap/ConsultazioneISEE/v1',
  purposes: {
    attestazione: '6f1d2c3b-4a59-4b7e-8c1d-2e3f4a5b6c7d',
    indicatore: '0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d',
  },
  /** "Consultazione Attestazione Residenti ISEE": its own audience and purpose. */
  residenti: {
    audience: 'https://api.inps.local/pdnd/soap/ConsultazioneISEE/v2/ConsultazioneAttestazioneResidenti',
    purpose: '3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4',
  },
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KID = /^[a-zA-Z0-9_-]{43}$/;
const HEADER_FIELDS = new Set(['kid', 'alg', 'typ']);
const PAYLOAD_FIELDS = new Set(['sub', 'jti', 'iat', 'iss', 'aud', 'exp', 'digest', 'purposeId']);

export interface RegisteredClient {
  clientId: string;
  /** The consumer organization: the rate limit counts per organization. */
  consumerId: string;
  kid: string;
  publicKeyPem: string;
  /** The purposes linked to the client, each with its e-service's audience. */
  purposes: Record<string, { audience: string }>;
}

export interface PdndSimulatorOptions {
  port: number;
  host?: string;
  /** Voucher lifetime (the e-service's voucherLifespan; default 600 s). */
  voucherLifespanSeconds?: number;
  /** Token requests per organization and window (default 120 per 60 s). */
  rateLimit?: { maxRequests: number; intervalMs: number };
}

export interface PdndSimulator extends Closable {
  url: string;
  tokenUrl: string;
  jwksUrl: string;
  issuer: string;
  assertionAudience: string;
  register(client: RegisteredClient): void;
  stats(): { tokenRequests: number; issued: number; refused: number; rateLimited: number };
}

type Fault = { kind: 'refuse' | '500' | '429'; remaining: number | null };

export async function startPdndSimulator(options: PdndSimulatorOptions): Promise<PdndSimulator> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;
  const issuer = new URL(url).host;
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const serverJwk = { ...(await jose.exportJWK(publicKey)), alg: 'RS256', use: 'sig' };
  const serverKid = await jose.calculateJwkThumbprint(serverJwk);
  const clients = new Map<string, RegisteredClient>();
  let lifespan = options.voucherLifespanSeconds ?? 600;
  let rateLimit = options.rateLimit ?? { maxRequests: 120, intervalMs: 60_000 };
  const windows = new Map<string, { start: number; count: number }>();
  let faults: Fault[] = [];
  const counts = { tokenRequests: 0, issued: 0, refused: 0, rateLimited: 0 };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}) => {
    res.writeHead(status, {
      'content-type': status === 200 ? 'application/json' : 'application/problem+json',
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const correlationId = () => randomUUID();
  /** routerUtils.ts: every 400 of the token endpoint is this one body. */
  const badRequest = (res: ServerResponse, reason: string, headers: Record<string, string | number> = {}) => {
    counts.refused += 1;
    const id = correlationId();
    // The reason stays in the simulator's log, as it stays in PDND's: the client sees the masked body only.
    if (process.env.PDND_SIMULATOR_LOG) console.warn(`[pdnd-simulator] 400 ${id}: ${reason}`);
    send(
      res,
      400,
      {
        title: 'The request contains bad syntax or cannot be fulfilled.',
        type: 'about:blank',
        status: 400,
        detail: 'Bad request',
        errors: [{ code: '015-0008', detail: 'Unable to generate a token for the given request' }],
        correlationId: id,
      },
      headers,
    );
  };
  const internalError = (res: ServerResponse) =>
    send(res, 500, {
      title: 'The request couldn\u2019t be fulfilled due to an internal error',
      type: 'internalServerError',
      status: 500,
      detail: 'Internal server error',
      errors: [
        { code: '015-0000', detail: 'Unable to generate a token for the given request due to an internal error' },
      ],
      correlationId: correlationId(),
    });

  const takeFault = () => {
    const rule = faults[0];
    if (!rule) return null;
    if (rule.remaining !== null) rule.remaining -= 1;
    faults = faults.filter((f) => f.remaining === null || f.remaining > 0);
    return rule.kind;
  };

  /** The organization's window: { limitReached, remaining } (rate-limiter-flexible's fixed window). */
  function rateLimitOf(organization: string) {
    const now = Date.now();
    const window = windows.get(organization);
    const current = window && now - window.start < rateLimit.intervalMs ? window : { start: now, count: 0 };
    current.count += 1;
    windows.set(organization, current);
    return {
      limitReached: current.count > rateLimit.maxRequests,
      remaining: Math.max(0, rateLimit.maxRequests - current.count),
    };
  }
  const rateHeaders = (remaining: number) => ({
    'X-Rate-Limit-Limit': rateLimit.maxRequests,
    'X-Rate-Limit-Interval': rateLimit.intervalMs,
    'X-Rate-Limit-Remaining': remaining,
  });

  /** The claims checks of client-assertion-validation's verifyClientAssertion; a reason, or null when valid. */
  function assertionProblem(
    header: jose.ProtectedHeaderParameters,
    payload: jose.JWTPayload,
    clientId: string | undefined,
    expectedAudience: string,
  ): string | null {
    if (!payload.jti) return 'jtiNotFound';
    if (!payload.iat) return 'issuedAtNotFound';
    if (!payload.exp) return 'expNotFound';
    if (!payload.iss) return 'issuerNotFound';
    if (!payload.sub) return 'subjectNotFound';
    if (!UUID.test(payload.sub)) return 'invalidSubjectFormat';
    if (clientId !== undefined && (!UUID.test(clientId) || payload.sub !== clientId)) return 'invalidSubject';
    const purposeId = (payload as Record<string, unknown>).purposeId;
    if (purposeId && (typeof purposeId !== 'string' || !UUID.test(purposeId))) return 'invalidPurposeIdClaimFormat';
    if (!header.kid) return 'kidNotFound';
    if (!KID.test(header.kid)) return 'invalidKidFormat';
    const aud = payload.aud;
    if (!aud) return 'audienceNotFound';
    if (Array.isArray(aud) ? !aud.includes(expectedAudience) : aud !== expectedAudience) return 'invalidAudience';
    if (!header.alg) return 'algorithmNotFound';
    if (header.alg !== 'RS256') return 'algorithmNotAllowed';
    const digest = (payload as Record<string, unknown>).digest as Record<string, unknown> | undefined;
    if (digest) {
      if (
        typeof digest !== 'object' ||
        Object.keys(digest).some((k) => k !== 'alg' && k !== 'value') ||
        typeof digest.alg !== 'string' ||
        typeof digest.value !== 'string'
      )
        return 'invalidDigestClaim';
      if (digest.value.length !== 64) return 'invalidHashLength';
      if (digest.alg !== 'SHA256') return 'invalidHashAlgorithm';
    }
    // ClientAssertionHeaderStrict / ClientAssertionPayloadStrict: nothing but these fields.
    const extraHeader = Object.keys(header).find((k) => !HEADER_FIELDS.has(k));
    if (extraHeader) return `clientAssertionInvalidClaims header ${extraHeader}`;
    const extraPayload = Object.keys(payload).find((k) => !PAYLOAD_FIELDS.has(k));
    if (extraPayload) return `clientAssertionInvalidClaims payload ${extraPayload}`;
    return null;
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    counts.tokenRequests += 1;
    const fault = takeFault();
    if (fault === '500') return internalError(res);
    if (fault === 'refuse') return badRequest(res, 'switched: refuse');
    const raw = await readBody(req);
    const body = new URLSearchParams(raw);
    const assertion = body.get('client_assertion') ?? '';
    const clientId = body.get('client_id') ?? undefined;
    if (body.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return badRequest(res, 'invalidAssertionType');
    if (body.get('grant_type') !== 'client_credentials') return badRequest(res, 'invalidGrantType');
    let header: jose.ProtectedHeaderParameters;
    let payload: jose.JWTPayload;
    try {
      header = jose.decodeProtectedHeader(assertion);
      payload = jose.decodeJwt(assertion);
    } catch (error) {
      return badRequest(res, `invalidClientAssertionFormat: ${(error as Error).message}`);
    }
    const problem = assertionProblem(header, payload, clientId, LOCAL_PDND.assertionAudience);
    if (problem) return badRequest(res, problem);
    const client = clients.get(payload.sub!);
    const purposeId = (payload as Record<string, unknown>).purposeId as string | undefined;
    if (!client || client.kid !== header.kid) return badRequest(res, 'tokenGenerationStatesEntryNotFound');
    try {
      await jose.jwtVerify(assertion, createPublicKey(client.publicKeyPem), { algorithms: ['RS256'] });
    } catch (error) {
      return badRequest(res, `clientAssertionSignatureValidationFailed: ${(error as Error).message}`);
    }
    if (!purposeId) return badRequest(res, 'purposeIdNotProvided');
    const purpose = client.purposes[purposeId];
    if (!purpose) return badRequest(res, 'tokenGenerationStatesEntryNotFound (purpose)');
    const limit = rateLimitOf(client.consumerId);
    if (fault === '429' || limit.limitReached) {
      counts.rateLimited += 1;
      return send(
        res,
        429,
        {
          type: 'about:blank',
          title: 'Too Many Requests',
          status: 429,
          detail: `Requests limit exceeded for organization ${client.consumerId}`,
          correlationId: correlationId(),
          errors: [{ code: '015-10004', detail: `Requests limit exceeded for organization ${client.consumerId}` }],
        },
        rateHeaders(0),
      );
    }
    const iat = Math.floor(Date.now() / 1000);
    const digest = (payload as Record<string, unknown>).digest;
    const voucher = await new jose.SignJWT({ client_id: client.clientId, purposeId, ...(digest ? { digest } : {}) })
      .setProtectedHeader({ alg: 'RS256', use: 'sig', typ: 'at+jwt', kid: serverKid })
      .setJti(randomUUID())
      .setIssuer(issuer)
      .setAudience([purpose.audience])
      .setSubject(client.clientId)
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(iat + lifespan)
      .sign(privateKey);
    counts.issued += 1;
    return send(
      res,
      200,
      { access_token: voucher, token_type: 'Bearer', expires_in: lifespan },
      rateHeaders(limit.remaining),
    );
  }

  async function admin(pathname: string, req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && pathname === '/admin/state')
      return send(res, 200, {
        ...counts,
        faults,
        rateLimit,
        voucherLifespanSeconds: lifespan,
        clients: [...clients.keys()],
      });
    const body = parseJson(await readBody(req));
    if (!body) return send(res, 400, { detail: 'JSON non valido' });
    if (pathname === '/admin/faults') {
      const times = body.times ?? 1;
      if (
        !['refuse', '500', '429'].includes(body.kind) ||
        !(times === 'always' || (Number.isInteger(times) && times > 0))
      )
        return send(res, 400, { detail: '{ kind: refuse | 500 | 429, times: n | always }' });
      faults.push({ kind: body.kind, remaining: times === 'always' ? null : times });
      return send(res, 200, { ok: true });
    }
    if (pathname === '/admin/rate-limit') {
      if (!(
        Number.isInteger(body.maxRequests) &&
        body.maxRequests > 0 &&
        Number.isInteger(body.intervalMs) &&
        body.intervalMs > 0
      ))
        return send(res, 400, { detail: '{ maxRequests, intervalMs }' });
      rateLimit = { maxRequests: body.maxRequests, intervalMs: body.intervalMs };
      windows.clear();
      return send(res, 200, { ok: true });
    }
    if (pathname === '/admin/voucher-lifespan') {
      if (!(Number.isInteger(body.seconds) && body.seconds > 0)) return send(res, 400, { detail: '{ seconds }' });
      lifespan = body.seconds;
      return send(res, 200, { ok: true });
    }
    if (pathname === '/admin/reset') {
      faults = [];
      windows.clear();
      lifespan = options.voucherLifespanSeconds ?? 600;
      rateLimit = options.rateLimit ?? { maxRequests: 120, intervalMs: 60_000 };
      if (body.counts === true) Object.assign(counts, { tokenRequests: 0, issued: 0, refused: 0, rateLimited: 0 });
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { detail: pathname });
  }

  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', url).pathname;
    const handle = async () => {
      if (req.method === 'POST' && pathname === '/token.oauth2') return token(req, res);
      if (req.method === 'GET' && pathname === '/.well-known/jwks.json')
        return send(res, 200, { keys: [{ ...serverJwk, kid: serverKid }] });
      if (pathname.startsWith('/admin/')) return admin(pathname, req, res);
      return send(res, 404, { detail: pathname });
    };
    handle().catch(() => {
      if (!res.headersSent) internalError(res);
      else res.end();
    });
  });
  await listen(server, options.port, host);
  return {
    url,
    tokenUrl: `${url}/token.oauth2`,
    jwksUrl: `${url}/.well-known/jwks.json`,
    issuer,
    assertionAudience: LOCAL_PDND.assertionAudience,
    register: (client) => clients.set(client.clientId, client),
    stats: () => ({ ...counts }),
    close: () => closeServer(server),
  };
}

/** The portal's PDND client on this machine: its key pair (the private key in <dataDir>/pdnd), id and kid. */
export interface LocalPdndClient {
  clientId: string;
  kid: string;
  privateKeyFile: string;
  publicKeyPem: string;
}

/** Makes the client's RSA 2048 key on first start and keeps it; the kid is its JWK thumbprint, as PDND computes it. */
export async function localPdndClient(dataDir: string): Promise<LocalPdndClient> {
  const directory = path.join(dataDir, 'pdnd');
  const privateKeyFile = path.join(directory, 'client-key.pem');
  const idFile = path.join(directory, 'client-id');
  if (!fs.existsSync(privateKeyFile)) {
    fs.mkdirSync(directory, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    fs.writeFileSync(idFile, randomUUID());
  }
  const publicKey = createPublicKey(fs.readFileSync(privateKeyFile, 'utf8'));
  const kid = await jose.calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as jose.JWK);
  return {
    clientId: fs.readFileSync(idFile, 'utf8').trim(),
    kid,
    privateKeyFile,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

export function parseJson(text: string): Record<string, any> | null {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export const listen = (server: http.Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });

export const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
