/**
 * The monthly AWS bill of one council's portal (`npm run cost`, bin/cost.ts): a size (citizens, active
 * subscriptions, ISEE uploads, page views) → the month's usage of each service, from what the benchmarks
 * measure → the bill, at the eu-south-1 (Milan) prices below. Pure arithmetic: no AWS call. What the
 * deployment holds by the unit (alarms' metrics, custom metrics, keys, secrets, functions) is an Inventory
 * counted in the synthesized app (lib/cost-inventory.ts), not typed here. Every number that is not measured
 * here is an assumption, and says so.
 */

/** What one deployment holds that is billed by the unit: counted in the synthesized app (lib/cost-inventory.ts inventoryOf). */
export interface Inventory {
  /** Metrics read by the alarms (CloudWatch bills an alarm per metric). */
  alarmMetrics: number;
  /** Custom metrics the code publishes (Request per API operation, the business catalogue with its dimensions). */
  customMetrics: number;
  kmsKeys: number;
  /** Secrets Manager secrets the templates resolve or create. */
  secrets: number;
  functions: number;
  stateMachines: number;
  dashboards: number;
  /** WAF web ACLs of ours (none when the stage attaches its own) and their rules (a managed rule group is one rule). */
  webAcls: number;
  webAclRules: number;
}

/** A council's portal in a month. */
export interface CouncilSize {
  /** Citizens registered with the portal (its user records). */
  citizens: number;
  /** Approved subscriptions billed every month: one debt position each. */
  activeSubscriptions: number;
  /** ISEE attestations uploaded in the month (each one read by Textract). */
  iseeUploadsPerMonth: number;
  /** Pages seen in the browser in the month, citizens and operators together. */
  pageViewsPerMonth: number;
}

/**
 * The three councils of the README, by inhabitants. Assumptions: 3% of the inhabitants use the social
 * services through the portal; a third of those have an approved subscription billed monthly; each renews
 * its ISEE once a year and one in five uploads it again (a photo refused, a correction); a citizen sees 15
 * pages a month; one operator per 10,000 inhabitants (at least 2) sees 300 pages a working day (21 a month).
 */
export function councilOf(inhabitants: number): CouncilSize {
  const citizens = Math.round(inhabitants * 0.03);
  const operators = Math.max(2, Math.round(inhabitants / 10_000));
  return {
    citizens,
    activeSubscriptions: Math.round(citizens / 3),
    iseeUploadsPerMonth: Math.round((citizens * 1.2) / 12),
    pageViewsPerMonth: citizens * 15 + operators * 300 * 21,
  };
}

/**
 * How the portal uses each service, per request, page, position or upload. Measured figures name their
 * benchmark (README); the others are assumptions.
 */
export const usageAssumptions = {
  /** API calls the web app makes per page seen (/api/me, the page's list, a count…). Assumption. */
  apiCallsPerPageView: 2.5,
  /** Lambda time of an API call, 512 MB: list pages answer in 30–70 ms p50 on dynalite (bench:payments, bench:enrolment, bench:users); assumption 60 ms. */
  apiCallMs: 60,
  /** Share of API calls that start a cold function, and the start's billed time: importing a bundle takes 0.6–1.3 s (README, Lambda bundles). Assumption 5%, 1 s. */
  coldStartShare: 0.05,
  coldStartMs: 1000,
  /** Read request units of an API call: list pages read 1–10.6 RCU, a 3-letter surname 49 (bench:payments, bench:users, bench:enrolment); assumption 4 on average. */
  readUnitsPerApiCall: 4,
  /** Write request units of an API call: most calls read; a write is the item, its indexes and its audit entry. Assumption 0.5 on average. */
  writeUnitsPerApiCall: 0.5,
  /**
   * Write request units of one debt position in a month: bench:export writes each position ~5 times (its
   * creation, its payment-list row, its audit entry in batches, its IUV and NAV back, the ISEE mark: 2,527
   * calls for 2,000 positions); each write of a ~1.5 KB item costs 2 units on the table and 2 on each of its
   * indexes (ALL projection); then the notice e-mail and the payment (item, row, audit) again. Assumption 45.
   */
  writeUnitsPerPosition: 45,
  readUnitsPerPosition: 10,
  /** Lambda time per position (export steps, notices, payment): bench:export used 12.9 s of CPU for 2,000 positions, dynalite and the simulator included; assumption 10 ms at 512 MB. */
  positionMs: 10,
  /** Storage per position and per citizen (items, indexes, audit entries): assumption 10 KB and 20 KB. */
  storedKbPerPosition: 10,
  storedKbPerCitizen: 20,
  /** Positions kept in the table: three years of months. Assumption. */
  monthsOfPositionsKept: 36,
  /** An ISEE attestation: 5 pages (a PDF read asynchronously by Textract, page by page), 300 KB, kept three years with its versions. Assumption. */
  iseePages: 5,
  iseeDocumentKb: 300,
  monthsOfDocumentsKept: 36,
  /** Step Functions transitions of an ISEE reading (PDF path with ~4 polls) and of an export (prepare, send, ~6 polls, collect). Measured on the definitions. */
  transitionsPerIseeReading: 16,
  transitionsPerExport: 40,
  /** Exports a month: one per call; a call bills ~200 subscriptions. Assumption. */
  subscriptionsPerCall: 200,
  /** CloudFront: requests and kilobytes per page seen (the shell and config.json revalidated, a lazy chunk, the API calls' JSON); the first load's 165 KB is cached by the browser. Assumption. */
  cloudFrontRequestsPerPageView: 3,
  cloudFrontKbPerPageView: 60,
  /** E-mails: a notice per position for half the positions (the others by IO), 100 KB of PDF each; two per support message (office and receipt) for 2% of the citizens a month. Assumption. */
  noticeEmailShare: 0.5,
  noticeAttachmentKb: 100,
  supportMessageShare: 0.02,
  /** Citizens signing in during a month (Cognito MAU), plus the operators. Assumption half the citizens. */
  activeCitizenShare: 0.5,
  /** CloudWatch: log bytes per Lambda invocation (START/END/REPORT, the EMF metrics line, INFO logs). Assumption 1.2 KB. */
  logKbPerInvocation: 1.2,
  /**
   * X-Ray (every function and state machine traced, Lambda's default sampling): the first request of each second
   * and 5% of the rest; requests fall in ~250 working hours a month. Segments per traced request (API Gateway
   * passes none: the function, its SDK calls). Assumption.
   */
  xrayReservoirPerSecond: 1,
  xraySampledShare: 0.05,
  /** The backup vault: the table's recovery points (a full copy each, daily for 35 days, monthly for a year) and the documents' (incremental). Assumption: 8 full table copies on average, and the documents once. */
  backupTableCopies: 8,
  /** A staging copy (README "A staging copy in the same account"): the tests an engineer runs, as a council of this many inhabitants. Assumption. */
  stagingInhabitants: 2000,
} as const;

export type UsageAssumptions = { -readonly [K in keyof typeof usageAssumptions]: number };

/** A price list: USD, with AWS's always-free monthly allowances where they apply. */
export interface Prices {
  date: string;
  region: string;
  lambda: { perMillionRequests: number; perGbSecondArm: number; freeRequests: number; freeGbSeconds: number };
  apiGateway: { perMillionHttpRequests: number };
  dynamodb: {
    perMillionWriteUnits: number;
    perMillionReadUnits: number;
    perGbMonth: number;
    pitrPerGbMonth: number;
    freeGb: number;
  };
  s3: { perGbMonth: number; perThousandPuts: number; perThousandGets: number };
  stepFunctions: { perThousandTransitions: number; freeTransitions: number };
  cloudFront: { perGbOut: number; perTenThousandHttpsRequests: number; freeGb: number; freeRequests: number };
  cognito: { perFederatedMau: number; freeFederatedMau: number };
  textract: { perThousandPages: number };
  ses: { perThousandEmails: number; perGbAttachments: number };
  cloudWatch: {
    perAlarmMetric: number;
    perDashboard: number;
    perCustomMetric: number;
    perGbLogsIngested: number;
    perGbLogsStored: number;
    freeAlarms: number;
    freeCustomMetrics: number;
    freeGbLogs: number;
  };
  /** KMS key of the alarms topic, the four Secrets Manager secrets (cursor, MyPay, IO, SPID/CIE gateway). */
  other: { perKmsKey: number; perSecret: number };
  /** X-Ray traces recorded (per million; 100,000 free a month). */
  xray: { perMillionTraces: number; freeTraces: number };
  /** AWS Backup warm storage per GB-month: DynamoDB and S3 recovery points. */
  backup: { dynamodbPerGbMonth: number; s3PerGbMonth: number };
  /** AWS WAF: per web ACL and per rule a month, per million requests inspected. */
  waf: { perWebAcl: number; perRule: number; perMillionRequests: number };
}

/**
 * eu-south-1 (Milan), collected on 2026-05-01. Lambda's come from AWS's own price file
 * (calculator.aws pricing/2.0/meteredUnitMaps/lambda/USD/current/lambda.json, region eu-south-1); the others
 * are AWS's published list prices where they are the same in every EU region (CloudFront's Europe edge, SES,
 * Cognito, CloudWatch alarms, dashboards and metrics) and, where Milan's own figure was not at hand, an
 * ASSUMPTION taken from Frankfurt (eu-central-1), marked as such: check them in the AWS Pricing Calculator
 * before quoting a council.
 */
export const milanPrices: Prices = {
  date: '2026-05-01',
  region: 'eu-south-1',
  lambda: { perMillionRequests: 0.23, perGbSecondArm: 0.0000156138, freeRequests: 1_000_000, freeGbSeconds: 400_000 },
  // ASSUMPTION: HTTP API, first 300 million requests, Frankfurt's price.
  apiGateway: { perMillionHttpRequests: 1.2 },
  // ASSUMPTION: on-demand after the November 2024 reduction, and storage, Frankfurt's prices; 25 GB always free.
  dynamodb: {
    perMillionWriteUnits: 0.7625,
    perMillionReadUnits: 0.1525,
    perGbMonth: 0.306,
    pitrPerGbMonth: 0.2448,
    freeGb: 25,
  },
  // ASSUMPTION: S3 Standard, Frankfurt's prices.
  s3: { perGbMonth: 0.0245, perThousandPuts: 0.0054, perThousandGets: 0.00043 },
  // ASSUMPTION: Standard workflows, us-east-1's price; 4,000 transitions always free.
  stepFunctions: { perThousandTransitions: 0.025, freeTransitions: 4000 },
  // CloudFront, Europe edge (PRICE_CLASS_100): first 10 TB; 1 TB and 10 million requests always free.
  cloudFront: { perGbOut: 0.085, perTenThousandHttpsRequests: 0.012, freeGb: 1024, freeRequests: 10_000_000 },
  // Cognito user pools, users federated through OIDC (the SPID/CIE gateway): Essentials, 50 MAU free.
  cognito: { perFederatedMau: 0.015, freeFederatedMau: 50 },
  // ASSUMPTION: DetectDocumentText / StartDocumentTextDetection, first million pages, us-east-1's price (Textract may run in another EU region).
  textract: { perThousandPages: 1.5 },
  ses: { perThousandEmails: 0.1, perGbAttachments: 0.12 },
  // Alarms (standard resolution, per metric), dashboards (the first three free per account: not counted), custom
  // metrics (first 10,000); ASSUMPTION: logs ingestion and storage, Frankfurt's prices. Always free: 10 alarms, 10 metrics, 5 GB of logs.
  cloudWatch: {
    perAlarmMetric: 0.1,
    perDashboard: 3,
    perCustomMetric: 0.3,
    perGbLogsIngested: 0.63,
    perGbLogsStored: 0.0324,
    freeAlarms: 10,
    freeCustomMetrics: 10,
    freeGbLogs: 5,
  },
  other: { perKmsKey: 1, perSecret: 0.4 },
  // X-Ray: traces recorded, $5 per million after 100,000 a month (the same in every region).
  xray: { perMillionTraces: 5, freeTraces: 100_000 },
  // ASSUMPTION: AWS Backup warm storage, Frankfurt's prices (DynamoDB $0.11, S3 $0.055 per GB-month).
  backup: { dynamodbPerGbMonth: 0.11, s3PerGbMonth: 0.055 },
  // AWS WAF's list prices (the same in every region, CloudFront's web ACLs included): $5 a web ACL, $1 a rule (an AWS
  // managed rule group such as the common and known-bad-inputs ones counts as one, with no fee of its own), $0.60 per
  // million requests. No free allowance.
  waf: { perWebAcl: 5, perRule: 1, perMillionRequests: 0.6 },
};

/** The month's usage of each service. */
export interface MonthlyUsage {
  apiCalls: number;
  lambdaInvocations: number;
  lambdaGbSeconds: number;
  dynamoWriteUnits: number;
  dynamoReadUnits: number;
  dynamoStoredGb: number;
  s3StoredGb: number;
  s3Puts: number;
  s3Gets: number;
  stepTransitions: number;
  cloudFrontRequests: number;
  cloudFrontGb: number;
  cognitoMau: number;
  textractPages: number;
  emails: number;
  emailAttachmentGb: number;
  logsGb: number;
  /** Custom metrics billed in the month: a metric is billed for the hours it receives data (prorated). */
  billedCustomMetrics: number;
  xrayTraces: number;
}

const LAMBDA_GB = 0.5; // every function has 512 MB
const KB_PER_GB = 1024 * 1024;

/**
 * A custom metric is billed by the hour it receives data. Requests spread over ~250 working hours a month:
 * the share of the month's 720 hours in which an operation's metric gets at least one request.
 */
function billedMetricShare(apiCalls: number, metrics: number): number {
  const workingHours = 250;
  const perMetricHour = apiCalls / Math.max(1, metrics) / workingHours;
  return (workingHours / 720) * (1 - Math.exp(-perMetricHour));
}

/** Requests X-Ray records: one a second (the reservoir) while there are requests, then 5% of the rest. */
function tracedRequests(requests: number, a: UsageAssumptions): number {
  const reservoir = Math.min(requests, 250 * 3600 * a.xrayReservoirPerSecond);
  return reservoir + (requests - reservoir) * a.xraySampledShare;
}

export function monthlyUsage(
  size: CouncilSize,
  inventory: Inventory,
  a: UsageAssumptions = usageAssumptions,
): MonthlyUsage {
  const apiCalls = size.pageViewsPerMonth * a.apiCallsPerPageView;
  const positions = size.activeSubscriptions;
  const exports = Math.ceil(positions / a.subscriptionsPerCall);
  const emails = positions * a.noticeEmailShare + size.citizens * a.supportMessageShare * 2;
  // Invocations: each API call; each export's ~20 task steps; each ISEE reading's 2 steps; a job slice per export.
  const lambdaInvocations = apiCalls + exports * 21 + size.iseeUploadsPerMonth * 2;
  // The ISEE reading's two functions: ~0.5 s each (Textract's pages fetched and parsed, one write). Assumption.
  const lambdaSeconds =
    (apiCalls * (a.apiCallMs + a.coldStartShare * a.coldStartMs) +
      positions * a.positionMs +
      size.iseeUploadsPerMonth * 2 * 500) /
    1000;
  return {
    apiCalls,
    lambdaInvocations,
    lambdaGbSeconds: lambdaSeconds * LAMBDA_GB,
    dynamoWriteUnits: apiCalls * a.writeUnitsPerApiCall + positions * a.writeUnitsPerPosition,
    dynamoReadUnits: apiCalls * a.readUnitsPerApiCall + positions * a.readUnitsPerPosition,
    dynamoStoredGb:
      (positions * a.monthsOfPositionsKept * a.storedKbPerPosition + size.citizens * a.storedKbPerCitizen) / KB_PER_GB,
    s3StoredGb: (size.iseeUploadsPerMonth * a.monthsOfDocumentsKept * a.iseeDocumentKb) / KB_PER_GB,
    // An upload (the browser's PUT, the claim's copy), the export's ZIPs and notices; reads: Textract, the operator opening it, the notice links.
    s3Puts: size.iseeUploadsPerMonth * 2 + exports * 5 + positions * a.noticeEmailShare,
    s3Gets: size.iseeUploadsPerMonth * 3 + exports * 5 + positions,
    stepTransitions: size.iseeUploadsPerMonth * a.transitionsPerIseeReading + exports * a.transitionsPerExport,
    cloudFrontRequests: size.pageViewsPerMonth * a.cloudFrontRequestsPerPageView + apiCalls,
    cloudFrontGb:
      (size.pageViewsPerMonth * a.cloudFrontKbPerPageView + size.iseeUploadsPerMonth * a.iseeDocumentKb) / KB_PER_GB,
    cognitoMau: Math.round(size.citizens * a.activeCitizenShare),
    textractPages: size.iseeUploadsPerMonth * a.iseePages,
    emails,
    emailAttachmentGb: (positions * a.noticeEmailShare * a.noticeAttachmentKb) / KB_PER_GB,
    logsGb: (lambdaInvocations * a.logKbPerInvocation) / KB_PER_GB,
    billedCustomMetrics: inventory.customMetrics * billedMetricShare(apiCalls, inventory.customMetrics),
    xrayTraces: tracedRequests(lambdaInvocations, a),
  };
}

export const services = [
  'Lambda',
  'API Gateway',
  'DynamoDB',
  'S3',
  'Step Functions',
  'CloudFront',
  'Cognito',
  'Textract',
  'SES',
  'CloudWatch',
  'X-Ray',
  'Backup',
  'WAF',
  'Altro (KMS, Secrets Manager)',
] as const;
export type Service = (typeof services)[number];

export interface Bill {
  byService: Record<Service, number>;
  total: number;
}

const above = (used: number, free: number) => Math.max(0, used - free);

/** The month's bill, in USD, by service (always-free allowances deducted; no Savings Plan, no tax). */
export function monthlyBill(
  usage: MonthlyUsage,
  inventory: Inventory,
  p: Prices = milanPrices,
  a: UsageAssumptions = usageAssumptions,
): Bill {
  const byService: Record<Service, number> = {
    Lambda:
      (above(usage.lambdaInvocations, p.lambda.freeRequests) / 1e6) * p.lambda.perMillionRequests +
      above(usage.lambdaGbSeconds, p.lambda.freeGbSeconds) * p.lambda.perGbSecondArm,
    'API Gateway': (usage.apiCalls / 1e6) * p.apiGateway.perMillionHttpRequests,
    DynamoDB:
      (usage.dynamoWriteUnits / 1e6) * p.dynamodb.perMillionWriteUnits +
      (usage.dynamoReadUnits / 1e6) * p.dynamodb.perMillionReadUnits +
      above(usage.dynamoStoredGb, p.dynamodb.freeGb) * p.dynamodb.perGbMonth +
      usage.dynamoStoredGb * p.dynamodb.pitrPerGbMonth,
    S3:
      usage.s3StoredGb * p.s3.perGbMonth +
      (usage.s3Puts / 1000) * p.s3.perThousandPuts +
      (usage.s3Gets / 1000) * p.s3.perThousandGets,
    'Step Functions':
      (above(usage.stepTransitions, p.stepFunctions.freeTransitions) / 1000) * p.stepFunctions.perThousandTransitions,
    CloudFront:
      above(usage.cloudFrontGb, p.cloudFront.freeGb) * p.cloudFront.perGbOut +
      (above(usage.cloudFrontRequests, p.cloudFront.freeRequests) / 10_000) * p.cloudFront.perTenThousandHttpsRequests,
    Cognito: above(usage.cognitoMau, p.cognito.freeFederatedMau) * p.cognito.perFederatedMau,
    Textract: (usage.textractPages / 1000) * p.textract.perThousandPages,
    SES: (usage.emails / 1000) * p.ses.perThousandEmails + usage.emailAttachmentGb * p.ses.perGbAttachments,
    CloudWatch:
      above(inventory.alarmMetrics, p.cloudWatch.freeAlarms) * p.cloudWatch.perAlarmMetric +
      inventory.dashboards * p.cloudWatch.perDashboard +
      above(usage.billedCustomMetrics, p.cloudWatch.freeCustomMetrics) * p.cloudWatch.perCustomMetric +
      above(usage.logsGb, p.cloudWatch.freeGbLogs) * p.cloudWatch.perGbLogsIngested +
      // Logs are kept six months (PortalFunction): six months of ingestion stored.
      usage.logsGb * 6 * p.cloudWatch.perGbLogsStored,
    'X-Ray': (above(usage.xrayTraces, p.xray.freeTraces) / 1e6) * p.xray.perMillionTraces,
    Backup:
      usage.dynamoStoredGb * a.backupTableCopies * p.backup.dynamodbPerGbMonth +
      usage.s3StoredGb * p.backup.s3PerGbMonth,
    // Every request to CloudFront is inspected by the web ACL.
    WAF:
      inventory.webAcls * p.waf.perWebAcl +
      inventory.webAclRules * p.waf.perRule +
      (inventory.webAcls > 0 ? (usage.cloudFrontRequests / 1e6) * p.waf.perMillionRequests : 0),
    'Altro (KMS, Secrets Manager)': inventory.kmsKeys * p.other.perKmsKey + inventory.secrets * p.other.perSecret,
  };
  return { byService, total: Object.values(byService).reduce((sum, usd) => sum + usd, 0) };
}

/** The same prices with no always-free allowance: what a second copy in the same account pays (production used them). */
export function withoutFreeAllowances(p: Prices): Prices {
  return {
    ...p,
    lambda: { ...p.lambda, freeRequests: 0, freeGbSeconds: 0 },
    dynamodb: { ...p.dynamodb, freeGb: 0 },
    stepFunctions: { ...p.stepFunctions, freeTransitions: 0 },
    cloudFront: { ...p.cloudFront, freeGb: 0, freeRequests: 0 },
    cognito: { ...p.cognito, freeFederatedMau: 0 },
    cloudWatch: { ...p.cloudWatch, freeAlarms: 0, freeCustomMetrics: 0, freeGbLogs: 0 },
    xray: { ...p.xray, freeTraces: 0 },
  };
}

/**
 * A staging copy in the same account (README): the same inventory (every alarm, key, secret and dashboard of its
 * own), the usage of a small council, and no free allowance left.
 */
export function stagingBill(
  inventory: Inventory,
  p: Prices = milanPrices,
  a: UsageAssumptions = usageAssumptions,
): Bill {
  return monthlyBill(
    monthlyUsage(councilOf(a.stagingInhabitants), inventory, a),
    inventory,
    withoutFreeAllowances(p),
    a,
  );
}
