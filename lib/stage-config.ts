import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { gpdSettingProblems } from '../functions/domain/gpd.ts';
import { PAYMENT_PLATFORMS } from '../functions/domain/payment-platform.ts';
import { repoRoot } from './portal-function.ts';

/**
 * A stage (production, staging, …) is one versioned file, `config/<stage>.json`, read by every deploy, redeploy
 * and rollback of it (`cdk synth -c stage=<stage>`, `npm run deploy -- <stage>`). Every key of the file is a
 * setting of lib/context.ts, given to the app exactly as `-c key=value` would give it: a setting added there
 * works in the file with no more code. The keys below are the ones with a shape to check; any other key is a
 * setting too (a string, a number or a boolean). config/example.json shows them all.
 */
export const CONFIG_DIR = path.join(repoRoot, 'config');

export const STAGE_NAME = /^[a-z][a-z0-9-]{0,30}$/;

const text = z.string().trim().min(1);
const email = z.email();
const uuid = z.guid(); // PDND's ids: any 8-4-4-4-12 hex, as lib/context.ts checks them
/** A text checked by one of domain/gpd.ts gpdSettingProblems (its Italian reason is the message). */
const checked = (problem: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const reason = problem(value);
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    });

/**
 * pagoPA's test council in its UAT (collaudo) environment: its fiscal code fails the check digit, as a made-up one
 * would. A stage that is not production may bill it (with a warning, stageWarnings); production refuses it.
 */
export const PAGOPA_UAT_TEST_COUNCIL = '77777777777';
const councilFiscalCodeProblem = (value: string) =>
  value === PAGOPA_UAT_TEST_COUNCIL ? null : gpdSettingProblems.fiscalCode(value);

/** GPD's settings a council on pagoPA GPD must give (README "Piattaforma di pagamento"). */
export const GPD_REQUIRED_SETTINGS = [
  'gpdSecretName',
  'gpdOrganizationFiscalCode',
  'gpdCompanyName',
  'gpdSegregationCode',
  'gpdIban',
  'gpdTaxonomyCode',
] as const;

export const stageConfigSchema = z
  .object({
    /** A production stage refuses placeholders at synth; any other stage only warns about them. */
    production: z.boolean().optional(),
    /** The AWS account the stage lives in: the app deploys there only, the preflight checks the credentials are its. */
    account: z
      .string()
      .regex(/^\d{12}$/, 'an AWS account id: 12 digits')
      .optional(),
    region: text.optional(),
    stackPrefix: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9]{0,30}$/, 'letters and digits, starting with a letter')
      .optional(),
    textractRegion: text.optional(),
    webDomainName: z
      .string()
      .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a domain name in lowercase')
      .optional(),
    certificateArn: z
      .string()
      .regex(/^arn:aws:acm:us-east-1:\d{12}:certificate\/[\w-]+$/, 'an ACM certificate in us-east-1 (CloudFront)')
      .optional(),
    apiDomainName: z
      .string()
      .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a domain name in lowercase')
      .optional(),
    apiCertificateArn: z
      .string()
      .regex(
        /^arn:aws:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/,
        'an ACM certificate in the stage’s region (the API)',
      )
      .optional(),
    webAclArn: z
      .string()
      .regex(/^arn:aws:wafv2:us-east-1:\d{12}:global\/webacl\//, 'a WAF web ACL of CLOUDFRONT scope (us-east-1)')
      .optional(),
    authDomainPrefix: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lowercase letters, digits and dashes (a Cognito domain prefix)')
      .optional(),
    spidGatewayProviderName: text.optional(),
    spidGatewayIssuer: z.url({ protocol: /^https$/ }).optional(),
    spidGatewayClientId: text.optional(),
    spidGatewayClientSecretName: text.optional(),
    spidGatewayFiscalCodeClaim: text.optional(),
    spidGatewayScopes: text.optional(),
    mailFrom: email.optional(),
    supportEmail: email.optional(),
    mailSendRate: z.number().positive().max(1000).optional(),
    mailIdentityArn: z.string().startsWith('arn:aws:ses:').optional(),
    alarmEmail: email.optional(),
    mypaySecretName: text.optional(),
    mypayImportMaxWaitMinutes: z
      .number()
      .int()
      .min(1)
      .max(180 * 24 * 60)
      .optional(),
    /** The platform the council bills through: MyPay (Regione Veneto's intermediary, the default) or pagoPA's GPD. */
    paymentPlatform: z.enum(PAYMENT_PLATFORMS as ['mypay', 'gpd']).optional(),
    /** pagoPA's environment for GPD, Checkout and receipts: 'uat' (collaudo) or 'produzione'; gpdBaseUrl overrides its host. */
    gpdEnvironment: z.enum(['uat', 'produzione']).optional(),
    gpdBaseUrl: z.url({ protocol: /^https$/ }).optional(),
    /** The Secrets Manager secret with the subscription keys: { "apiKey", "receiptsKey", "checkoutKey"? } (one secret per stage). */
    gpdSecretName: text.optional(),
    gpdOrganizationFiscalCode: checked(councilFiscalCodeProblem).optional(),
    gpdCompanyName: z.string().trim().min(1).max(140, 'al più 140 caratteri (companyName di GPD)').optional(),
    gpdSegregationCode: checked(gpdSettingProblems.segregationCode).optional(),
    gpdIban: checked(gpdSettingProblems.iban).optional(),
    gpdTaxonomyCode: checked(gpdSettingProblems.taxonomyCode).optional(),
    /** The council's CBILL (interbank) code, printed on its pagoPA notices ('Cod. CBILL'); optional. */
    gpdCbillCode: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{5}$/, 'il codice CBILL è di 5 caratteri, lettere e cifre (es. A0EDT)')
      .optional(),
    ioBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
    ioSecretName: text.optional(),
    pdndEnvironment: z.enum(['collaudo', 'produzione']).optional(),
    pdndTokenUrl: z.url().optional(),
    pdndAudience: text.optional(),
    pdndClientId: uuid.optional(),
    pdndKid: text.optional(),
    inpsEndpoint: z.url().optional(),
    inpsAudience: text.optional(),
    inpsPurposeAttestazione: uuid.optional(),
    inpsPurposeIndicatore: z.union([uuid, z.literal('none')]).optional(),
    inpsAttestazioneOperation: z.enum(['ConsultazioneAttestazioneResidenti', 'ConsultazioneAttestazione']).optional(),
    inpsAttestazioneEndpoint: z.url().optional(),
    inpsAttestazioneAudience: text.optional(),
    inpsIndicatoreEndpoint: z.url().optional(),
    inpsIndicatoreAudience: text.optional(),
    inpsDailyEstimate: z.number().int().positive().optional(),
    inpsUserId: z
      .string()
      .regex(/^\d{11}$/, 'the council’s fiscal code: 11 digits')
      .optional(),
    inpsCodiceUfficio: text.optional(),
    inpsBenefitCode: text.optional(),
    inpsClientCertSecretName: text.optional(),
    inpsKeepFullHousehold: z.boolean().optional(),
    inpsAuditRest02: z.boolean().optional(),
    inpsRatePerSecond: z.number().positive().max(100).optional(),
    iseeReminderFrom: text.optional(),
    accessibilityStatementUrl: z.url({ protocol: /^https$/ }).optional(),
    retentionIseeDocumentsYears: z.number().int().positive().optional(),
    retentionSupportMessagesYears: z.number().int().positive().optional(),
    retentionPaymentRecordsYears: z.number().int().positive().optional(),
    retentionAuditEntriesYears: z.number().int().positive().optional(),
    secretsRevision: text.optional(),
  })
  // A key this file does not list is a setting of its own (one another part of the app reads).
  .catchall(z.union([z.string(), z.number(), z.boolean()]))
  // A council on GPD gives all of GPD's settings: without one, no position could be created or paid.
  .superRefine((settings, ctx) => {
    if (settings.production === true && settings.gpdOrganizationFiscalCode === PAGOPA_UAT_TEST_COUNCIL)
      ctx.addIssue({
        code: 'custom',
        path: ['gpdOrganizationFiscalCode'],
        message: `${PAGOPA_UAT_TEST_COUNCIL} è l'ente di prova di pagoPA in collaudo (UAT): uno stage di produzione indica il codice fiscale del Comune`,
      });
    if (settings.paymentPlatform !== 'gpd') return;
    for (const key of GPD_REQUIRED_SETTINGS)
      if (settings[key] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `con paymentPlatform "gpd" va indicato ${key} (README, "Piattaforma di pagamento")`,
        });
  });

export type StageConfig = z.infer<typeof stageConfigSchema>;

export interface Stage {
  name: string;
  /** The file, relative to the repository (what messages name). */
  file: string;
  settings: StageConfig;
  production: boolean;
}

/** The path of a stage's file relative to the repository, as the messages print it. */
export const stageFile = (name: string, dir = CONFIG_DIR) =>
  path.relative(repoRoot, path.join(dir, `${name}.json`)) || `${name}.json`;

export function loadStage(name: string, dir = CONFIG_DIR): Stage {
  if (!STAGE_NAME.test(name))
    throw new Error(`stage "${name}": a stage is named in lowercase letters, digits and dashes (config/<stage>.json)`);
  const file = stageFile(name, dir);
  const full = path.join(dir, `${name}.json`);
  if (!existsSync(full))
    throw new Error(
      `${file} does not exist: copy config/example.json to ${file} and set the stage's values (README, "Deploying to AWS")`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(full, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = stageConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  - ${issue.path.join('.') || '(the file)'}: ${issue.message}`,
    );
    throw new Error(`${file} has settings that are not valid:\n${problems.join('\n')}`);
  }
  return { name, file, settings: parsed.data, production: parsed.data.production === true };
}

/** What a stage that is not production may keep but should not (a production stage refuses it at load). */
export function stageWarnings(stage: Stage): string[] {
  return stage.settings.gpdOrganizationFiscalCode === PAGOPA_UAT_TEST_COUNCIL
    ? [
        `${stage.file} (stage ${stage.name}, not production): gpdOrganizationFiscalCode is pagoPA's UAT test council ${PAGOPA_UAT_TEST_COUNCIL}: positions go to pagoPA's test council, not to the Comune`,
      ]
    : [];
}

/** The settings as CDK context values (what `-c key=value` gives): `production` and `account` stay the stage's. */
export function stageContext(stage: Stage): Record<string, string | number | boolean> {
  const { production: _production, account: _account, ...settings } = stage.settings;
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Record<
    string,
    string | number | boolean
  >;
}

const exampleDomain = /(^|[.@])example\.(it|org|com|net)$/i;
const placeholderText = /placeholder|^0{8}-0{4}-0{4}-0{4}-0{10}\d\d$|^0+$/i;

/**
 * What a production stage may not leave to the built-in defaults or to an example value: each, when unset,
 * falls back to a placeholder (lib/context.ts contextDefaults) that deploys green and fails at the first use.
 */
export const requiredSettings: Record<string, string> = {
  webDomainName: 'the portal’s address (servizisociali.<comune>.it)',
  certificateArn: 'the ACM certificate for webDomainName, in us-east-1',
  apiDomainName:
    'the API’s own domain (api.<webDomainName>): CloudFront’s origin for /api/*, so the execute-api address is off',
  apiCertificateArn: 'the ACM certificate for apiDomainName, in the stage’s region',
  authDomainPrefix: 'the Cognito domain prefix: it makes the SPID/CIE redirect URI known before the first deploy',
  mailFrom: 'the sender of every e-mail, an SES-verified identity',
  supportEmail: 'the council’s support office address',
  alarmEmail: 'who receives the alarms',
  spidGatewayIssuer: 'the SPID/CIE gateway’s OIDC issuer',
  spidGatewayClientId: 'the client id the SPID/CIE gateway gave the portal',
  pdndClientId: 'the e-service client id from PDND’s back office',
  pdndKid: 'the kid PDND’s back office shows for the uploaded key',
  inpsAttestazioneEndpoint:
    'the endpoint of INPS’s attestation e-service the council’s purpose is for (its technical sheet in the PDND catalogue)',
  inpsPurposeAttestazione: 'the PDND purpose for the attestation e-service',
  inpsPurposeIndicatore: 'the PDND purpose for ConsultazioneIndicatore, or "none" when the council has none',
  accessibilityStatementUrl:
    'the accessibility statement published with AgID’s form (the footer’s “Dichiarazione di accessibilità”)',
  inpsUserId: 'the council’s fiscal code (the INPS Identity header’s UserId)',
};

/** A value that is unset (the built-in default then applies) or an example one (contextDefaults' are all such). */
export function isPlaceholder(value: unknown): boolean {
  if (value === undefined || value === null || String(value).trim() === '') return true;
  const textValue = String(value).trim();
  const host = textValue.replace(/^https?:\/\//, '').split(/[/:]/)[0]!;
  return exampleDomain.test(host) || placeholderText.test(textValue);
}

/** Each setting a production stage must still set: `key: why`, for the messages. */
export function placeholdersOf(settings: Record<string, unknown>): string[] {
  return Object.entries(requiredSettings)
    .filter(([key]) => isPlaceholder(settings[key]))
    .map(([key, why]) =>
      settings[key] === undefined
        ? `${key} is not set (${why})`
        : `${key} is the placeholder "${String(settings[key])}" (${why})`,
    );
}

/** The stacks in the stage's region, in deployment order (lib/app.ts builds them so; `npm run deploy` deploys them so). */
export const STACKS = ['Data', 'Auth', 'Web', 'Api', 'IseeExtraction', 'Operations'] as const;
/**
 * Their names; with `edge` (a stage without its own webAclArn) first the us-east-1 stack of CloudFront's web ACL
 * (lib/edge-stack.ts), which the web stack reads; with `edgeAlarms` last the us-east-1 stack of CloudFront's alarms
 * (lib/edge-alarms-stack.ts), which reads the web stack. Neither holds a function of the portal.
 */
export const stackNamesOf = (prefix: string, options: { edge?: boolean; edgeAlarms?: boolean } = {}) =>
  [...(options.edge ? ['Edge'] : []), ...STACKS, ...(options.edgeAlarms ? ['EdgeAlarms'] : [])].map(
    (id) => `${prefix}${id}`,
  );
