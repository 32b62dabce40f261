/**
 * The local web server (lib/local/runtime.ts, 'dist' mode) on a small site of its own: it survives a rebuild
 * of the site under it, and it compresses as CloudFront does.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../support/stack.ts';

let site: string;
let stack: Awaited<ReturnType<typeof startTestStack>>;
const script = `export const text = ${JSON.stringify('Portale dei servizi sociali. '.repeat(200))};\n`;

beforeAll(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'portale-site-'));
  await fs.mkdir(path.join(site, 'assets'));
  await fs.writeFile(
    path.join(site, 'index.html'),
    '<!doctype html><html lang="it"><title>Portale</title><script type="module" src="/assets/old.js"></script></html>',
  );
  await fs.writeFile(path.join(site, 'assets/old.js'), script);
  stack = await startTestStack({ web: 'dist', seed: false, webDist: site });
});

afterAll(async () => {
  await stack?.close();
  await fs.rm(site, { recursive: true, force: true });
});

describe('the local web server', () => {
  it('answers 404 for an asset removed after it started, serves the new ones, and keeps running', async () => {
    expect((await fetch(`${stack.appUrl}/assets/old.js`)).status).toBe(200);
    // A rebuild: the old asset goes, a new one comes, index.html changes.
    await fs.rm(path.join(site, 'assets/old.js'));
    await fs.writeFile(path.join(site, 'assets/new.js'), script);
    await fs.writeFile(
      path.join(site, 'index.html'),
      '<!doctype html><html lang="it"><title>Portale ricostruito</title></html>',
    );

    const gone = await fetch(`${stack.appUrl}/assets/old.js`);
    expect(gone.status).toBe(404);
    const fresh = await fetch(`${stack.appUrl}/assets/new.js`);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe(script);
    const page = await fetch(`${stack.appUrl}/servizi`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Portale ricostruito');
    expect((await fetch(`${stack.appUrl}/config.json`)).status).toBe(200);
    expect((await fetch(`${stack.appUrl}/api/openapi.json`)).status).toBe(200);
  });

  it('sends brotli or gzip by Accept-Encoding, and the plain file to a client that asks for neither', async () => {
    await fs.writeFile(path.join(site, 'assets/app.js'), script);
    // node's http client, not fetch: fetch would decode the body and hide what was sent.
    const get = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${stack.appUrl}/assets/app.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          })
          .on('error', reject);
      });

    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    // The security headers and the caching of immutable assets stay on the compressed response.
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
