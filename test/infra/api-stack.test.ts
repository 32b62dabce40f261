import { Stack, Validations } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources, routeKey, routes, type Resource } from '../../functions/routes.ts';
import { table } from '../../functions/adapters/table.ts';
import { functionAccess } from '../../lib/function-access.ts';
import { PortalFunction } from '../../lib/portal-function.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';

let portal: ScratchApp;
let api: Template;

beforeAll(() => {
  portal = sharedPortal({ bundle: false });
  api = Template.fromStack(portal.api);
});
afterAll(() => portal.dispose());

const logicalId = (fn: PortalFunction) => portal.api.resolve((fn.node.defaultChild as CfnFunction).logicalId) as string;
const functionOf = (resource: Resource) => logicalId(portal.api.functions[resource]);

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
function statementsOf(resource: Resource): Statement[] {
  const fn = api.findResources('AWS::Lambda::Function')[functionOf(resource)];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(api.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const actions = (s: Statement) => [s.Action].flat();

describe('api stack: functions', () => {
  it("has exactly one function per resource of the route table, the MyPay export's task, the background jobs' functions, and nothing else", () => {
    const functions = api.findResources('AWS::Lambda::Function');
    const { jobFunctions, scheduledJobs } = portal.api.backgroundJobs;
    expect(Object.keys(functions).sort()).toEqual(
      [
        ...resources.map(functionOf),
        logicalId(portal.api.paymentExport.taskFunction),
        ...Object.values(jobFunctions).map(logicalId),
        logicalId(scheduledJobs),
      ].sort(),
    );
    for (const resource of resources) {
      expect(functions[functionOf(resource)].Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe(resource);
    }
  });

  it('runs every function of the portal on Node.js 22, arm64, traced, with source maps', () => {
    for (const resource of resources) {
      api.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: Match.absent(),
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        TracingConfig: { Mode: 'Active' },
        Environment: {
          Variables: {
            NODE_OPTIONS: '--enable-source-maps',
            POWERTOOLS_SERVICE_NAME: resource,
            POWERTOOLS_METRICS_NAMESPACE: 'PortaleServiziSociali/Portale',
            POWERTOOLS_LOG_LEVEL: 'INFO',
            TABLE_NAME: functionAccess[resource].table ? Match.anyValue() : Match.absent(),
          },
        },
      });
    }
  });

  it("tells apart the portal's functions from CDK's own helpers across the app", () => {
    const kinds = portal.app.node
      .findAll()
      .filter((c): c is CfnFunction => c instanceof CfnFunction)
      .map((cfn) => {
        if (cfn.node.scope instanceof PortalFunction) return `portal:${cfn.node.scope.node.path}`;
        if (/\/Custom::CDKBucketDeployment[0-9A-F]{32}/.test(cfn.node.path)) return 'cdk:BucketDeployment';
        return `unexpected:${cfn.node.path}`;
      });
    expect(kinds.sort()).toEqual(
      [
        ...resources.map((r) => `portal:PortaleApi/${r}`),
        'portal:PortaleApi/PaymentExport/FlowTask',
        'portal:PortaleApi/BackgroundJobs/PaymentJobs',
        'portal:PortaleApi/BackgroundJobs/EnrolmentJobs',
        'portal:PortaleApi/BackgroundJobs/NoticeJobs',
        'portal:PortaleApi/BackgroundJobs/IseeJobs',
        'portal:PortaleApi/BackgroundJobs/ScheduledJobs',
        'portal:PortaleAuth/PreTokenGeneration',
        'portal:PortaleIseeExtraction/IseeExtraction/ReadAttestation',
        'portal:PortaleIseeExtraction/IseeExtraction/WriteExtraction',
        'portal:PortaleOperations/Migrations/MigrationTask',
        'portal:PortaleOperations/Migrations/StartMigrations',
        'cdk:BucketDeployment',
      ].sort(),
    );
  });

  it('keeps a log group with a retention for every function', () => {
    for (const resource of resources) {
      const fn = api.findResources('AWS::Lambda::Function')[functionOf(resource)];
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref;
      expect(api.findResources('AWS::Logs::LogGroup')[logGroupId].Properties.RetentionInDays).toBe(180);
    }
  });
});

describe('api stack: routes (from functions/routes.ts)', () => {
  const routesInStack = () => Object.values(api.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties);

  it('has one route per entry of the route table, no more', () => {
    expect(
      routesInStack()
        .map((r) => r.RouteKey)
        .sort(),
    ).toEqual(routes.map(routeKey).sort());
  });

  it.each(routes.map((route) => [routeKey(route), route] as const))(
    '%s: authorizer and function as the route table says',
    (key, route) => {
      const found = routesInStack().find((r) => r.RouteKey === key)!;
      if (route.access === 'public') {
        expect(found.AuthorizationType).toBe('NONE');
        expect(found.AuthorizerId).toBeUndefined();
      } else {
        expect(found.AuthorizationType).toBe('JWT');
        expect(JSON.stringify(found.AuthorizerId)).toMatch(/CognitoJwt/);
      }
      const integrationId = found.Target['Fn::Join'][1][1].Ref;
      const integration = api.findResources('AWS::ApiGatewayV2::Integration')[integrationId].Properties;
      expect(integration).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [functionOf(route.resource), 'Arn'] },
      });
    },
  );

  it("has every function a route calls end before API Gateway stops waiting for it, so a slow request gets the portal's answer", () => {
    // An HTTP API waits for an integration TimeoutInMillis, "between 50 and 30,000 milliseconds for HTTP APIs. The
    // default timeout is ... 30 seconds for HTTP APIs" (API Gateway v2 reference, Integration.timeoutInMillis). Past
    // it the client gets the gateway's own error while the function runs on. A function that ends first answers with
    // the portal's (functions/http/handler.ts gives a route's work a deadline a second before the function's timeout).
    // Which functions have 29 s: docs/operations.md, checked by runbook.test.ts; the long timeouts of the background
    // jobs and of the export's task: background-jobs.test.ts and payment-export.test.ts.
    const HTTP_API_MAX_WAIT_MS = 30_000;
    const functions = api.findResources('AWS::Lambda::Function');
    const integrations = Object.values(api.findResources('AWS::ApiGatewayV2::Integration')).map((i) => i.Properties);
    expect(integrations.map((i) => i.IntegrationUri['Fn::GetAtt'][0]).sort()).toEqual(resources.map(functionOf).sort());
    for (const integration of integrations) {
      const id = integration.IntegrationUri['Fn::GetAtt'][0];
      const gatewayWaitsMs = integration.TimeoutInMillis ?? HTTP_API_MAX_WAIT_MS;
      expect(gatewayWaitsMs).toBeLessThanOrEqual(HTTP_API_MAX_WAIT_MS);
      expect(functions[id].Properties.Timeout * 1000, id).toBeLessThan(gatewayWaitsMs);
    }
  });

  it('lets API Gateway invoke each function only for the paths of its own routes', () => {
    const permissions = Object.values(api.findResources('AWS::Lambda::Permission')).map((p) => p.Properties);
    for (const resource of resources) {
      const paths = permissions
        .filter((p) => p.FunctionName['Fn::GetAtt'][0] === functionOf(resource))
        .map((p) => {
          expect(p.Principal).toBe('apigateway.amazonaws.com');
          const parts = p.SourceArn['Fn::Join'][1];
          return String(parts[parts.length - 1]).replace('/*/*', '');
        });
      expect(new Set(paths)).toEqual(new Set(routes.filter((r) => r.resource === resource).map((r) => r.path)));
    }
  });
});

describe('api stack: least privilege', () => {
  it('gives the table only to the resources the access map names, on the table and its indexes only', () => {
    for (const resource of resources) {
      const dynamo = statementsOf(resource).filter((s) => actions(s).some((a) => a.startsWith('dynamodb:')));
      const access = functionAccess[resource].table;
      if (!access) {
        expect(dynamo, resource).toEqual([]);
        continue;
      }
      expect(dynamo, resource).toHaveLength(1);
      const [tableArn, ...indexArns] = dynamo[0].Resource as unknown[];
      expect(JSON.stringify(tableArn)).toMatch(/PortaleData.*Table.*Arn/);
      expect(indexArns).toEqual(
        table.indexes.map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index.name}`]] })),
      );
      expect(actions(dynamo[0])).not.toContain('dynamodb:Scan');
      const writes = actions(dynamo[0]).filter((a) => /Put|Update|Delete|Write/.test(a));
      expect(writes.length > 0, resource).toBe(access === 'RW');
    }
  });

  it('keeps the public function away from any data, and the profile function away from files', () => {
    const touched = statementsOf('public').flatMap(actions);
    // Its one secret is the origin-verify header's (lib/web-stack.ts), which every API function checks.
    expect(touched.sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    expect(
      statementsOf('profile')
        .flatMap(actions)
        .filter((a) => a.startsWith('s3:')),
    ).toEqual([]);
  });

  it('writes logs only into the function’s own log group (no managed policy)', () => {
    for (const role of Object.values(api.findResources('AWS::IAM::Role')))
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    for (const resource of resources) {
      const logs = statementsOf(resource).find((s) => actions(s).includes('logs:PutLogEvents'))!;
      const fn = api.findResources('AWS::Lambda::Function')[functionOf(resource)];
      expect(logs.Resource).toEqual({ 'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] });
    }
  });
});

describe('api stack: S3 objects (Amazon S3 API Reference, GetObject / HeadObject "Permissions")', () => {
  const s3Statements = (resource: Resource) =>
    statementsOf(resource).filter((s) => actions(s).some((a) => a.startsWith('s3:')));

  it('lets the citizen’s payments function leave a notice PDF under notices/ of the exports bucket, and write nothing else', () => {
    const statements = s3Statements('user-positions');
    const writes = statements.filter((s) => actions(s).some((a) => /^s3:(Put|Delete)/.test(a)));
    expect(writes).toHaveLength(1);
    expect(actions(writes[0]!)).toEqual(['s3:PutObject']);
    expect(JSON.stringify(writes[0]!.Resource)).toMatch(/PortaleData.*Exports.*Arn.*\/notices\/\*/);
    // It reads every key it looks up (the notice PDFs, MyPay's ZIPs): a 403 there can only mean "not there".
    const reads = statements.filter((s) => actions(s).includes('s3:GetObject'));
    expect(reads.map((s) => JSON.stringify(s.Resource))).toEqual([
      expect.stringMatching(/PortaleData.*Exports.*Arn.*\/\*"/),
    ]);
  });

  it('grants no s3:ListBucket: a missing key answers 403 AccessDenied, which the code reads as missing (functions/adapters/s3-client.ts)', () => {
    const all = Object.values(api.findResources('AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as Statement[],
    );
    expect(all.flatMap(actions).filter((a) => /^s3:(ListBucket|\*)/.test(a))).toEqual([]);
  });
});

describe('api stack: e-mail (SES v2)', () => {
  const ses = (resource: Resource) =>
    statementsOf(resource).filter((s) => actions(s).some((a) => a.startsWith('ses:')));

  it('lets only the functions the access map names send mail: SendEmail alone, on the sender’s identity, from the sender only', () => {
    for (const resource of resources) {
      const statements = ses(resource);
      if (!functionAccess[resource].mail) {
        expect(statements, resource).toEqual([]);
        continue;
      }
      expect(statements, resource).toHaveLength(1);
      const [statement] = statements as (Statement & { Condition: unknown })[];
      expect(actions(statement)).toEqual(['ses:SendEmail']);
      expect(JSON.stringify(statement.Resource)).toMatch(/:ses:.*:identity\/comune\.example\.it/);
      expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'noreply@comune.example.it' } });
    }
    expect(functionAccess.tickets.mail).toBe('SEND');
  });

  it('passes the sender and the support address from context, never from code', () => {
    const configured = scratchApp({
      bundle: false,
      context: {
        mailFrom: 'servizi@comune.trento.it',
        supportEmail: 'help@comune.trento.it',
        mailIdentityArn: 'arn:aws:ses:eu-south-1:111111111111:identity/comune.trento.it',
      },
    });
    try {
      const template = Template.fromStack(configured.api);
      const fn =
        template.findResources('AWS::Lambda::Function')[
          configured.api.resolve((configured.api.functions.tickets.node.defaultChild as CfnFunction).logicalId)
        ];
      expect(fn.Properties.Environment.Variables).toMatchObject({
        MAIL_FROM: 'servizi@comune.trento.it',
        SUPPORT_EMAIL: 'help@comune.trento.it',
      });
      const statement = Object.values(template.findResources('AWS::IAM::Policy'))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as (Statement & { Condition: unknown })[])
        .find((s) => actions(s).includes('ses:SendEmail'))!;
      expect(statement.Resource).toBe('arn:aws:ses:eu-south-1:111111111111:identity/comune.trento.it');
      expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'servizi@comune.trento.it' } });
    } finally {
      configured.dispose();
    }
  });
});

describe('api stack: where MyPay sends citizens back (issue 21, open redirect)', () => {
  it('gives the portal’s own address, the web stack’s URL, to the citizen payments function alone', () => {
    const functions = api.findResources('AWS::Lambda::Function');
    for (const resource of resources) {
      const variables = functions[functionOf(resource)].Properties.Environment.Variables;
      expect('PORTAL_URL' in variables, resource).toBe(resource === 'user-positions');
    }
    const portalUrl = JSON.stringify(
      functions[functionOf('user-positions')].Properties.Environment.Variables.PORTAL_URL,
    );
    // A reference to the web stack's distribution (its domain), never a value a request could choose.
    expect(portalUrl).toContain('https://');
    expect(portalUrl).toMatch(/Fn::ImportValue|DomainName/);
  });
});

describe('api stack: secrets read at run time', () => {
  const allFunctions = () =>
    portal.app.node.children
      .filter((c): c is Stack => Stack.isStack(c))
      .flatMap((stack) =>
        Object.entries(Template.fromStack(stack).findResources('AWS::Lambda::Function')).map(([id, fn]) => ({
          stack,
          id,
          fn,
        })),
      );

  it('puts no secret value in any function’s environment of any stack: no dynamic reference, no MyPay password, no IO key, no cursor key', () => {
    const checked = allFunctions();
    expect(checked.length).toBeGreaterThan(resources.length);
    for (const { id, fn } of checked) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      expect(JSON.stringify(variables), id).not.toContain('{{resolve:secretsmanager');
      expect(
        Object.keys(variables).filter((name) =>
          ['MYPAY_PASSWORD', 'MYPAY_ENDPOINT', 'MYPAY_COD_IPA', 'IO_API_KEY', 'CURSOR_SECRET'].includes(name),
        ),
        id,
      ).toEqual([]);
    }
  });

  it('lets a function read a secret (GetSecretValue, nothing else) only if it names it, and only that secret', () => {
    const policies = Object.values(api.findResources('AWS::IAM::Policy'));
    const roleOf = (id: string) => api.findResources('AWS::Lambda::Function')[id].Properties.Role['Fn::GetAtt'][0];
    const secretStatements = (id: string) =>
      policies
        .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleOf(id) }]))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => actions(s).some((a) => a.startsWith('secretsmanager:')));
    const cursorSecretId = Object.keys(api.findResources('AWS::SecretsManager::Secret'))[0]!;
    let readers = 0;
    for (const [id, fn] of Object.entries(api.findResources('AWS::Lambda::Function'))) {
      const variables = fn.Properties.Environment.Variables;
      const expected: RegExp[] = [];
      if (variables.MYPAY_SECRET_NAME) expected.push(/:secret:portale-servizi-sociali\/mypay-\?{6}"/);
      if (variables.IO_SECRET_NAME) expected.push(/:secret:portale-servizi-sociali\/io-api-key-\?{6}"/);
      if (variables.CURSOR_SECRET_ARN) {
        expect(variables.CURSOR_SECRET_ARN, id).toEqual({ Ref: cursorSecretId });
        expected.push(new RegExp(`^\\{"Ref":"${cursorSecretId}"\\}$`));
      }
      // The origin-verify secret is the web stack's (lib/web-stack.ts): every API function checks the header.
      if (variables.ORIGIN_VERIFY_SECRET_ARN) {
        expect(JSON.stringify(variables.ORIGIN_VERIFY_SECRET_ARN), id).toContain('OriginVerifySecret');
        expected.push(/OriginVerifySecret/);
      }
      const statements = secretStatements(id);
      expect([...new Set(statements.flatMap(actions))], id).toEqual(
        expected.length ? ['secretsmanager:GetSecretValue'] : [],
      );
      const granted = statements
        .flatMap((statement) => [statement.Resource].flat())
        .map((resource) => JSON.stringify(resource));
      expect(granted, id).toHaveLength(expected.length);
      for (const pattern of expected)
        expect(
          granted.filter((resource) => pattern.test(resource)),
          `${id} ${pattern}`,
        ).toHaveLength(1);
      if (statements.length) readers += 1;
    }
    // The MyPay readers (user-positions, the export's task, the payment jobs) and IO's (notices, the flow e-mail and ISEE jobs) among them.
    expect(
      api.findResources('AWS::Lambda::Function')[functionOf('user-positions')].Properties.Environment.Variables
        .MYPAY_SECRET_NAME,
    ).toBe('portale-servizi-sociali/mypay');
    expect(
      api.findResources('AWS::Lambda::Function')[logicalId(portal.api.paymentExport.taskFunction)].Properties
        .Environment.Variables.MYPAY_SECRET_NAME,
    ).toBe('portale-servizi-sociali/mypay');
    expect(
      api.findResources('AWS::Lambda::Function')[functionOf('public')].Properties.Environment.Variables,
    ).not.toHaveProperty('CURSOR_SECRET_ARN');
    // The public function reads no secret but the origin-verify one.
    expect(
      secretStatements(functionOf('public')).flatMap((statement) => [statement.Resource].flat().map(String)),
    ).toHaveLength(1);
    for (const resource of resources)
      expect(
        api.findResources('AWS::Lambda::Function')[functionOf(resource)].Properties.Environment.Variables,
        resource,
      ).toHaveProperty('ORIGIN_VERIFY_SECRET_ARN');
    expect(readers).toBeGreaterThan(3);
  });
});

describe('api stack: the IO app (notices)', () => {
  const ioEnv = ['IO_BASE_URL', 'IO_SECRET_NAME'];

  it('gives the IO settings to the notices function alone, the key as the secret’s name, read at run time', () => {
    const functions = api.findResources('AWS::Lambda::Function');
    for (const resource of resources) {
      const variables = functions[functionOf(resource)].Properties.Environment.Variables;
      const has = ioEnv.filter((name) => name in variables);
      expect(has, resource).toEqual(functionAccess[resource].io ? ioEnv : []);
    }
    const variables = functions[functionOf('notices')].Properties.Environment.Variables;
    expect(variables.IO_SECRET_NAME).toBe('portale-servizi-sociali/io-api-key');
    expect(variables).not.toHaveProperty('IO_API_KEY');
    expect(variables).toMatchObject({
      IO_BASE_URL: 'https://api.io.pagopa.it',
      MAIL_FROM: 'noreply@comune.example.it',
    });
    expect(functions[functionOf('notices')].Properties.Timeout).toBe(29);
  });

  it('lets the notices function read the exports bucket (the PDFs) and never write it', () => {
    const s3 = statementsOf('notices').filter((s) => actions(s).some((a) => a.startsWith('s3:')));
    expect(s3.length).toBeGreaterThan(0);
    expect(s3.flatMap(actions).filter((a) => /^s3:(Put|Delete)/.test(a))).toEqual([]);
    expect(functionAccess.notices).toEqual({ table: 'RW', exports: 'R', mail: 'SEND', io: 'SEND' });
  });

  it('takes base URL and secret name from context; no payee (IO refuses it: io-messages CreateMessage/handler.ts), and a context still naming one stops the synth', () => {
    const configured = scratchApp({
      bundle: false,
      context: { ioBaseUrl: 'https://io.example.org', ioSecretName: 'comune/io' },
    });
    try {
      const template = Template.fromStack(configured.api);
      const fn =
        template.findResources('AWS::Lambda::Function')[
          configured.api.resolve((configured.api.functions.notices.node.defaultChild as CfnFunction).logicalId)
        ];
      expect(fn.Properties.Environment.Variables).toMatchObject({
        IO_BASE_URL: 'https://io.example.org',
        IO_SECRET_NAME: 'comune/io',
      });
      expect(JSON.stringify(template.toJSON())).toContain(':secret:comune/io-??????');
      expect(fn.Properties.Environment.Variables).not.toHaveProperty('IO_PAYEE_FISCAL_CODE');
    } finally {
      configured.dispose();
    }
    expect(() => scratchApp({ bundle: false, context: { ioPayeeFiscalCode: '80012340123' } })).toThrow(
      /ApiMessageWriteWithPayee/,
    );
  });
});

describe('api stack: MyPay’s mode and payment type', () => {
  it('gives the functions that reach MyPay its mode and whether its payment type requires a due date, from the context, and never a Region password', () => {
    const variablesOf = (app: ScratchApp) => {
      const template = Template.fromStack(app.api).findResources('AWS::Lambda::Function');
      return app.api.resolve(
        template[app.api.resolve((app.api.functions['user-positions'].node.defaultChild as CfnFunction).logicalId)]
          .Properties.Environment.Variables,
      );
    };
    expect(JSON.stringify(Template.fromStack(portal.api).toJSON())).not.toContain('defaultEntityPassword');
    expect(variablesOf(portal)).toMatchObject({ MYPAY_MODELLO_UNICO: 'true', MYPAY_SCADENZA_OBBLIGATORIA: 'false' });
    const configured = scratchApp({
      bundle: false,
      context: { mypayModelloUnico: 'false', mypayScadenzaObbligatoria: 'true' },
    });
    try {
      expect(variablesOf(configured)).toMatchObject({
        MYPAY_MODELLO_UNICO: 'false',
        MYPAY_SCADENZA_OBBLIGATORIA: 'true',
      });
    } finally {
      configured.dispose();
    }
    // The Region's password is no longer a setting: a context still naming it stops the synth with why.
    expect(() => scratchApp({ bundle: false, context: { mypayDefaultEntityPassword: 'true' } })).toThrow(
      /paaSILVerificaAvviso/,
    );
  });
});

describe('api stack: a bucket bound to a function (as later resources will need)', () => {
  it('grants object access to that one bucket, with the IAM5 wildcard acknowledged for that bucket only', () => {
    const bound = scratchApp({ bundle: false });
    try {
      bound.api.functions.profile.bindBucket('DOCUMENTS_BUCKET', bound.data.documents, 'RW');
      // cdk-nag runs in the synth: it fails if the acknowledgement does not match the finding exactly.
      const template = Template.fromStack(bound.api);
      const fn = template.findResources('AWS::Lambda::Function')[logicalId(bound.api.functions.profile)];
      expect(fn.Properties.Environment.Variables.DOCUMENTS_BUCKET).toBeDefined();
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(template.findResources('AWS::IAM::Policy'))
        .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
      const s3 = statements.filter((s) => actions(s).some((a) => a.startsWith('s3:')));
      expect(s3).toHaveLength(1);
      expect(actions(s3[0]).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
      expect(JSON.stringify(s3[0].Resource)).toMatch(/PortaleData.*Documents.*Arn.*\/\*/);
      const acknowledged = bound.api.functions.profile
        .role!.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.keys(m.data));
      expect(acknowledged.filter((id) => id.includes('IAM5[Resource::') && id.includes('Documents'))).toHaveLength(1);
    } finally {
      bound.dispose();
    }
  });
});
