/** The simulator's HTTP helpers: request bodies, JSON answers, forms and its HTML pages. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from './values.ts';

export const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
export const formOrJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const body = (await readBody(req)).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('application/json')) return body ? JSON.parse(body) : {};
  return Object.fromEntries(new URLSearchParams(body));
};

export function page(res: ServerResponse, title: string, body: string, status = 200) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html lang="it"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem;color:#1a1a1a}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left}
caption{text-align:left;font-weight:bold}form{margin:.5rem 0}fieldset{margin:1rem 0}button{margin:.25rem;padding:.4rem .8rem}label{margin-right:.5rem}code{background:#eee}</style></head><body>${body}</body></html>`);
}
