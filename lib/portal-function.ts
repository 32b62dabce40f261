import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { table as tableKeys } from '../functions/adapters/table.ts';
import { metricsNamespace, retentionEnvironment, secretsRevisionOf, stackPrefixOf } from './context.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export type DataAccess = 'R' | 'RW';

export interface PortalFunctionProps {
  /** The handler module, relative to the repository root, exporting `handler`. */
  entry: string;
  /** POWERTOOLS_SERVICE_NAME: the function's own name in its logs, metrics and traces (e.g. its resource). */
  serviceName: string;
  description?: string;
  environment?: Record<string, string>;
  /** Default 10 s: an API request. Background steps (the ISEE reading) may need longer. */
  timeout?: Duration;
  /** Default 512 MB. */
  memorySize?: number;
  /**
   * Default true: Powertools (logger, metrics, tracer and the X-Ray SDK) comes from the Powertools layer
   * instead of the bundle. False for a function that imports no Powertools package (the token trigger).
   */
  powertools?: boolean;
  /** A layer of the function's own (lib/pdfjs-layer.ts) and the packages it holds, left out of the bundle. */
  ownLayer?: { layer: lambda.ILayerVersion; packages: string[] };
  /** Shell commands run once the bundle is in `outputDir` (a file the function reads beside it). */
  afterBundling?: (outputDir: string) => string[];
}

/** The Powertools version the code is tested with: the one installed from package-lock.json. */
export const powertoolsVersion: string = JSON.parse(
  readFileSync(path.join(repoRoot, 'node_modules/@aws-lambda-powertools/logger/package.json'), 'utf8'),
).version;

/**
 * AWS publishes, in every commercial region, the ARN of the Powertools layer of each version
 * (arn:aws:lambda:<region>:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:<layer version>) as a
 * public SSM parameter: CloudFormation resolves it at deploy time, so the layer is always the version
 * of node_modules, in the stack's own region (eu-south-1).
 */
export const powertoolsLayerParameter = `/aws/service/powertools/typescript/generic/all/${powertoolsVersion}`;

function powertoolsLayer(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('PowertoolsLayer') as lambda.ILayerVersion | undefined;
  return (
    existing ??
    lambda.LayerVersion.fromLayerVersionArn(
      stack,
      'PowertoolsLayer',
      ssm.StringParameter.valueForStringParameter(stack, powertoolsLayerParameter),
    )
  );
}

/**
 * Context naming the only functions to bundle, by construct id (`IseeJobs`) or path (`PortaleApi/isee`): the others get
 * a placeholder and cost no esbuild run. For tools that need a few bundles of the app (`npm run report:bundles --
 * --only`); unset, every function is bundled.
 */
export const BUNDLE_ONLY_CONTEXT = 'portale:bundle-only';

/** Whether a function is one of `names`, by its construct id or its whole path. */
export const isNamed = (names: readonly string[], fn: { id: string; path: string }) =>
  names.includes(fn.id) || names.includes(fn.path);

/** ESM bundles may still hold CommonJS code that calls require(): give it one. */
const requireShim =
  "import { createRequire as __portalCreateRequire } from 'node:module'; const require = __portalCreateRequire(import.meta.url);";

/**
 * Every Lambda of the portal: Node.js 22 on arm64, an ESM bundle built by the local esbuild (never
 * Docker) next to the Powertools layer, X-Ray tracing, its own service name (POWERTOOLS_SERVICE_NAME),
 * its own log group with a retention, and a role holding nothing but what the bind helpers grant. The
 * helpers set the environment variable and the grant together, so a function cannot know a resource it
 * may not touch, or touch one it does not know.
 */
export class PortalFunction extends NodejsFunction {
  readonly ownLayer?: PortalFunctionProps['ownLayer'];

  constructor(scope: Construct, id: string, props: PortalFunctionProps) {
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: logs.RetentionDays.SIX_MONTHS });
    // An explicit role instead of the default one, which carries the AWSLambdaBasicExecutionRole managed
    // policy (logs on every log group of the account): this one may write to its own log group only.
    const role = new iam.Role(scope, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const powertools = props.powertools ?? true;
    const bundleOnly = scope.node.tryGetContext(BUNDLE_ONLY_CONTEXT) as string[] | undefined;
    const placeholder =
      bundleOnly && !isNamed(bundleOnly, { id, path: [scope.node.path, id].filter(Boolean).join('/') });

    super(scope, id, {
      entry: path.join(repoRoot, props.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      role,
      layers: [...(powertools ? [powertoolsLayer(scope)] : []), ...(props.ownLayer ? [props.ownLayer.layer] : [])],
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: metricsNamespace(stackPrefixOf(scope.node)),
        POWERTOOLS_LOG_LEVEL: 'INFO',
        // How long each kind of personal data is kept: the expiry a function writes on what it stores.
        ...retentionEnvironment(scope.node),
        // A rotated secret reaches the functions when they are updated: a new revision updates them all.
        ...(secretsRevisionOf(scope.node) && { SECRETS_REVISION: secretsRevisionOf(scope.node)! }),
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
        // The Lambda runtime has the AWS SDK; the Powertools layer has Powertools and the X-Ray SDK.
        externalModules: [
          '@aws-sdk/*',
          ...(powertools ? ['@aws-lambda-powertools/*'] : []),
          ...(props.ownLayer?.packages ?? []),
        ],
        banner: requireShim,
        logLevel: LogLevel.WARNING,
        ...(props.afterBundling && {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (_inputDir: string, outputDir: string) => props.afterBundling!(outputDir),
          },
        }),
      },
      // Given code, NodejsFunction bundles nothing.
      ...(placeholder && {
        code: lambda.Code.fromInline('// not bundled (portale:bundle-only)'),
        handler: 'index.handler',
      }),
    });

    this.ownLayer = props.ownLayer;

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

  /**
   * <ID_VARIABLE> = the secret's name (or ARN), and secretsmanager:GetSecretValue on it alone: the function
   * reads the value at run time (functions/adapters/secrets.ts), so no value is in its configuration.
   */
  bindSecret(idVariable: string, secret: ISecret, id: string = secret.secretName): this {
    this.addEnvironment(idVariable, id);
    // A secret imported by name has a partial ARN: "-??????" stands for the six characters Secrets Manager adds
    // to its name (as the CDK's own grantRead does), so the grant still covers this one secret.
    const arn = secret.secretFullArn ?? `${secret.secretArn}-??????`;
    this.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [arn] }));
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
