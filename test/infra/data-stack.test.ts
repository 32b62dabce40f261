import { Template, Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { table as tableKeys } from '../../functions/adapters/table.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';

let portal: ScratchApp;
let data: Template;

beforeAll(() => {
  portal = scratchApp({
    bundle: false,
    context: {
      webDomainName: 'servizisociali.comune.example.it',
      certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
    },
  });
  data = Template.fromStack(portal.data);
});
afterAll(() => portal.dispose());

const buckets = () => Object.entries(data.findResources('AWS::S3::Bucket'));
const bucketWithLogPrefix = (prefix: string) =>
  buckets().find(([, b]) => b.Properties.LoggingConfiguration?.LogFilePrefix === prefix)!;

describe('data stack (stateful)', () => {
  it('is protected against deletion, and so are its table and buckets', () => {
    expect(portal.data.terminationProtection).toBe(true);
    for (const [, resource] of [...Object.entries(data.findResources('AWS::DynamoDB::Table')), ...buckets()]) {
      expect(resource.DeletionPolicy).toBe('Retain');
      expect(resource.UpdateReplacePolicy).toBe('Retain');
    }
  });

  it('gives the table name as an output, for the commands an engineer runs (TABLE_NAME)', () => {
    const [tableId] = Object.keys(data.findResources('AWS::DynamoDB::Table'));
    data.hasOutput('TableName', { Value: { Ref: tableId } });
  });

  it('has the one table with the key schema the local runtime uses, billed per request', () => {
    data.resourceCountIs('AWS::DynamoDB::Table', 1);
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableKeys.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      AttributeDefinitions: Match.arrayWith(
        [
          tableKeys.partitionKey,
          tableKeys.sortKey,
          ...tableKeys.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
        ].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      ),
    });
  });

  it('keeps point-in-time recovery, encryption at rest and deletion protection on the table', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      // SSEEnabled alone means KMS with the AWS-managed key (aws/dynamodb).
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('expires short-lived items (the support form’s rate-limit counters) by their expiresAt attribute', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('has three private, encrypted buckets that refuse plain HTTP', () => {
    expect(buckets()).toHaveLength(3);
    for (const [id, bucket] of buckets()) {
      expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(
        bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault
          .SSEAlgorithm,
        id,
      ).toBe('AES256');
      data.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: id },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('logs access to the documents and exports buckets into the access-log bucket', () => {
    const [, documents] = bucketWithLogPrefix('documents/');
    const [, exports] = bucketWithLogPrefix('exports/');
    const [logsId] = buckets().find(([, b]) => !b.Properties.LoggingConfiguration)!;
    expect(documents.Properties.LoggingConfiguration.DestinationBucketName).toEqual({ Ref: logsId });
    expect(exports.Properties.LoggingConfiguration.DestinationBucketName).toEqual({ Ref: logsId });
  });

  it('versions the documents and lets the web app upload to them from its own origin only', () => {
    const [, documents] = bucketWithLogPrefix('documents/');
    expect(documents.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(documents.Properties.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({
        AllowedOrigins: ['https://servizisociali.comune.example.it'],
        AllowedMethods: ['PUT', 'POST'],
      }),
    ]);
  });

  it('lets export files expire after a year', () => {
    const [, exports] = bucketWithLogPrefix('exports/');
    expect(exports.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ ExpirationInDays: 365, Status: 'Enabled' }),
    ]);
  });
});

describe('data stack without a custom web domain', () => {
  it('allows presigned uploads from CloudFront domains only, never from any origin', () => {
    const plain = sharedPortal({ bundle: false });
    try {
      const rules = Template.fromStack(plain.data).findResources('AWS::S3::Bucket');
      const origins = Object.values(rules)
        .flatMap((b) => b.Properties.CorsConfiguration?.CorsRules ?? [])
        .flatMap((r) => r.AllowedOrigins);
      expect(origins).toEqual(['https://*.cloudfront.net']);
    } finally {
      plain.dispose();
    }
  });
});

describe('backups outside the blast radius (AWS Backup)', () => {
  const ruleNamed = (template: Template, name: string) =>
    Object.values(template.findResources('AWS::Backup::BackupPlan'))[0]!.Properties.BackupPlan.BackupPlanRule.find(
      (r: any) => r.RuleName === name,
    );

  it('backs up the table and the documents bucket daily and monthly into a vault with a key of its own, kept as configured', () => {
    data.resourceCountIs('AWS::Backup::BackupPlan', 1);
    const [tableId] = Object.keys(data.findResources('AWS::DynamoDB::Table'));
    const [documentsId] = bucketWithLogPrefix('documents/');
    const [selection] = Object.values(data.findResources('AWS::Backup::BackupSelection'));
    expect(JSON.stringify(selection!.Properties.BackupSelection.Resources)).toContain(tableId);
    expect(JSON.stringify(selection!.Properties.BackupSelection.Resources)).toContain(documentsId);
    // The role may back up and restore DynamoDB and S3.
    const role =
      data.findResources('AWS::IAM::Role')[selection!.Properties.BackupSelection.IamRoleArn['Fn::GetAtt'][0]];
    expect(JSON.stringify(role!.Properties.ManagedPolicyArns)).toMatch(
      /AWSBackupServiceRolePolicyForS3Backup.*AWSBackupServiceRolePolicyForS3Restore|AWSBackupServiceRolePolicyForS3Restore.*AWSBackupServiceRolePolicyForS3Backup/,
    );
    expect(ruleNamed(data, 'Giornaliero').Lifecycle.DeleteAfterDays).toBe(35);
    expect(ruleNamed(data, 'Mensile').Lifecycle.DeleteAfterDays).toBe(365);
    expect(ruleNamed(data, 'Giornaliero').CopyActions).toBeUndefined();
    const [vault] = Object.values(data.findResources('AWS::Backup::BackupVault'));
    expect(vault!.Properties.EncryptionKeyArn['Fn::GetAtt'][0]).toMatch(/VaultKey/);
    expect(vault!.DeletionPolicy).toBe('Retain');
  });

  it('copies every recovery point to the vault of another account or region when the setting names one, and refuses what is not a vault', () => {
    const copyVault = 'arn:aws:backup:eu-central-1:222222222222:backup-vault:portale-copia';
    const withCopy = scratchApp({
      bundle: false,
      context: { backupCopyVaultArn: copyVault, backupDailyRetentionDays: '60' },
    });
    try {
      const template = Template.fromStack(withCopy.data);
      for (const name of ['Giornaliero', 'Mensile'])
        expect(ruleNamed(template, name).CopyActions).toEqual([
          expect.objectContaining({ DestinationBackupVaultArn: copyVault }),
        ]);
      expect(ruleNamed(template, 'Giornaliero').CopyActions[0].Lifecycle.DeleteAfterDays).toBe(60);
    } finally {
      withCopy.dispose();
    }
    expect(() => scratchApp({ bundle: false, context: { backupCopyVaultArn: 'arn:aws:s3:::un-bucket' } })).toThrow(
      /backupCopyVaultArn/,
    );
    expect(() => scratchApp({ bundle: false, context: { backupDailyRetentionDays: '1' } })).toThrow(
      /backupDailyRetentionDays/,
    );
  });
});

describe('retention (README "Retention")', () => {
  it('deletes the ISEE attestations after their years (lifecycle) and gives every function the years of each kind for the TTL it writes', () => {
    const [, documents] = bucketWithLogPrefix('documents/');
    expect(documents.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({
        Id: 'IseeDocumentsRetention',
        Prefix: 'isee/',
        ExpirationInDays: 3653,
        Status: 'Enabled',
      }),
    );
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
    const fn = Object.values(Template.fromStack(portal.api).findResources('AWS::Lambda::Function'))[0]!;
    expect(fn.Properties.Environment.Variables).toMatchObject({
      RETENTION_ISEE_DOCUMENTS_YEARS: '10',
      RETENTION_SUPPORT_MESSAGES_YEARS: '2',
      RETENTION_PAYMENT_RECORDS_YEARS: '10',
      RETENTION_AUDIT_ENTRIES_YEARS: '10',
    });
  });

  it('refuses to keep payment records or their audit less than the law requires, or anything for ever', () => {
    expect(() => scratchApp({ bundle: false, context: { retentionPaymentRecordsYears: '5' } })).toThrow(
      /retentionPaymentRecordsYears.*10.*art\. 2220/,
    );
    expect(() => scratchApp({ bundle: false, context: { retentionAuditEntriesYears: '3' } })).toThrow(
      /retentionAuditEntriesYears/,
    );
    expect(() => scratchApp({ bundle: false, context: { retentionSupportMessagesYears: '1000' } })).toThrow(
      /retentionSupportMessagesYears/,
    );
    const longer = scratchApp({
      bundle: false,
      context: { retentionIseeDocumentsYears: '5', retentionSupportMessagesYears: '3' },
    });
    try {
      const rules = Object.values(Template.fromStack(longer.data).findResources('AWS::S3::Bucket')).flatMap(
        (b: any) => b.Properties.LifecycleConfiguration?.Rules ?? [],
      );
      expect(rules).toContainEqual(expect.objectContaining({ Id: 'IseeDocumentsRetention', ExpirationInDays: 1827 }));
      const fn = Object.values(Template.fromStack(longer.api).findResources('AWS::Lambda::Function'))[0]!;
      expect(fn.Properties.Environment.Variables.RETENTION_SUPPORT_MESSAGES_YEARS).toBe('3');
    } finally {
      longer.dispose();
    }
  });
});
