import type { ApiResponse } from './api.ts';

interface Client {
  post(path: string, body: unknown): Promise<ApiResponse>;
  get(path: string): Promise<ApiResponse>;
}

/**
 * Work that runs as a background job (the month's generation and CSV, the reporting, the hours reset), asked for
 * as the web asks: POST starts it, GET (the same path) until it ends. A refusal of the start (400, 403, 404,
 * 409) is answered as it came; once the job ends, `json` is its result (its status when it failed) and
 * `job` its last status.
 */
export async function jobAnswer(
  client: Client,
  path: string,
  body: unknown = {},
): Promise<ApiResponse & { job?: Record<string, any> }> {
  const started = await client.post(path, body);
  if (started.status !== 200) return started;
  let job = started.json;
  for (const deadline = Date.now() + 60_000; job.isRunning;) {
    if (Date.now() > deadline) throw new Error(`${path}: still running after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = (await client.get(path)).json;
  }
  return { ...started, json: job.state === 'SUCCEEDED' ? job.result : job, job };
}
