import { describe, expect, it } from 'vitest';
import {
  councilOf,
  milanPrices,
  monthlyBill,
  monthlyUsage,
  services,
  stagingBill,
  type Inventory,
  type Prices,
} from '../../lib/cost-model.ts';

/** A deployment's units, as lib/cost-inventory.ts counts them in the synthesized app (round figures here). */
const inventory: Inventory = {
  alarmMetrics: 100,
  customMetrics: 100,
  kmsKeys: 1,
  secrets: 4,
  functions: 30,
  stateMachines: 4,
  dashboards: 1,
  webAcls: 1,
  webAclRules: 3,
};

/** The bill's arithmetic on a small council, computed by hand in the comments. */
const small = { citizens: 1000, activeSubscriptions: 300, iseeUploadsPerMonth: 100, pageViewsPerMonth: 40_000 };

/** Round prices, no free allowance: each line of the bill is easy to check by hand. */
const round: Prices = {
  date: 'test',
  region: 'test',
  lambda: { perMillionRequests: 0.2, perGbSecondArm: 0.00001, freeRequests: 0, freeGbSeconds: 0 },
  apiGateway: { perMillionHttpRequests: 1 },
  dynamodb: { perMillionWriteUnits: 1, perMillionReadUnits: 0.25, perGbMonth: 0.25, pitrPerGbMonth: 0.2, freeGb: 0 },
  s3: { perGbMonth: 0.02, perThousandPuts: 0.005, perThousandGets: 0.0004 },
  stepFunctions: { perThousandTransitions: 0.025, freeTransitions: 0 },
  cloudFront: { perGbOut: 0.1, perTenThousandHttpsRequests: 0.01, freeGb: 0, freeRequests: 0 },
  cognito: { perFederatedMau: 0.01, freeFederatedMau: 0 },
  textract: { perThousandPages: 1.5 },
  ses: { perThousandEmails: 0.1, perGbAttachments: 0.1 },
  cloudWatch: {
    perAlarmMetric: 0.1,
    perDashboard: 3,
    perCustomMetric: 0.3,
    perGbLogsIngested: 0.5,
    perGbLogsStored: 0.03,
    freeAlarms: 0,
    freeCustomMetrics: 0,
    freeGbLogs: 0,
  },
  other: { perKmsKey: 1, perSecret: 0.4 },
  xray: { perMillionTraces: 5, freeTraces: 0 },
  backup: { dynamodbPerGbMonth: 0.1, s3PerGbMonth: 0.05 },
  waf: { perWebAcl: 5, perRule: 1, perMillionRequests: 0.6 },
};

describe('the cost model', () => {
  it('derives the month’s usage from the size and the measured figures', () => {
    const usage = monthlyUsage(small, inventory);
    // 40,000 pages × 2.5 calls
    expect(usage.apiCalls).toBe(100_000);
    // calls + 2 exports (300 / 200, rounded up) × 21 task steps + 100 readings × 2 steps
    expect(usage.lambdaInvocations).toBe(100_242);
    // (100,000 × (60 ms + 5% × 1000 ms) + 300 positions × 10 ms + 200 reading steps × 500 ms) = 11,103 s, at 0.5 GB
    expect(usage.lambdaGbSeconds).toBeCloseTo(5551.5, 6);
    // 100,000 × 0.5 + 300 × 45; 100,000 × 4 + 300 × 10
    expect([usage.dynamoWriteUnits, usage.dynamoReadUnits]).toEqual([63_500, 403_000]);
    // 100 readings × 16 + 2 exports × 40; 100 × 5 pages; 300 × 50% notices + 1,000 × 2% × 2 support mails
    expect([usage.stepTransitions, usage.textractPages, usage.emails]).toEqual([1680, 500, 190]);
    // half the citizens sign in
    expect(usage.cognitoMau).toBe(500);
  });

  it('prices each service from the usage, line by line', () => {
    const usage = monthlyUsage(small, inventory);
    const { byService, total } = monthlyBill(usage, inventory, round);
    // 100,242 / 1M × 0.2 + 5,551.5 GB-s × 0.00001
    expect(byService.Lambda).toBeCloseTo(0.0200484 + 0.055515, 9);
    expect(byService['API Gateway']).toBeCloseTo(0.1, 9);
    // 0.0635 × 1 + 0.403 × 0.25, and the storage: (300 × 36 × 10 KB + 1,000 × 20 KB) / 1 GiB = 128,000 KB → × (0.25 + 0.2)
    expect(byService.DynamoDB).toBeCloseTo(0.0635 + 0.10075 + (128_000 / 1_048_576) * 0.45, 9);
    expect(byService['Step Functions']).toBeCloseTo(1.68 * 0.025, 9);
    expect(byService.Cognito).toBeCloseTo(5, 9);
    expect(byService.Textract).toBeCloseTo(0.75, 9);
    // 100 alarm metrics × 0.1 + the dashboard 3 + metrics and logs
    expect(byService.CloudWatch).toBeGreaterThan(13);
    expect(byService['Altro (KMS, Secrets Manager)']).toBeCloseTo(2.6, 9);
    // WAF: 1 web ACL × 5 + 3 rules × 1 + every CloudFront request inspected, at 0.6 per million
    expect(byService.WAF).toBeCloseTo(5 + 3 + (usage.cloudFrontRequests / 1e6) * 0.6, 9);
    expect(total).toBeCloseTo(
      services.reduce((sum, s) => sum + byService[s], 0),
      9,
    );
  });

  it('prices X-Ray by the requests it records (one a second, then 5%), the backups by what they hold, the keys and secrets counted', () => {
    const usage = monthlyUsage(small, inventory);
    // 100,242 invocations, all within the 900,000 seconds of working hours: each one traced.
    expect(usage.xrayTraces).toBe(100_242);
    const { byService } = monthlyBill(usage, inventory, round);
    expect(byService['X-Ray']).toBeCloseTo(0.100242 * 5, 9);
    // 8 full copies of the table (128,000 KB) and the documents once (100 uploads × 36 months × 300 KB)
    expect(byService.Backup).toBeCloseTo((128_000 / 1_048_576) * 8 * 0.1 + ((100 * 36 * 300) / 1_048_576) * 0.05, 9);
    expect(
      monthlyBill(usage, { ...inventory, kmsKeys: 3 }, round)['byService']['Altro (KMS, Secrets Manager)'],
    ).toBeCloseTo(3 + 1.6, 9);
    // A stage that attaches its own web ACL pays nothing for ours.
    expect(monthlyBill(usage, { ...inventory, webAcls: 0, webAclRules: 0 }, round).byService.WAF).toBe(0);
    // A busy city: past the reservoir, 5% of the rest.
    expect(monthlyUsage({ ...small, pageViewsPerMonth: 4_000_000 }, inventory).xrayTraces).toBeCloseTo(
      900_000 + (10_000_242 - 900_000) * 0.05,
      3,
    );
  });

  it('prices a staging copy in the same account: its own alarms, keys and dashboard, and no free allowance left', () => {
    const staging = stagingBill(inventory);
    expect(staging.byService.CloudWatch).toBeGreaterThan(
      100 * milanPrices.cloudWatch.perAlarmMetric + milanPrices.cloudWatch.perDashboard,
    );
    expect(staging.byService['Altro (KMS, Secrets Manager)']).toBeCloseTo(1 + 4 * 0.4, 9);
    expect(staging.byService.Lambda).toBeGreaterThan(0);
  });

  it('deducts AWS’s always-free allowances: a small council pays no Lambda, CloudFront or Step Functions', () => {
    const { byService } = monthlyBill(monthlyUsage(small, inventory), inventory, milanPrices);
    expect([byService.Lambda, byService.CloudFront, byService['Step Functions']]).toEqual([0, 0, 0]);
    // 500 MAU − 50 free × 0.015
    expect(byService.Cognito).toBeCloseTo(450 * 0.015, 9);
  });

  it('sizes the README’s councils from their inhabitants', () => {
    // 3% citizens, a third subscribed, 1.2 uploads a year each, 15 pages each + 10 operators × 300 × 21
    expect(councilOf(100_000)).toEqual({
      citizens: 3000,
      activeSubscriptions: 1000,
      iseeUploadsPerMonth: 300,
      pageViewsPerMonth: 45_000 + 63_000,
    });
    // at least two operators
    expect(councilOf(10_000).pageViewsPerMonth).toBe(300 * 15 + 2 * 300 * 21);
  });
});
