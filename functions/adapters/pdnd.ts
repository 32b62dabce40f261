import { createHash, randomUUID } from 'node:crypto';

/**
 * The PDND Interoperabilità client (reference.md "Voucher"; the validation it must pass is
 * pagopa/interop-be-monorepo packages/client-assertion-validation/src/{validation,utils}.ts and the
 * authorization server's routers/AuthorizationServerRouter.ts, utilities/routerUtils.ts):
 *
 * - the client assertion: header { alg: RS256, kid, typ: JWT } and exactly the claims iss = sub = clientId,
 *   aud, purposeId, jti, iat, exp, and digest when an audit token goes with it (strict: nothing else);
 * - POST tokenUrl, form-encoded: client_id, client_assertion, client_assertion_type (jwt-bearer),
 *   grant_type=client_credentials → { access_token, token_type, expires_in };
 * - the voucher is reused until shortly before it expires: one token request per voucher lifetime (and
 *   concurrent callers share the request in flight);
 * - 400 (one masked body, code 015-0008, with a correlationId): PdndRefused; 429: wait as
 *   X-Rate-Limit-Interval says (milliseconds), then again; 500 (015-0000), timeouts: retried, then
 *   PdndUnavailable.
 *
 * The signature is the signer's: AWS KMS in the cloud (the private key never leaves it), a PEM kept in
 * .data locally (functions/adapters/pdnd-signers.ts).
 */

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Signs a JWS signing input (RS256: RSASSA-PKCS1-v1_5 with SHA-256) and returns the raw signature. */
export interface JwsSigner {
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
}

export interface PdndSettings {
  /** https://auth.uat.interop.pagopa.it/token.oauth2 (collaudo) or https://auth.interop.pagopa.it/token.oauth2. */
  tokenUrl: string;
  /** The e-service client's id (UUID): iss, sub and client_id. */
  clientId: string;
  /** The id PDND gave the uploaded public key. */
  kid: string;
  /** The client assertion's aud: auth.uat.interop.pagopa.it/client-assertion or auth.interop.pagopa.it/client-assertion. */
  assertionAudience: string;
}

export interface PdndClientOptions extends PdndSettings {
  signer: JwsSigner;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds (tests move it). */
  now?: () => number;
  /** The client assertion's lifetime (default 5 minutes: PDND wants "a few minutes"). */
  assertionTtlSeconds?: number;
  /** A voucher is renewed this long before its exp (default 60 s). */
  renewBeforeSeconds?: number;
  /** 429s waited out before giving up (default 5); 500s and timeouts retried (default 2). */
  maxRateLimitWaits?: number;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface Voucher {
  token: string;
  /** The voucher's own jti (recorded with every query made with it). */
  jti: string;
  purposeId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** The audit information of pattern AUDIT_REST_02: the JWS sent as AgID-JWT-TrackingEvidence and its digest. */
export interface TrackingEvidence {
  jws: string;
  /** SHA-256 of the exact compact JWS, hex: the client assertion's digest.value. */
  digest: string;
}

/** PDND refused the request (400, masked: the reason is only in PDND's logs, under the correlationId). */
export class PdndRefused extends Error {
  override name = 'PdndRefused';
  constructor(
    readonly status: number,
    readonly correlationId: string | null,
    readonly code: string | null,
  ) {
    super(
      `PDND refused the token request: HTTP ${status}${code ? ` ${code}` : ''}${correlationId ? ` (correlationId ${correlationId})` : ''}`,
    );
  }
}

/** PDND did not give a voucher (500, timeout, refused connection, rate limit not over in time): retry later. */
export class PdndUnavailable extends Error {
  override name = 'PdndUnavailable';
}

export const base64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A compact RS256 JWS of header and payload, signed by `signer`. */
export async function signJws(
  signer: JwsSigner,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
): Promise<string> {
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = await signer.sign(Buffer.from(signingInput, 'ascii'));
  return `${signingInput}.${base64url(signature)}`;
}

/** The payload of a compact JWS, without checking it (the voucher is PDND's, checked by the e-service). */
export function jwtPayload(token: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

export function makePdndClient(options: PdndClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const assertionTtl = options.assertionTtlSeconds ?? 300;
  const renewBefore = options.renewBeforeSeconds ?? 60;
  const maxRateLimitWaits = options.maxRateLimitWaits ?? 5;
  const maxRetries = options.maxRetries ?? 2;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const header = { alg: 'RS256', kid: options.kid, typ: 'JWT' };
  const cached = new Map<string, Voucher>();
  const inFlight = new Map<string, Promise<Voucher>>();
  const stats = { tokenRequests: 0, rateLimited: 0, refused: 0 };

  /** The client assertion: exactly the claims PDND validates (strict), and the digest of an audit token. */
  async function clientAssertion(purposeId: string, digest?: string): Promise<string> {
    const iat = seconds(now());
    return signJws(options.signer, header, {
      iss: options.clientId,
      sub: options.clientId,
      aud: options.assertionAudience,
      purposeId,
      jti: randomUUID(),
      iat,
      exp: iat + assertionTtl,
      ...(digest ? { digest: { alg: 'SHA256', value: digest } } : {}),
    });
  }

  async function requestVoucher(purposeId: string, evidence?: TrackingEvidence, deadline?: number): Promise<Voucher> {
    let rateLimitWaits = 0;
    let failures = 0;
    /** Time left before the caller's deadline (keeping a second for INPS to be asked at all). */
    const left = () => (deadline === undefined ? Infinity : deadline - now() - 1000);
    const waitOrGiveUp = async (ms: number) => {
      if (left() < ms + 500) throw new PdndUnavailable('PDND: tempo esaurito prima del voucher');
      await sleep(ms);
    };
    for (;;) {
      if (left() < 500) throw new PdndUnavailable('PDND: tempo esaurito prima del voucher');
      const body = new URLSearchParams({
        client_id: options.clientId,
        client_assertion: await clientAssertion(purposeId, evidence?.digest),
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        grant_type: 'client_credentials',
      });
      let response: Response;
      stats.tokenRequests += 1;
      try {
        response = await doFetch(options.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          signal: AbortSignal.timeout(Math.min(timeoutMs, left())),
        });
      } catch (error) {
        if (++failures > maxRetries)
          throw new PdndUnavailable(`PDND token endpoint unreachable: ${(error as Error).message}`);
        await waitOrGiveUp(500 * 2 ** (failures - 1));
        continue;
      }
      if (response.status === 200) {
        const answer = (await response.json().catch(() => null)) as {
          access_token?: unknown;
          expires_in?: unknown;
        } | null;
        const token = typeof answer?.access_token === 'string' ? answer.access_token : null;
        if (!token) throw new PdndUnavailable('PDND answered 200 without an access_token');
        const claims = jwtPayload(token);
        const expiresAt =
          typeof claims?.exp === 'number' ? claims.exp : seconds(now()) + Number(answer?.expires_in ?? 0);
        return { token, jti: typeof claims?.jti === 'string' ? claims.jti : '', purposeId, expiresAt };
      }
      if (response.status === 429) {
        stats.rateLimited += 1;
        await response.body?.cancel().catch(() => undefined);
        if (++rateLimitWaits > maxRateLimitWaits)
          throw new PdndUnavailable('PDND rate limit: still refused after waiting');
        // X-Rate-Limit-Interval is the limiter's window in milliseconds (commons/rate-limiter): wait one window.
        const interval = Number(response.headers.get('x-rate-limit-interval'));
        await waitOrGiveUp(Number.isFinite(interval) && interval > 0 ? Math.min(interval, 60_000) : 1000);
        continue;
      }
      const problem = (await response.json().catch(() => null)) as {
        correlationId?: string;
        errors?: { code?: string }[];
      } | null;
      if (response.status >= 400 && response.status < 500) {
        stats.refused += 1;
        throw new PdndRefused(response.status, problem?.correlationId ?? null, problem?.errors?.[0]?.code ?? null);
      }
      if (++failures > maxRetries)
        throw new PdndUnavailable(
          `PDND token endpoint: HTTP ${response.status}${problem?.correlationId ? ` (correlationId ${problem.correlationId})` : ''}`,
        );
      await waitOrGiveUp(500 * 2 ** (failures - 1));
    }
  }

  return {
    settings: {
      tokenUrl: options.tokenUrl,
      clientId: options.clientId,
      kid: options.kid,
      assertionAudience: options.assertionAudience,
    },
    stats,

    /**
     * A voucher for the purpose: the cached one while it has more than `renewBeforeSeconds` left, else a new
     * one (one request for all the callers waiting). A voucher bound to an audit token is never shared.
     */
    async voucher(
      purposeId: string,
      evidence?: TrackingEvidence,
      options: { deadline?: number } = {},
    ): Promise<Voucher> {
      if (evidence) return requestVoucher(purposeId, evidence, options.deadline);
      const current = cached.get(purposeId);
      if (current && current.expiresAt - renewBefore > seconds(now())) return current;
      const pending = inFlight.get(purposeId);
      if (pending) return pending;
      const request = requestVoucher(purposeId, undefined, options.deadline)
        .then((voucher) => {
          cached.set(purposeId, voucher);
          return voucher;
        })
        .finally(() => inFlight.delete(purposeId));
      inFlight.set(purposeId, request);
      return request;
    },

    /** The e-service refused this voucher (expired or revoked early): the next call asks for a new one. */
    forget(voucher: Voucher): void {
      if (cached.get(voucher.purposeId)?.token === voucher.token) cached.delete(voucher.purposeId);
    },

    /**
     * The audit token of pattern AUDIT_REST_02 for one request (userID: who asked, userLocation: where
     * from, LoA: the level of assurance of their sign-in), signed with the client's key.
     */
    async trackingEvidence(claims: {
      aud: string;
      purposeId: string;
      userID: string;
      userLocation: string;
      LoA: string;
    }): Promise<TrackingEvidence> {
      const iat = seconds(now());
      const jws = await signJws(options.signer, header, {
        iss: options.clientId,
        aud: claims.aud,
        purposeId: claims.purposeId,
        jti: randomUUID(),
        iat,
        exp: iat + assertionTtl,
        userID: claims.userID,
        userLocation: claims.userLocation,
        LoA: claims.LoA,
      });
      return { jws, digest: createHash('sha256').update(jws, 'ascii').digest('hex') };
    },
  };
}

export type PdndClient = ReturnType<typeof makePdndClient>;
