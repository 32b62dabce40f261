import https from 'node:https';

/**
 * A `fetch` that presents a client certificate (mutual TLS), for the deployments whose agreement with INPS
 * requires one (reference.md: older ConsultazioneISEE variants; pagopa/idpay-admissibility-assessor calls INPS
 * so). node:https with an agent holding the certificate: the global fetch cannot present one without undici's
 * Agent, which would add ~300 KB to the function.
 */
export interface ClientCertificate {
  /** PEM: the certificate (with its chain) and its private key. */
  cert: string;
  key: string;
  /** PEM: the authorities to trust for the server, when not the system's (a collaudo or local endpoint). */
  ca?: string;
}

export function clientCertificateFetch(certificate: ClientCertificate): typeof fetch {
  const agent = new https.Agent({ cert: certificate.cert, key: certificate.key, ca: certificate.ca, keepAlive: true });
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const request = https.request(
        url,
        { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const answerHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              if (value !== undefined) answerHeaders.set(name, [value].flat().join(', '));
            resolve(
              new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), {
                status: res.statusCode ?? 500,
                headers: answerHeaders,
              }),
            );
          });
        },
      );
      request.on('error', reject);
      request.end(typeof init.body === 'string' ? init.body : init.body ? String(init.body) : undefined);
    })) as typeof fetch;
}

/** OpenSSL's and Node's names for a handshake the server ended over the client's certificate (none, unknown, expired). */
const CERTIFICATE_ERRORS = /certificate|ERR_SSL_|SSLV3_ALERT|TLSV1_ALERT|EPROTO/i;

/** Whether a failed call is the TLS handshake refusing the certificate (a configuration problem, not INPS being down). */
export const isCertificateError = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    e && !seen.has(e);
    e = e.cause as typeof e
  ) {
    seen.add(e);
    if (CERTIFICATE_ERRORS.test(`${String(e.code ?? '')} ${String(e.message ?? '')}`)) return true;
  }
  return false;
};

/**
 * A `fetch` whose certificate is loaded at the first call (in the cloud from its Secrets Manager secret:
 * secret-certificate.ts) and again after `ttlMs`, so a renewed certificate is used within the hour without a
 * deployment. A load that fails is tried again at the next call.
 */
export function lazyClientCertificateFetch(load: () => Promise<ClientCertificate>, ttlMs = 3_600_000): typeof fetch {
  let loaded: Promise<typeof fetch> | null = null;
  let at = 0;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    if (!loaded || Date.now() - at >= ttlMs) {
      at = Date.now();
      loaded = load().then(clientCertificateFetch, (error) => ((loaded = null), Promise.reject(error)));
    }
    return (await loaded)(input, init);
  }) as typeof fetch;
}
