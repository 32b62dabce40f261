/**
 * `npm run smoke` against the local stack: the same script an operator runs after a deploy, here on the local
 * web server (the same CSP as CloudFront), API and IdP.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../lib/smoke.ts';
import { repoRoot } from '../../lib/portal-function.ts';
import { startTestStack } from '../support/stack.ts';

let site: string;
let stack: Awaited<ReturnType<typeof startTestStack>>;

beforeAll(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'portale-smoke-site-'));
  await fs.writeFile(path.join(site, 'index.html'), '<!doctype html><html lang="it"><title>Portale</title></html>');
  stack = await startTestStack({ web: 'dist', seed: false, webDist: site });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await fs.rm(site, { recursive: true, force: true });
});

const run = promisify(execFile);

describe('npm run smoke', () => {
  it('passes on the local portal: site and CSP, OpenAPI, the sign-in going to the IdP, an anonymous write refused', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'bin/smoke.ts'), '--url', stack.appUrl],
      { cwd: repoRoot, env: process.env },
    );
    expect(stdout).toContain(`Smoke test of ${stack.appUrl}`);
    expect(stdout).toContain('✔ the site answers, with its Content-Security-Policy');
    expect(stdout).toMatch(/✔ \/api\/openapi\.json is the API’s description: OpenAPI 3\.\d\.\d, \d+ paths/);
    expect(stdout).toContain(`✔ the sign-in leads to ${new URL(stack.issuer).origin}`);
    expect(stdout).toContain('✔ an anonymous write is refused (POST /api/bands)');
    expect(stdout).not.toContain('✘');
  }, 60_000);

  it('fails, naming the check, when the sign-in leads elsewhere than the configured provider', async () => {
    const checks = await smoke({ siteUrl: stack.appUrl, expectedProvider: 'https://spid-gateway.comune.fantasia.it' });
    const signIn = checks.find((c) => c.title.startsWith('the sign-in leads to'))!;
    expect(signIn).toMatchObject({ status: 'missing', detail: `it leads to ${new URL(stack.issuer).origin}` });
    expect(checks.filter((c) => c.status === 'missing')).toHaveLength(1);
  });

  it('fails when the site has no CSP (a portal served without CloudFront’s headers)', async () => {
    const bare = (url: RequestInfo | URL, init?: RequestInit) =>
      fetch(url, init).then((response) => {
        const headers = new Headers(response.headers);
        headers.delete('content-security-policy');
        return new Response(response.body, { status: response.status, headers });
      });
    const checks = await smoke({ siteUrl: stack.appUrl, expectedProvider: stack.issuer }, bare as typeof fetch);
    expect(checks[0]).toMatchObject({
      title: 'the site answers, with its Content-Security-Policy',
      status: 'missing',
      detail: 'no Content-Security-Policy header',
    });
  });
});
