import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledge } from './nag.ts';

export interface BackupSettings {
  /** How long each daily recovery point is kept (days). */
  dailyRetentionDays: number;
  /** How long the first recovery point of each month is kept (days). */
  monthlyRetentionDays: number;
  /**
   * A backup vault in another account or region (its ARN) that receives a copy of every recovery point, out
   * of this account's blast radius; unset: no copy.
   */
  copyVaultArn?: string;
}

export interface PortalBackupsProps extends BackupSettings {
  table: dynamodb.ITable;
  documents: s3.IBucket;
}

/**
 * AWS Backup of what cannot be made again: the table and the documents bucket (ISEE attestations, forms,
 * request files), daily and monthly into a vault of the deployment encrypted with a key of its own (a copy to
 * another account needs a customer-managed key), and, when configured, a copy of each recovery point into a
 * vault of another account or region. The table's point-in-time recovery (35 days) and the bucket's versions
 * stay: they undo a mistake of the last days in place; these recovery points survive the account's or the
 * region's loss. docs/operations.md, "Backups and the restore drill".
 */
export class PortalBackups extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;

  constructor(scope: Construct, id: string, props: PortalBackupsProps) {
    super(scope, id);
    const key = new kms.Key(this, 'VaultKey', {
      description: 'Portale servizi sociali: chiave del vault di backup',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.vault = new backup.BackupVault(this, 'Vault', { encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    const copyTo = props.copyVaultArn
      ? backup.BackupVault.fromBackupVaultArn(this, 'CopyVault', props.copyVaultArn)
      : undefined;
    const rule = (name: string, schedule: events.Schedule, days: number) =>
      new backup.BackupPlanRule({
        ruleName: name,
        backupVault: this.vault,
        scheduleExpression: schedule,
        startWindow: Duration.hours(1),
        completionWindow: Duration.hours(8),
        deleteAfter: Duration.days(days),
        copyActions: copyTo ? [{ destinationBackupVault: copyTo, deleteAfter: Duration.days(days) }] : undefined,
      });
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupVault: this.vault,
      backupPlanRules: [
        // At night (UTC), when nobody works on the portal.
        rule('Giornaliero', events.Schedule.cron({ minute: '0', hour: '1' }), props.dailyRetentionDays),
        rule('Mensile', events.Schedule.cron({ minute: '0', hour: '2', day: '1' }), props.monthlyRetentionDays),
      ],
    });

    // The role AWS Backup takes: DynamoDB and S3 backup and restore, nothing else.
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('backup.amazonaws.com'),
      managedPolicies: [
        'service-role/AWSBackupServiceRolePolicyForBackup',
        'service-role/AWSBackupServiceRolePolicyForRestores',
        'AWSBackupServiceRolePolicyForS3Backup',
        'AWSBackupServiceRolePolicyForS3Restore',
      ].map((name) => iam.ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
    acknowledge(role, {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]':
        'AWS Backup’s own service role policies are what its documentation prescribes for backing up DynamoDB and S3; a hand-written copy would drift from what the service needs.',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForRestores]':
        'AWS Backup’s own service role policy for restores (the restore drill and a real restore).',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AWSBackupServiceRolePolicyForS3Backup]':
        'AWS Backup’s own policy for S3 backups (the documents bucket): required by the service.',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AWSBackupServiceRolePolicyForS3Restore]':
        'AWS Backup’s own policy for S3 restores: required by the service.',
    });
    this.plan.addSelection('DataAndDocuments', {
      role,
      disableDefaultBackupPolicy: true,
      resources: [
        backup.BackupResource.fromDynamoDbTable(props.table),
        backup.BackupResource.fromArn(props.documents.bucketArn),
      ],
    });
  }
}
