import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { table as tableKeys } from '../functions/adapters/table.ts';
import { PortalBackups, type BackupSettings } from './backups.ts';

export interface DataStackProps extends StackProps {
  /** Origins allowed to upload straight to the documents bucket with presigned requests. */
  uploadOrigins: string[];
  /** AWS Backup of the table and the documents (context backup*). */
  backup: BackupSettings;
  /** Years the ISEE attestations are kept (context retentionIseeDocumentsYears): the documents bucket deletes them after. */
  iseeDocumentsYears: number;
  /**
   * The API's own domain and its certificate in this stack's region (context apiDomainName, apiCertificateArn).
   * Made here, before the web stack maps the API onto it, so its CNAME target (output ApiDomainTarget) is known,
   * and published in the council's DNS, before the first full deploy: CloudFront reaches the API by that name.
   */
  apiDomain?: { domainName: string; certificateArn: string };
}

const stringKey = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });

/** Private, encrypted, TLS-only: the shape of every bucket of the portal. */
export const privateBucketDefaults = {
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  encryption: s3.BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
} satisfies s3.BucketProps;

/**
 * The stateful part: the data outlives every deployment of the code. Termination protection on the
 * stack and RETAIN on each resource; no physical names, so a second copy can live in the same account.
 */
export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly documents: s3.Bucket;
  readonly exports: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  /** The PDND client's private key: it signs the client assertions and never leaves KMS. */
  readonly pdndKey: kms.Key;
  readonly backups: PortalBackups;
  /** The API's regional custom domain (the web stack maps the API's stage onto it), when the stage has one. */
  readonly apiDomain?: apigwv2.DomainName;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, { terminationProtection: true, ...props });

    // The same key schema the local runtime gives dynalite (functions/adapters/table.ts).
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: stringKey(tableKeys.partitionKey),
      sortKey: stringKey(tableKeys.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Short-lived items (the support form's rate-limit counters) carry their expiry in epoch seconds.
      timeToLiveAttribute: 'expiresAt',
    });
    for (const index of tableKeys.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    // TABLE_NAME of the commands an engineer runs (npm run roles, the backfills).
    new CfnOutput(this, 'TableName', { value: this.table.tableName });

    // Target of the other buckets' server access logs (cdk-nag S1 accepts a log target without logs).
    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      ...privateBucketDefaults,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });

    this.documents = new s3.Bucket(this, 'Documents', {
      ...privateBucketDefaults,
      removalPolicy: RemovalPolicy.RETAIN,
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'documents/',
      // The browser uploads ISEE PDFs and forms with presigned PUT/POST requests; the API checks each
      // stored object before accepting it.
      cors: [
        {
          allowedOrigins: props.uploadOrigins,
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.POST],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(90), abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Retention (README "Retention"): an ISEE attestation is deleted once its years are over (its versions 90 days later).
        {
          id: 'IseeDocumentsRetention',
          prefix: 'isee/',
          expiration: Duration.days(Math.ceil(props.iseeDocumentsYears * 365.25)),
        },
      ],
    });

    // "Object Created" events to EventBridge start the ISEE reading (lib/isee-extraction.ts). Set on the
    // bucket itself: the L2 `eventBridgeEnabled` sets the same flag through a custom resource and its Lambda.
    (this.documents.node.defaultChild as s3.CfnBucket).addPropertyOverride(
      'NotificationConfiguration.EventBridgeConfiguration.EventBridgeEnabled',
      true,
    );

    // PDND Interoperabilità (reference.md "Voucher"): the e-service client's key pair. Its public key is
    // uploaded to PDND's back office (README "Before the first deploy"), which answers the kid; the
    // private key signs RS256 inside KMS (kms:Sign, RSASSA_PKCS1_V1_5_SHA_256) and never leaves it. Kept
    // with the data: replacing it means registering a new key with PDND.
    this.pdndKey = new kms.Key(this, 'PdndClientKey', {
      keySpec: kms.KeySpec.RSA_2048,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      description: 'Portale servizi sociali: chiave del client PDND (firma delle client assertion, RS256)',
      removalPolicy: RemovalPolicy.RETAIN,
    });
    new CfnOutput(this, 'PdndClientKeyArn', {
      value: this.pdndKey.keyArn,
      description:
        'KMS key of the PDND client: aws kms get-public-key --key-id <ARN>, to PEM, upload it to PDND (README)',
    });

    this.backups = new PortalBackups(this, 'Backups', {
      ...props.backup,
      table: this.table,
      documents: this.documents,
    });

    if (props.apiDomain) this.apiDomain = this.createApiDomain(props.apiDomain);

    this.exports = new s3.Bucket(this, 'Exports', {
      ...privateBucketDefaults,
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'exports/',
      // An export file matters until the payment platform has taken it in: a year leaves room for audits.
      lifecycleRules: [{ expiration: Duration.days(365), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
  }

  /**
   * The API's custom domain (regional, TLS 1.2). Long-lived like the data: its target (d-….execute-api…) is what the
   * council's DNS points apiDomainName at, and it changes only if the domain is made again.
   */
  private createApiDomain({ domainName, certificateArn }: { domainName: string; certificateArn: string }) {
    const domain = new apigwv2.DomainName(this, 'ApiDomain', {
      domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'ApiCertificate', certificateArn),
      endpointType: apigwv2.EndpointType.REGIONAL,
      securityPolicy: apigwv2.SecurityPolicy.TLS_1_2,
    });
    new CfnOutput(this, 'ApiDomainTarget', {
      description: `The CNAME (or Route 53 alias) target of ${domainName} (the council's DNS): CloudFront reaches the API there`,
      value: domain.regionalDomainName,
    });
    new CfnOutput(this, 'ApiDomainHostedZoneId', {
      description: `The hosted zone a Route 53 alias record of ${domainName} names, beside ApiDomainTarget`,
      value: domain.regionalHostedZoneId,
    });
    return domain;
  }
}
