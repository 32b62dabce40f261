import { createHash, randomBytes } from 'node:crypto';
import { CloudFormationClient, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { routes } from '../functions/routes.ts';
import type { Check } from './preflight.ts';

/**
 * `npm run smoke -- <stage>`: a live portal checked without side effects — nothing is written, nobody signs in.
 * The same checks run against the local stack in test/integration/smoke.test.ts.
 */
export interface SmokeTarget {
  /** The portal's address (the web stack's WebUrl, or the local app's). */
  siteUrl: string;
  /** Where the sign-in must lead: the SPID/CIE gateway's origin in the cloud, the local IdP's locally. */
  expectedProvider: string;
  /** The functions' health, where there are functions to ask (the cloud). */
  functions?: () => Promise<Check[]>;
}

const problem = (title: string, detail: string, fix?: string[]): Check => ({
  title,
  status: 'missing',
  detail,
  ...(fix && { fix }),
});

async function site(target: SmokeTarget, fetchImpl: typeof fetch): Promise<Check> {
  const title = 'the site answers, with its Content-Security-Policy';
  const response = await fetchImpl(`${target.siteUrl}/`);
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.includes('text/html'))
    return problem(title, `GET / answered ${response.status} ${type}`);
  const csp = response.headers.get('content-security-policy') ?? '';
  if (!/default-src /.test(csp) || !/frame-ancestors 'none'/.test(csp))
    return problem(
      title,
      csp ? `the CSP lacks default-src or frame-ancestors: ${csp}` : 'no Content-Security-Policy header',
    );
  return { title, status: 'ok' };
}

async function openApi(target: SmokeTarget, fetchImpl: typeof fetch): Promise<Check> {
  const title = '/api/openapi.json is the API’s description';
  const response = await fetchImpl(`${target.siteUrl}/api/openapi.json`);
  if (response.status !== 200) return problem(title, `answered ${response.status}`);
  const document = (await response.json().catch(() => undefined)) as
    { openapi?: string; paths?: Record<string, unknown> } | undefined;
  const paths = Object.keys(document?.paths ?? {}).length;
  if (!document?.openapi?.startsWith('3.') || paths === 0)
    return problem(title, 'not an OpenAPI 3 document with paths');
  return { title, status: 'ok', detail: `OpenAPI ${document.openapi}, ${paths} paths` };
}

interface RuntimeConfig {
  issuer: string;
  clientId: string;
  scope: string;
  resource?: string;
  identityProvider?: string;
}

/** The authorize request the web app sends (web/src/lib/auth.tsx), followed one hop: where does it lead? */
async function signIn(target: SmokeTarget, fetchImpl: typeof fetch): Promise<Check> {
  const title = `the sign-in leads to ${target.expectedProvider}`;
  const configResponse = await fetchImpl(`${target.siteUrl}/config.json`);
  if (configResponse.status !== 200) return problem(title, `/config.json answered ${configResponse.status}`);
  const config = (await configResponse.json()) as RuntimeConfig;
  const discovery = await fetchImpl(`${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (discovery.status !== 200)
    return problem(title, `the issuer ${config.issuer} has no discovery document (${discovery.status})`);
  const { authorization_endpoint: authorize } = (await discovery.json()) as { authorization_endpoint: string };
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: `${target.siteUrl}/auth/callback`,
    scope: config.scope,
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(config.resource && { resource: config.resource }),
    ...(config.identityProvider && { identity_provider: config.identityProvider }),
  });
  const response = await fetchImpl(`${authorize}?${query}`, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || !location)
    return problem(title, `the authorize request answered ${response.status}, no redirect`);
  const to = new URL(location, authorize);
  if (to.origin !== new URL(target.expectedProvider).origin) {
    const why = to.searchParams.get('error_description') ?? to.searchParams.get('error');
    return problem(title, `it leads to ${to.origin}${why ? ` (${why})` : ''}`, [
      'check the SPID/CIE settings of the stage and the web app client’s callback URLs',
    ]);
  }
  return { title, status: 'ok' };
}

/** A write route open only to operators: what an anonymous caller may never do. */
const anonymousWrite = routes.find((r) => r.method === 'POST' && Array.isArray(r.access) && !r.path.includes('{'))!;

async function anonymousWriteRefused(target: SmokeTarget, fetchImpl: typeof fetch): Promise<Check> {
  const title = `an anonymous write is refused (${anonymousWrite.method} ${anonymousWrite.path})`;
  const response = await fetchImpl(`${target.siteUrl}${anonymousWrite.path}`, {
    method: anonymousWrite.method,
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (response.status !== 401)
    return problem(title, `answered ${response.status}, not 401`, [
      'check the API’s JWT authorizer (web stack) on every route but the public ones',
    ]);
  return { title, status: 'ok' };
}

export async function smoke(target: SmokeTarget, fetchImpl: typeof fetch = fetch): Promise<Check[]> {
  const checks: Check[] = [];
  for (const check of [site, openApi, signIn, anonymousWriteRefused]) {
    try {
      checks.push(await check(target, fetchImpl));
    } catch (error) {
      checks.push(
        problem(
          check.name,
          `${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`,
        ),
      );
    }
  }
  if (target.functions) checks.push(...(await target.functions()));
  return checks;
}

/** Every Lambda function of the stage's stacks: Active, and its last update successful (nothing is invoked). */
export async function functionsHealth(
  stackNames: string[],
  clients: { cloudFormation: CloudFormationClient; lambda: LambdaClient },
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const stackName of stackNames) {
    let next: string | undefined;
    do {
      const page = await clients.cloudFormation.send(
        new ListStackResourcesCommand({ StackName: stackName, NextToken: next }),
      );
      for (const resource of page.StackResourceSummaries ?? []) {
        if (resource.ResourceType !== 'AWS::Lambda::Function' || !resource.PhysicalResourceId) continue;
        const title = `function ${stackName}/${resource.LogicalResourceId} healthy`;
        const config = await clients.lambda.send(
          new GetFunctionConfigurationCommand({ FunctionName: resource.PhysicalResourceId }),
        );
        const healthy = config.State === 'Active' && (config.LastUpdateStatus ?? 'Successful') === 'Successful';
        checks.push(
          healthy
            ? { title, status: 'ok' }
            : problem(
                title,
                `state ${config.State}${config.StateReason ? ` (${config.StateReason})` : ''}, last update ${config.LastUpdateStatus}${config.LastUpdateStatusReason ? ` (${config.LastUpdateStatusReason})` : ''}`,
                [
                  `aws lambda get-function-configuration --region <region> --function-name ${resource.PhysicalResourceId}`,
                ],
              ),
        );
      }
      next = page.NextToken;
    } while (next);
  }
  return checks;
}
