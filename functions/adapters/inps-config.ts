import { readFileSync } from 'node:fs';
import { INPS_BENEFIT_CODE, inpsAttestationOperations, type InpsAttestationOperation } from '../domain/inps.ts';
import { lazyClientCertificateFetch } from './client-certificate-fetch.ts';
import { makeInpsIsee, type InpsSettings } from './inps-isee.ts';
import { makePacer, type Pacer } from './pacer.ts';
import type { InpsIsee } from './ports/inps.ts';
import { makePdndClient, type PdndClient } from './pdnd.ts';
import { kmsSigner, localKeySigner } from './pdnd-signers.ts';
import { certificateFromSecret } from './secret-certificate.ts';

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
 * | INPS_ATTESTAZIONE_OPERATION | the attestation e-service the council subscribed to: ConsultazioneAttestazioneResidenti (default) or ConsultazioneAttestazione |
 * | INPS_ATTESTAZIONE_ENDPOINT, INPS_ATTESTAZIONE_AUDIENCE | its SOAP endpoint and voucher audience (default INPS_ENDPOINT, INPS_AUDIENCE) |
 * | INPS_INDICATORE_ENDPOINT, INPS_INDICATORE_AUDIENCE | the same for ConsultazioneIndicatore |
 * | INPS_ENDPOINT, INPS_AUDIENCE | the defaults of the two above (the audience defaults to the endpoint) |
 * | INPS_PURPOSE_ATTESTAZIONE, INPS_PURPOSE_INDICATORE | the purposes (finalità); no indicator purpose: 'Verifica con INPS' reads the attestation |
 * | INPS_USER_ID, INPS_CODICE_UFFICIO | the Identity header (and HTTP headers): the council's fiscal code and office code |
 * | INPS_BENEFIT_CODE | PrestazioneDaErogare sent by default (A2.07, home care: uncertain, INPS's sheet decides); a service's own code wins |
 * | INPS_AUDIT_REST_02 | 'true' when the e-service asks for the audit information |
 * | INPS_KEEP_FULL_HOUSEHOLD | 'true': an ISEE from INPS keeps every household member's names and fiscal code (default: relations only) |
 * | INPS_RATE_PER_SECOND | queries a second the refresh jobs send at most (default 10; slower while INPS answers 429) |
 * | INPS_DAILY_ESTIMATE | the daily calls declared in the PDND purpose: the January job asks at most this many a day |
 * | INPS_CLIENT_CERT_SECRET | cloud: mutual TLS, when the agreement requires it: the Secrets Manager secret with the certificate (read at the first query, again each hour) |
 * | INPS_CLIENT_CERT_FILE, INPS_CLIENT_KEY_FILE, INPS_CLIENT_CA_FILE | locally: the same as PEM files |
 */
export interface InpsRuntime {
  inps: InpsIsee;
  pdnd: PdndClient;
  benefitCode: string;
  purposes: { attestazione: string; indicatore: string | null };
  /** INPS_KEEP_FULL_HOUSEHOLD: keep every member's names and fiscal code (the council's data-protection choice). */
  keepFullHousehold: boolean;
  /** The daily calls declared in the PDND purpose (null: not declared). */
  dailyEstimate: number | null;
  /** The refresh jobs' turn for each query: INPS_RATE_PER_SECOND at most, slower while INPS answers 429. */
  pace: Pacer['pace'];
}

const need = (env: NodeJS.ProcessEnv, name: string) => {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};
const optional = (env: NodeJS.ProcessEnv, name: string) => env[name]?.trim() || undefined;

/** The e-services' settings from the environment (the e-service a council subscribes to is its PDND purpose's). */
export function inpsSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): InpsSettings {
  const operation = (optional(env, 'INPS_ATTESTAZIONE_OPERATION') ??
    'ConsultazioneAttestazioneResidenti') as InpsAttestationOperation;
  if (!inpsAttestationOperations.includes(operation))
    throw new Error(`INPS_ATTESTAZIONE_OPERATION must be one of ${inpsAttestationOperations.join(', ')}`);
  const attestazioneEndpoint = optional(env, 'INPS_ATTESTAZIONE_ENDPOINT') ?? need(env, 'INPS_ENDPOINT');
  const indicatorePurpose = optional(env, 'INPS_PURPOSE_INDICATORE');
  const indicatoreEndpoint = optional(env, 'INPS_INDICATORE_ENDPOINT') ?? optional(env, 'INPS_ENDPOINT');
  return {
    attestazione: {
      operation,
      endpoint: attestazioneEndpoint,
      audience: optional(env, 'INPS_ATTESTAZIONE_AUDIENCE') ?? optional(env, 'INPS_AUDIENCE') ?? attestazioneEndpoint,
      purposeId: need(env, 'INPS_PURPOSE_ATTESTAZIONE'),
    },
    indicatore:
      indicatorePurpose && indicatoreEndpoint
        ? {
            operation: 'ConsultazioneIndicatore',
            endpoint: indicatoreEndpoint,
            audience: optional(env, 'INPS_INDICATORE_AUDIENCE') ?? optional(env, 'INPS_AUDIENCE') ?? indicatoreEndpoint,
            purposeId: indicatorePurpose,
          }
        : null,
    userId: need(env, 'INPS_USER_ID'),
    codiceUfficio: need(env, 'INPS_CODICE_UFFICIO'),
    auditRest02: env.INPS_AUDIT_REST_02 === 'true',
    clientCertificate: !!(optional(env, 'INPS_CLIENT_CERT_SECRET') ?? optional(env, 'INPS_CLIENT_CERT_FILE')),
  };
}

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
  const settings = inpsSettingsFromEnv(env);
  const benefitCode = env.INPS_BENEFIT_CODE?.trim() || 'A2.07';
  if (!INPS_BENEFIT_CODE.test(benefitCode))
    throw new Error(`INPS_BENEFIT_CODE ${benefitCode} is not one of the XSD's PrestazioneDaErogare codes`);
  const dailyEstimate = Number(env.INPS_DAILY_ESTIMATE) > 0 ? Math.floor(Number(env.INPS_DAILY_ESTIMATE)) : null;
  const pacer = makePacer(Number(env.INPS_RATE_PER_SECOND) || 10);
  // Mutual TLS: the certificate from its secret (cloud) or from PEM files (locally), read at the first query.
  const certSecret = optional(env, 'INPS_CLIENT_CERT_SECRET');
  const certFile = optional(env, 'INPS_CLIENT_CERT_FILE');
  const caFile = optional(env, 'INPS_CLIENT_CA_FILE');
  const certificate = certSecret
    ? () => certificateFromSecret(certSecret)
    : certFile &&
      (async () => ({
        cert: readFileSync(certFile, 'utf8'),
        key: readFileSync(need(env, 'INPS_CLIENT_KEY_FILE'), 'utf8'),
        ca: caFile && readFileSync(caFile, 'utf8'),
      }));
  const inps = makeInpsIsee({
    settings,
    pdnd,
    fetch: certificate ? lazyClientCertificateFetch(certificate) : undefined,
    timeoutMs: Number(env.INPS_TIMEOUT_MS) || undefined,
    waitAfterRateLimit: pacer.rateLimited,
  });
  return {
    inps,
    pdnd,
    benefitCode,
    keepFullHousehold: env.INPS_KEEP_FULL_HOUSEHOLD === 'true',
    purposes: { attestazione: settings.attestazione.purposeId, indicatore: settings.indicatore?.purposeId ?? null },
    dailyEstimate,
    pace: pacer.pace,
  };
}

let runtime: InpsRuntime | null = null;
/** One client per process: the voucher is reused across requests (and a Lambda's warm invocations). */
export const inpsRuntime = (): InpsRuntime => (runtime ??= inpsRuntimeFromEnv());
