import type { PaymentPlatformName } from '../functions/domain/payment-platform.ts';
import {
  INPS_BENEFIT_CODE,
  inpsAttestationOperations,
  inpsOperationPaths,
  type InpsAttestationOperation,
} from '../functions/domain/inps.ts';
import { REMINDER_FROM } from '../functions/domain/isee-refresh.ts';
import type { Node } from 'constructs';
import {
  retentionDefaults,
  retentionEnvName,
  retentionKinds,
  retentionMinimum,
  type RetentionKind,
} from '../functions/domain/retention.ts';
import type { BackupSettings } from './backups.ts';
import { DEFAULT_TEXTRACT_REGION, TEXTRACT_REGIONS } from './textract-regions.ts';

/**
 * Everything a deployment can be told: the settings of a stage's file, config/<stage>.json (lib/stage-config.ts,
 * `cdk synth -c stage=<stage>`), each given to the app as a CDK context value. Every value has a default so
 * that `cdk synth` works with none; the defaults of the outside services are placeholders, which a production
 * stage refuses at synth.
 */
export interface PortalContext {
  /** Region of every stack: Milan unless told otherwise. */
  region: string;
  /**
   * Region of the Textract endpoint that reads photographed attestations (Milan has none): pages are sent
   * to it in the request and nothing is stored there. Must be one of TEXTRACT_REGIONS.
   */
  textractRegion: string;
  /** Prefix of the stack names (a second copy in one account needs another one). */
  stackPrefix: string;
  /** Folder of the built web app, relative to the repository (default web/dist). */
  webAssetPath?: string;
  spidGateway: {
    /**
     * The gateway's identity provider name in the user pool: sent as identity_provider on the authorize
     * request, so citizens go straight to the SPID/CIE gateway instead of Cognito's own page.
     */
    providerName: string;
    /** OIDC issuer of the municipality's SPID/CIE gateway (Cognito reads its discovery document at deploy). */
    issuer: string;
    clientId: string;
    /** Name of the Secrets Manager secret (plain string) holding the gateway client secret. */
    clientSecretName: string;
    /** The gateway's claim that carries the fiscal code ('TINIT-<code>' with SPID). */
    fiscalCodeClaim: string;
    scopes: string[];
  };
  /** Prefix of the Cognito domain `<prefix>.auth.<region>.amazoncognito.com`; unset: derived from the stack id. */
  authDomainPrefix?: string;
  /** Custom domain of the web app (e.g. servizisociali.comune.example.it); unset: CloudFront's own domain. */
  webDomainName?: string;
  /** ACM certificate for webDomainName, in us-east-1 (required by CloudFront). */
  certificateArn?: string;
  /** An existing WAF web ACL (CLOUDFRONT scope, us-east-1) for the distribution. */
  webAclArn?: string;
  /**
   * The API's own custom domain (e.g. api.servizisociali.comune.example.it) and its ACM certificate in the stage's
   * region (a regional endpoint): CloudFront's origin for /api/*, so the API's execute-api address is turned off.
   * Unset (a development copy): CloudFront reaches the API at its execute-api address, which stays on.
   */
  apiDomainName?: string;
  apiCertificateArn?: string;
  /** Name of the Secrets Manager secret (JSON: endpoint, codIpa, password) with the council's MyPay access. */
  mypaySecretName: string;
  /**
   * The platform the council bills through (context paymentPlatform, default 'mypay') and, for pagoPA's GPD, its
   * settings (README "Piattaforma di pagamento"): on 'gpd' the functions that call the platform get GPD's settings
   * and secret instead of MyPay's (lib/gpd-binding.ts); the export, 'Paga' and the reporting are not wired to the
   * port yet (issue 37).
   */
  paymentPlatform: PaymentPlatformName;
  gpd: {
    environment: 'uat' | 'produzione';
    /** The host of GPD, Checkout and the receipts service: gpdBaseUrl, else the environment's. */
    baseUrl: string;
    /** Secrets Manager secret (JSON: apiKey, receiptsKey, checkoutKey?) with the subscription keys of this stage. */
    secretName: string | undefined;
    organizationFiscalCode: string | undefined;
    companyName: string | undefined;
    segregationCode: string | undefined;
    iban: string | undefined;
    taxonomyCode: string | undefined;
    /** The council's CBILL code, printed on its pagoPA notices when it has one (functions/domain/payment-notice.ts). */
    cbillCode: string | undefined;
  };
  /**
   * MyPay's mode (its pa.modelloUnico): true with pagoPA's "modello unico" (the default), false with the older
   * WISP. It decides how the portal reads a payment session's outcome (context mypayModelloUnico).
   */
  mypayModelloUnico: boolean;
  /**
   * The council's MyPay payment type requires a due date (flg_scadenza_obbligatoria): a position past it cannot
   * be paid, and 'Paga' says so (context mypayScadenzaObbligatoria; default false).
   */
  mypayScadenzaObbligatoria: boolean;
  /** The entity's application code on MyPay (context mypayApplicationCode): an IUV MyPay did not generate must start with it. */
  mypayApplicationCode?: string;
  /**
   * How long MyPay may keep an import in LOAD_IMPORT / IMPORT_IN_ELAB before the export stops asking and the
   * flow is suspended (not failed); an entity with GPD enabled holds imports until pagoPA has them. Minutes.
   */
  mypayImportMaxWaitMinutes: number;
  /**
   * The IO app: base URL of its API and the Secrets Manager secret (JSON: apiKey, the service's subscription key
   * Ocp-Apim-Subscription-Key; organizationFiscalCode, the service's organisation, which the preflight compares
   * with MyPay's creditorFiscalCode). No payee: IO makes the service's organisation the payee.
   */
  io: { baseUrl: string; secretName: string };
  /**
   * PDND Interoperabilità (reference.md "Voucher"): the environment picks the token endpoint and the client
   * assertion's audience; the e-service client's id and the kid PDND gave its public key (the private key is
   * the data stack's KMS key) differ between collaudo and production.
   */
  pdnd: {
    environment: 'collaudo' | 'produzione';
    tokenUrl: string;
    assertionAudience: string;
    clientId: string;
    kid: string;
  };
  /** INPS's ConsultazioneISEE e-services (reference.md): endpoint, voucher audience, the two purposes, the Identity header. */
  inps: {
    /** The attestation e-service the council's purpose is for: operation, endpoint and voucher audience. */
    attestazione: { operation: InpsAttestationOperation; endpoint: string; audience: string };
    /** The indicator e-service (ConsultazioneIndicatore). */
    indicatore: { endpoint: string; audience: string };
    endpoint: string;
    audience: string;
    purposeAttestazione: string;
    /** null: the council has no indicator e-service ('Verifica con INPS' reads the attestation). */
    purposeIndicatore: string | null;
    /** The daily calls declared in the PDND purpose: the January job asks at most this many a day. */
    dailyEstimate: number;
    userId: string;
    codiceUfficio: string;
    benefitCode: string;
    /** The Secrets Manager secret with the client certificate (JSON cert, key, ca?) when the agreement asks for mutual TLS; unset: none. */
    clientCertSecretName?: string;
    /** Keep every household member's names and fiscal code with an ISEE from INPS (default false: relations only). */
    keepFullHousehold: boolean;
    auditRest02: boolean;
    ratePerSecond: number;
  };
  /** First day (MM-DD) of the December reminders of expiring ISEE; the schedule runs daily from it. */
  iseeReminderFrom: string;
  mail: {
    /** Sender of every e-mail (a verified SES identity, or an address of a verified domain). */
    from: string;
    /** The council's support office, which receives the support form's messages. */
    supportAddress: string;
    /** The SES identity the functions may send from; unset: the sender's domain in the stack's account and region. */
    identityArn?: string;
    /** Messages a second the portal sends at most; unset: the account's SendQuota.MaxSendRate (GetAccount). */
    sendRate?: number;
  };
  /**
   * Who gets the alarms by e-mail (an SNS subscription to confirm from the first message); unset: nobody yet,
   * which only a stage other than production may be (the synth of a production stage refuses it).
   */
  alarmEmail?: string;
  /**
   * The council's accessibility statement, as AgID's form publishes it (https://form.agid.gov.it/view/<id>):
   * the footer's 'Dichiarazione di accessibilità' (the web app reads it from /config.json).
   */
  accessibilityStatementUrl: string;
  /**
   * Years each kind of personal data is kept (functions/domain/retention.ts; README "Retention"): context
   * retentionIseeDocumentsYears, retentionSupportMessagesYears, retentionPaymentRecordsYears, retentionAuditEntriesYears.
   */
  retention: Record<RetentionKind, number>;
  /** AWS Backup of the table and the documents bucket (lib/backups.ts): retention, and the copy out of the account or region. */
  backup: BackupSettings;
}

/**
 * The CloudWatch namespace of the deployment's metrics (Powertools' POWERTOOLS_METRICS_NAMESPACE): one per
 * copy of the portal, so a staging copy in the same account never feeds production's alarms and dashboard.
 */
export const metricsNamespace = (stackPrefix: string) => `PortaleServiziSociali/${stackPrefix}`;

export const contextDefaults = {
  region: 'eu-south-1',
  textractRegion: DEFAULT_TEXTRACT_REGION,
  stackPrefix: 'Portale',
  spidGatewayProviderName: 'SpidCie',
  spidGatewayIssuer: 'https://spid-gateway.example.org',
  spidGatewayClientId: 'portale-servizi-sociali',
  spidGatewayClientSecretName: 'portale-servizi-sociali/spid-gateway-client-secret',
  spidGatewayFiscalCodeClaim: 'fiscalNumber',
  spidGatewayScopes: 'openid profile email',
  mypaySecretName: 'portale-servizi-sociali/mypay',
  mypayImportMaxWaitMinutes: 48 * 60,
  ioBaseUrl: 'https://api.io.pagopa.it',
  ioSecretName: 'portale-servizi-sociali/io-api-key',
  mailFrom: 'noreply@comune.example.it',
  supportEmail: 'supporto@comune.example.it',
  pdndEnvironment: 'collaudo',
  /** Placeholders: the back office of PDND gives the real ones (a UUID, and the key's thumbprint). */
  pdndClientId: '00000000-0000-0000-0000-000000000000',
  pdndKid: 'placeholder-kid-set-by-pdnd-back-office-000',
  /** The address in the WSDL v2.8 for PDND; INPS's sheet in the PDND catalogue has the real one. */
  inpsEndpoint: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
  /** The e-service municipalities subscribe ("Consultazione Attestazione Residenti ISEE"). */
  inpsAttestazioneOperation: 'ConsultazioneAttestazioneResidenti',
  inpsHost: 'https://api.inps.it',
  inpsDailyEstimate: 1000,
  inpsPurposeAttestazione: '00000000-0000-0000-0000-000000000001',
  inpsPurposeIndicatore: '00000000-0000-0000-0000-000000000002',
  /** The Identity header's UserId: the council's fiscal code (placeholder). */
  inpsUserId: '00000000000',
  inpsCodiceUfficio: '001',
  inpsBenefitCode: 'A2.07',
  inpsRatePerSecond: 10,
  iseeReminderFrom: '12-01',
  /** AWS Backup: daily recovery points for five weeks, the month's first for a year. */
  backupDailyRetentionDays: 35,
  backupMonthlyRetentionDays: 365,
  /** Placeholder: AgID's form gives each published statement its own address. */
  accessibilityStatementUrl: 'https://form.agid.gov.it/',
} as const;

/** PDND's two environments (reference.md): token endpoint and the client assertion's audience. */
export const pdndEnvironments = {
  collaudo: {
    tokenUrl: 'https://auth.uat.interop.pagopa.it/token.oauth2',
    assertionAudience: 'auth.uat.interop.pagopa.it/client-assertion',
  },
  produzione: {
    tokenUrl: 'https://auth.interop.pagopa.it/token.oauth2',
    assertionAudience: 'auth.interop.pagopa.it/client-assertion',
  },
} as const;

/** pagoPA's hosts for GPD, Checkout and the receipts service (pagopa-debt-position openapi_external_v1.json servers). */
export const gpdEnvironments = {
  uat: 'https://api.uat.platform.pagopa.it',
  produzione: 'https://api.platform.pagopa.it',
} as const;

function gpdOf(node: Node): PortalContext['gpd'] {
  const environment = text(node, 'gpdEnvironment') === 'uat' ? 'uat' : 'produzione';
  return {
    environment,
    baseUrl: text(node, 'gpdBaseUrl') ?? gpdEnvironments[environment],
    secretName: text(node, 'gpdSecretName'),
    organizationFiscalCode: text(node, 'gpdOrganizationFiscalCode'),
    companyName: text(node, 'gpdCompanyName'),
    segregationCode: text(node, 'gpdSegregationCode'),
    iban: text(node, 'gpdIban'),
    taxonomyCode: text(node, 'gpdTaxonomyCode'),
    cbillCode: text(node, 'gpdCbillCode'),
  };
}

/** The settings each app has read: a key of a stage file that nothing reads is reported (a typo, a retired setting). */
const settingsRead = new WeakMap<Node, Set<string>>();
export const settingsReadBy = (node: Node): ReadonlySet<string> => settingsRead.get(node.root.node) ?? new Set();

const text = (node: Node, key: string): string | undefined => {
  const app = node.root.node;
  if (!settingsRead.has(app)) settingsRead.set(app, new Set());
  settingsRead.get(app)!.add(key);
  const value = node.tryGetContext(key);
  return value === undefined || value === null || String(value).trim() === '' ? undefined : String(value).trim();
};

/**
 * Context secretsRevision: any new text (e.g. the day of a rotation) changes every function's configuration,
 * so the next deploy updates them all and each reads its secrets afresh at once, instead of within its cache's
 * 5 minutes (functions/adapters/secrets.ts). docs/operations.md, "Rotating secrets".
 */
export const secretsRevisionOf = (node: Node): string | undefined => text(node, 'secretsRevision');

/** The prefix of the stack names (context stackPrefix): what tells two copies of the portal in one account apart. */
export const stackPrefixOf = (node: Node): string => text(node, 'stackPrefix') ?? contextDefaults.stackPrefix;

/** The context key of a retention setting: retention<Kind>Years. */
export const retentionKey = (kind: RetentionKind) => `retention${kind[0]!.toUpperCase()}${kind.slice(1)}Years`;

/** Years kept per kind (context retention*Years), never below what the law requires nor for ever (at most 100 years). */
export function retentionOf(node: Node): Record<RetentionKind, number> {
  return Object.fromEntries(
    retentionKinds.map((kind) => {
      const key = retentionKey(kind);
      const value = text(node, key) ?? String(retentionDefaults[kind]);
      const { years: minimum, law } = retentionMinimum[kind];
      if (!/^\d+$/.test(value) || Number(value) < minimum || Number(value) > 100) {
        throw new Error(`${key} must be a whole number of years from ${minimum} to 100${law ? ` (${law})` : ''}`);
      }
      return [kind, Number(value)];
    }),
  ) as Record<RetentionKind, number>;
}

/** The retention settings as every function reads them (RETENTION_<KIND>_YEARS). */
export const retentionEnvironment = (node: Node): Record<string, string> =>
  Object.fromEntries(
    Object.entries(retentionOf(node)).map(([kind, years]) => [retentionEnvName(kind as RetentionKind), String(years)]),
  );

export function portalContext(node: Node): PortalContext {
  const webDomainName = text(node, 'webDomainName');
  const certificateArn = text(node, 'certificateArn');
  if (webDomainName && !certificateArn) {
    throw new Error('webDomainName needs certificateArn (an ACM certificate in us-east-1 for CloudFront)');
  }
  if (certificateArn && !webDomainName) throw new Error('certificateArn is only used with webDomainName');
  const region = text(node, 'region') ?? contextDefaults.region;
  const apiDomainName = text(node, 'apiDomainName');
  const apiCertificateArn = text(node, 'apiCertificateArn');
  if (Boolean(apiDomainName) !== Boolean(apiCertificateArn))
    throw new Error(
      `apiDomainName and apiCertificateArn go together: the API's domain and its ACM certificate in ${region} (README, "From an empty account to a running portal")`,
    );
  // A regional API endpoint takes a certificate of its own region (API Gateway, "Custom domain names for HTTP APIs").
  if (apiCertificateArn && apiCertificateArn.split(':')[3] !== region)
    throw new Error(
      `apiCertificateArn must be an ACM certificate in ${region}, the API's region (a regional custom domain), not in ${apiCertificateArn.split(':')[3]}`,
    );
  if (text(node, 'ioPayeeFiscalCode')) {
    throw new Error(
      'ioPayeeFiscalCode is no longer a setting: IO refuses a payee from a key without the group ApiMessageWriteWithPayee and makes the IO service’s organisation the payee. Remove it from the context.',
    );
  }
  if (text(node, 'mypayDefaultEntityPassword')) {
    throw new Error(
      'mypayDefaultEntityPassword is no longer a setting: the portal pays a position with paaSILVerificaAvviso and the council’s own MyPay password, never the Region’s. Remove it from the context and the defaultEntityPassword field from the MyPay secret.',
    );
  }
  const alarmEmail = text(node, 'alarmEmail');
  if (alarmEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail))
    throw new Error('alarmEmail must be an e-mail address');
  const days = (key: string, fallback: number, min: number, max: number) => {
    const value = text(node, key) ?? String(fallback);
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new Error(`${key} must be a whole number of days from ${min} to ${max}`);
    return Number(value);
  };
  const accessibilityStatementUrl =
    text(node, 'accessibilityStatementUrl') ?? contextDefaults.accessibilityStatementUrl;
  if (!/^https:\/\/\S+$/.test(accessibilityStatementUrl))
    throw new Error(
      'accessibilityStatementUrl must be the https address of the published accessibility statement (AgID’s form)',
    );
  const backupCopyVaultArn = text(node, 'backupCopyVaultArn');
  const retention = retentionOf(node);
  if (backupCopyVaultArn && !/^arn:aws[\w-]*:backup:[a-z0-9-]+:\d{12}:backup-vault:[\w.-]+$/.test(backupCopyVaultArn)) {
    throw new Error(
      'backupCopyVaultArn must be the ARN of a backup vault (arn:aws:backup:<region>:<account>:backup-vault:<name>) in another account or region',
    );
  }
  const maxWait = text(node, 'mypayImportMaxWaitMinutes');
  // Step Functions runs a standard execution for at most a year: the wait plus the work must fit.
  if (maxWait && !(/^\d+$/.test(maxWait) && Number(maxWait) >= 1 && Number(maxWait) <= 180 * 24 * 60)) {
    throw new Error('mypayImportMaxWaitMinutes must be a whole number of minutes from 1 to 259200 (180 days)');
  }
  const textractRegion = text(node, 'textractRegion') ?? contextDefaults.textractRegion;
  if (!(TEXTRACT_REGIONS as readonly string[]).includes(textractRegion)) {
    throw new Error(
      `textractRegion ${textractRegion} has no Amazon Textract endpoint: choose one of ${TEXTRACT_REGIONS.join(', ')} (an EU one: eu-central-1, eu-west-1, eu-west-3, eu-south-2)`,
    );
  }
  const providerName = text(node, 'spidGatewayProviderName') ?? contextDefaults.spidGatewayProviderName;
  // Cognito's identity provider names: up to 32 characters, no blanks (CreateIdentityProvider, ProviderName).
  if (!/^[^_\s]\S{0,31}$/u.test(providerName)) {
    throw new Error(
      `spidGatewayProviderName ${providerName}: 1 to 32 characters, no spaces, not starting with an underscore`,
    );
  }
  const pdndEnvironment = text(node, 'pdndEnvironment') ?? contextDefaults.pdndEnvironment;
  if (pdndEnvironment !== 'collaudo' && pdndEnvironment !== 'produzione')
    throw new Error('pdndEnvironment must be collaudo or produzione');
  const uuid = (key: string, fallback: string) => {
    const value = text(node, key) ?? fallback;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
      throw new Error(`${key} must be a UUID (PDND’s back office gives it)`);
    return value;
  };
  const inpsUserId = text(node, 'inpsUserId') ?? contextDefaults.inpsUserId;
  if (!/^[0-9]{11}$/.test(inpsUserId)) throw new Error('inpsUserId must be the council’s fiscal code: 11 digits');
  const benefitCode = text(node, 'inpsBenefitCode') ?? contextDefaults.inpsBenefitCode;
  if (!INPS_BENEFIT_CODE.test(benefitCode))
    throw new Error('inpsBenefitCode must be one of the XSD’s PrestazioneDaErogare codes (A1.01 … A3.03, Z9.99)');
  const reminderFrom = text(node, 'iseeReminderFrom') ?? contextDefaults.iseeReminderFrom;
  if (!REMINDER_FROM.test(reminderFrom) || !reminderFrom.startsWith('12-'))
    throw new Error('iseeReminderFrom must be a day of December, MM-DD (e.g. 12-01)');
  const rate = Number(text(node, 'inpsRatePerSecond') ?? contextDefaults.inpsRatePerSecond);
  if (!(rate > 0 && rate <= 100)) throw new Error('inpsRatePerSecond must be between 0 and 100');
  const inpsEndpoint = text(node, 'inpsEndpoint') ?? contextDefaults.inpsEndpoint;
  const inpsAudience = text(node, 'inpsAudience');
  const attestazioneOperation = (text(node, 'inpsAttestazioneOperation') ??
    contextDefaults.inpsAttestazioneOperation) as InpsAttestationOperation;
  if (!inpsAttestationOperations.includes(attestazioneOperation))
    throw new Error(
      `inpsAttestazioneOperation must be one of ${inpsAttestationOperations.join(', ')} (the e-service of the council’s PDND purpose)`,
    );
  // The residents' e-service has an endpoint of its own; the v1 one is inpsEndpoint.
  const attestazioneEndpoint =
    text(node, 'inpsAttestazioneEndpoint') ??
    (attestazioneOperation === 'ConsultazioneAttestazioneResidenti'
      ? `${contextDefaults.inpsHost}${inpsOperationPaths.ConsultazioneAttestazioneResidenti}`
      : inpsEndpoint);
  const indicatoreEndpoint = text(node, 'inpsIndicatoreEndpoint') ?? inpsEndpoint;
  const purposeIndicatore =
    text(node, 'inpsPurposeIndicatore') === 'none'
      ? null
      : uuid('inpsPurposeIndicatore', contextDefaults.inpsPurposeIndicatore);
  const dailyEstimate = Number(text(node, 'inpsDailyEstimate') ?? contextDefaults.inpsDailyEstimate);
  if (!(Number.isInteger(dailyEstimate) && dailyEstimate > 0))
    throw new Error('inpsDailyEstimate must be the daily calls declared in the PDND purpose (a positive integer)');
  return {
    region,
    textractRegion,
    stackPrefix: stackPrefixOf(node),
    webAssetPath: text(node, 'webAssetPath'),
    spidGateway: {
      providerName,
      issuer: text(node, 'spidGatewayIssuer') ?? contextDefaults.spidGatewayIssuer,
      clientId: text(node, 'spidGatewayClientId') ?? contextDefaults.spidGatewayClientId,
      clientSecretName: text(node, 'spidGatewayClientSecretName') ?? contextDefaults.spidGatewayClientSecretName,
      fiscalCodeClaim: text(node, 'spidGatewayFiscalCodeClaim') ?? contextDefaults.spidGatewayFiscalCodeClaim,
      scopes: (text(node, 'spidGatewayScopes') ?? contextDefaults.spidGatewayScopes).split(/[\s,]+/).filter(Boolean),
    },
    authDomainPrefix: text(node, 'authDomainPrefix'),
    webDomainName,
    certificateArn,
    webAclArn: text(node, 'webAclArn'),
    apiDomainName,
    apiCertificateArn,
    mypaySecretName: text(node, 'mypaySecretName') ?? contextDefaults.mypaySecretName,
    paymentPlatform: text(node, 'paymentPlatform') === 'gpd' ? 'gpd' : 'mypay',
    gpd: gpdOf(node),
    mypayModelloUnico: text(node, 'mypayModelloUnico') !== 'false',
    mypayScadenzaObbligatoria: text(node, 'mypayScadenzaObbligatoria') === 'true',
    mypayApplicationCode: text(node, 'mypayApplicationCode'),
    mypayImportMaxWaitMinutes: maxWait ? Number(maxWait) : contextDefaults.mypayImportMaxWaitMinutes,
    io: {
      baseUrl: text(node, 'ioBaseUrl') ?? contextDefaults.ioBaseUrl,
      secretName: text(node, 'ioSecretName') ?? contextDefaults.ioSecretName,
    },
    pdnd: {
      environment: pdndEnvironment,
      tokenUrl: text(node, 'pdndTokenUrl') ?? pdndEnvironments[pdndEnvironment].tokenUrl,
      assertionAudience: text(node, 'pdndAudience') ?? pdndEnvironments[pdndEnvironment].assertionAudience,
      clientId: uuid('pdndClientId', contextDefaults.pdndClientId),
      kid: text(node, 'pdndKid') ?? contextDefaults.pdndKid,
    },
    inps: {
      attestazione: {
        operation: attestazioneOperation,
        endpoint: attestazioneEndpoint,
        audience: text(node, 'inpsAttestazioneAudience') ?? inpsAudience ?? attestazioneEndpoint,
      },
      indicatore: {
        endpoint: indicatoreEndpoint,
        audience: text(node, 'inpsIndicatoreAudience') ?? inpsAudience ?? indicatoreEndpoint,
      },
      endpoint: inpsEndpoint,
      audience: inpsAudience ?? inpsEndpoint,
      purposeAttestazione: uuid('inpsPurposeAttestazione', contextDefaults.inpsPurposeAttestazione),
      purposeIndicatore,
      dailyEstimate,
      userId: inpsUserId,
      codiceUfficio: text(node, 'inpsCodiceUfficio') ?? contextDefaults.inpsCodiceUfficio,
      benefitCode,
      clientCertSecretName: text(node, 'inpsClientCertSecretName'),
      keepFullHousehold: text(node, 'inpsKeepFullHousehold') === 'true',
      auditRest02: text(node, 'inpsAuditRest02') === 'true',
      ratePerSecond: rate,
    },
    iseeReminderFrom: reminderFrom,
    mail: {
      from: text(node, 'mailFrom') ?? contextDefaults.mailFrom,
      supportAddress: text(node, 'supportEmail') ?? contextDefaults.supportEmail,
      identityArn: text(node, 'mailIdentityArn'),
      sendRate: mailSendRate(text(node, 'mailSendRate')),
    },
    alarmEmail,
    accessibilityStatementUrl,
    retention,
    backup: {
      // AWS Backup keeps a recovery point at least a day; a copy's must be at least as long as the rule's.
      dailyRetentionDays: days('backupDailyRetentionDays', contextDefaults.backupDailyRetentionDays, 7, 3650),
      monthlyRetentionDays: days('backupMonthlyRetentionDays', contextDefaults.backupMonthlyRetentionDays, 30, 3650),
      copyVaultArn: backupCopyVaultArn,
    },
  };
}

/** The context's mailSendRate: messages a second, above 0 and at most SES's largest quotas (unset: the account's own). */
function mailSendRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = Number(value);
  if (!(rate > 0 && rate <= 1000))
    throw new Error('mailSendRate must be a number of messages a second between 0 and 1000');
  return rate;
}
