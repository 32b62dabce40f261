import { readFileSync } from 'node:fs';
import { INPS_BENEFIT_CODE } from '../domain/inps.ts';
import { makeInpsIsee } from './inps-isee.ts';
import { makePacer, type Pacer } from './pacer.ts';
import type { InpsIsee } from './ports.ts';
import { makePdndClient, type PdndClient } from './pdnd.ts';
import { kmsSigner, localKeySigner } from './pdnd-signers.ts';

/**
 * The deployment settings of PDND and of INPS's ISEE e-services (README "Deploying": CDK context; locally
 * lib/local/runtime.ts points them at the simulators). Different in collaudo and production:
 *
 * | variable | meaning |
 * |---|---|
 * | PDND_TOKEN_URL | the token endpoint (…/token.oauth2) |
 * | PDND_CLIENT_ID, PDND_KID | the e-service client and the id PDND gave its public key |
 * | PDND_AUDIENCE | the client assertion's aud (auth.uat.interop.pagopa.it/client-assertion, …) |
 * | PDND_KMS_KEY_ID | cloud: the KMS key that signs (the private key never leaves KMS) |
 * | PDND_PRIVATE_KEY_FILE | locally: the PEM in <DATA_DIR>/pdnd |
 * | INPS_ENDPOINT, INPS_AUDIENCE | the e-service's SOAP endpoint and its voucher audience |
 * | INPS_PURPOSE_ATTESTAZIONE, INPS_PURPOSE_INDICATORE | the purposes (finalità) of the two e-services |
 * | INPS_USER_ID, INPS_CODICE_UFFICIO | the Identity header: the council's fiscal code and office code |
 * | INPS_BENEFIT_CODE | PrestazioneDaErogare sent with every query (default A2.07, home care: uncertain, INPS's sheet decides) |
 * | INPS_AUDIT_REST_02 | 'true' when the e-service asks for the audit information |
 * | INPS_RATE_PER_SECOND | queries a second the refresh jobs send at most (default 10; slower while INPS answers 429) |
 */
export interface InpsRuntime {
  inps: InpsIsee;
  pdnd: PdndClient;
  benefitCode: string;
  purposes: { attestazione: string; indicatore: string };
  /** The refresh jobs' turn for each query: INPS_RATE_PER_SECOND at most, slower while INPS answers 429. */
  pace: Pacer['pace'];
}

const need = (env: NodeJS.ProcessEnv, name: string) => {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};

export function inpsRuntimeFromEnv(env: NodeJS.ProcessEnv = process.env): InpsRuntime {
  const keyId = env.PDND_KMS_KEY_ID?.trim();
  const signer = keyId ? kmsSigner(keyId) : localKeySigner(readFileSync(need(env, 'PDND_PRIVATE_KEY_FILE'), 'utf8'));
  const pdnd = makePdndClient({
    tokenUrl: need(env, 'PDND_TOKEN_URL'),
    clientId: need(env, 'PDND_CLIENT_ID'),
    kid: need(env, 'PDND_KID'),
    assertionAudience: need(env, 'PDND_AUDIENCE'),
    signer,
  });
  const purposes = { attestazione: need(env, 'INPS_PURPOSE_ATTESTAZIONE'), indicatore: need(env, 'INPS_PURPOSE_INDICATORE') };
  const benefitCode = env.INPS_BENEFIT_CODE?.trim() || 'A2.07';
  if (!INPS_BENEFIT_CODE.test(benefitCode)) throw new Error(`INPS_BENEFIT_CODE ${benefitCode} is not one of the XSD's PrestazioneDaErogare codes`);
  const pacer = makePacer(Number(env.INPS_RATE_PER_SECOND) || 10);
  const inps = makeInpsIsee({
    settings: {
      endpoint: need(env, 'INPS_ENDPOINT'),
      userId: need(env, 'INPS_USER_ID'),
      codiceUfficio: need(env, 'INPS_CODICE_UFFICIO'),
      purposes,
      audience: need(env, 'INPS_AUDIENCE'),
      auditRest02: env.INPS_AUDIT_REST_02 === 'true',
    },
    pdnd,
    timeoutMs: Number(env.INPS_TIMEOUT_MS) || undefined,
    waitAfterRateLimit: pacer.rateLimited,
  });
  return { inps, pdnd, benefitCode, purposes, pace: pacer.pace };
}

let runtime: InpsRuntime | null = null;
/** One client per process: the voucher is reused across requests (and a Lambda's warm invocations). */
export const inpsRuntime = (): InpsRuntime => (runtime ??= inpsRuntimeFromEnv());
