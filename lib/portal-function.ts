import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { table as tableKeys } from '../functions/adapters/table.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export type DataAccess = 'R' | 'RW';

export interface PortalFunctionProps {
  /** The handler module, relative to the repository root, exporting `handler`. */
  entry: string;
  /** POWERTOOLS_SERVICE_NAME: the resource the function serves. */
  serviceName: string;
  description?: string;
  environment?: Record<string, string>;
  /** Default 10 s: an API request. Background steps (the ISEE reading) may need longer. */
  timeout?: Duration;
}

/** ESM bundles may still hold CommonJS code that calls require(): give it one. */
const requireShim =
  "import { createRequire as __portalCreateRequire } from 'node:module'; const require = __portalCreateRequire(import.meta.url);";

/**
 * Every Lambda of the portal: Node.js 22 on arm64, an ESM bundle built by the local esbuild (never
 * Docker), X-Ray tracing, its own log group with a retention, and a role holding nothing but what the
 * bind helpers grant. The helpers set the environment variable and the grant together, so a function
 * cannot know a resource it may not touch, or touch one it does not know.
 */
export class PortalFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: PortalFunctionProps) {
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: logs.RetentionDays.SIX_MONTHS });
    // An explicit role instead of the default one, which carries the AWSLambdaBasicExecutionRole managed
    // policy (logs on every log group of the account): this one may write to its own log group only.
    const role = new iam.Role(scope, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);

    super(scope, id, {
      entry: path.join(repoRoot, props.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      role,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: 'PortaleServiziSociali',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // The map still points at file and line; leaving the sources out keeps the package small.
        sourcesContent: false,
        mainFields: ['module', 'main'],
        externalModules: ['@aws-sdk/*'],
        banner: requireShim,
        logLevel: LogLevel.WARNING,
      },
    });

    acknowledge(role, {
      'AwsSolutions-IAM5[Resource::*]':
        'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permission, so their resource is "*".',
    });
    acknowledge(this, {
      'AwsSolutions-L1':
        'The portal targets the nodejs22.x LTS runtime on purpose (esbuild target node22, the version the local stack is tested on); moving runtimes is a project-wide decision.',
    });
  }

  /**
   * TABLE_NAME and read (R) or read/write (RW) on the items of the table and of its indexes, named one
   * by one (no `index/*`). No Scan: no request path of the portal scans the table.
   */
  bindTable(table: ITable, access: DataAccess): this {
    this.addEnvironment('TABLE_NAME', table.tableName);
    this.addToRolePolicy(
      new iam.PolicyStatement({
        actions: access === 'RW' ? [...TABLE_READ, ...TABLE_WRITE] : TABLE_READ,
        resources: [table.tableArn, ...tableKeys.indexes.map((index) => `${table.tableArn}/index/${index.name}`)],
      }),
    );
    return this;
  }

  /** <ENV_NAME> = the bucket's name, and read (R) or read/write (RW) on its objects. */
  bindBucket(envName: string, bucket: IBucket, access: DataAccess): this {
    this.addEnvironment(envName, bucket.bucketName);
    this.addToRolePolicy(
      new iam.PolicyStatement({
        actions: access === 'RW' ? ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'] : ['s3:GetObject'],
        resources: [bucket.arnForObjects('*')],
      }),
    );
    acknowledgeWildcardResource(
      this.role!,
      bucket.arnForObjects('*'),
      `${envName}: object keys are made at run time (one per uploaded or exported file), so the grant covers the objects of this one bucket.`,
    );
    return this;
  }
}

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
