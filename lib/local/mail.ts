import http, { type Server } from 'node:http';
import type { Closable } from './stores.ts';

type Start = (config: { host: string; port: number }) => Promise<Server>;

/** The local sender and support office (in the cloud: CDK context mailFrom and supportEmail). */
export const LOCAL_MAIL = { from: 'portale@comune.example.it', supportAddress: 'supporto@comune.example.it' };

/**
 * SES v2 on this machine: aws-ses-v2-local, in-process. The functions send with the same
 * `@aws-sdk/client-sesv2` code (SES_ENDPOINT); `/` is the inbox to open in a browser and `GET /store`
 * returns the messages as JSON (the tests read it). Messages live in memory: a restart empties the inbox.
 */
/**
 * The local account as SES v2 GetAccount answers it (aws-ses-v2-local reads it from AWS_SES_ACCOUNT): out of
 * the sandbox, 14 messages a second, the rate the flow e-mail keeps to (adapters/mail.ts maxSendRate).
 */
export const LOCAL_SES_ACCOUNT = {
  DedicatedIpAutoWarmupEnabled: false,
  Details: {
    AdditionalContactEmailAddresses: [],
    ContactLanguage: 'IT',
    MailType: 'TRANSACTIONAL',
    ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
    UseCaseDescription: 'Portale dei servizi sociali',
    WebsiteURL: 'http://localhost',
  },
  EnforcementStatus: 'HEALTHY',
  ProductionAccessEnabled: true,
  SendingEnabled: true,
  SendQuota: { Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 0 },
  SuppressionAttributes: { SuppressedReasons: [] },
};

/** SES v2 SendEmail's path (the REST-JSON protocol): the one call the account's sending rate applies to here. */
const SEND_EMAIL_PATH = '/v2/email/outbound-emails';

/**
 * aws-ses-v2-local behind a thin front that keeps SES's sending rate, as SES does (Developer Guide, "Managing
 * your Amazon SES sending limits"): a message past the account's SendQuota.MaxSendRate within a second is
 * refused, 429 TooManyRequestsException "Maximum sending rate exceeded.", and not stored. `GET /throttled`
 * says how many were refused (a test sees that the portal kept to the rate), `POST /admin/send-rate`
 * { perSecond } makes SES keep to a lower rate than GetAccount says; the rest goes through unchanged.
 */
export async function startMail(port: number): Promise<Closable & { endpoint: string }> {
  process.env.AWS_SES_ACCOUNT ||= JSON.stringify(LOCAL_SES_ACCOUNT);
  const accountRate = Number(JSON.parse(process.env.AWS_SES_ACCOUNT).SendQuota?.MaxSendRate) || Infinity;
  let rate = accountRate;
  // A CommonJS module: under tsx/Node its default export may arrive wrapped once more (design.md §7).
  const imported = (await import('aws-ses-v2-local')).default as unknown as { default?: Start } & Start;
  const start: Start = imported.default ?? imported;
  const inner = await start({ host: '127.0.0.1', port: 0 });
  const innerPort = (inner.address() as { port: number }).port;
  let sentAt: number[] = [];
  let throttled = 0;
  const front = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/throttled') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ throttled }));
    }
    // A switch: SES keeping to a lower rate than the account says (as while AWS lowers it); no body: back to the account's.
    if (req.method === 'POST' && req.url === '/admin/send-rate') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        rate = Number((JSON.parse(body || '{}') as { perSecond?: number }).perSecond) || accountRate;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ perSecond: rate }));
      });
      return;
    }
    if (req.method === 'POST' && req.url === SEND_EMAIL_PATH) {
      const now = Date.now();
      // A second, less the time a message paced by the sender may spend on its way here (jitter on a loaded machine).
      sentAt = sentAt.filter((at) => now - at < 900);
      if (sentAt.length >= rate) {
        throttled += 1;
        req.resume();
        res.writeHead(429, {
          'content-type': 'application/json',
          'x-amzn-errortype': 'TooManyRequestsException',
        });
        return res.end(JSON.stringify({ message: 'Maximum sending rate exceeded.' }));
      }
      sentAt.push(now);
    }
    const forward = http.request(
      { host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => (res.headersSent ? res.destroy() : (res.writeHead(502), res.end())));
    req.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => front.once('error', reject).listen(port, '127.0.0.1', resolve));
  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => Promise.all([closeServer(front), closeServer(inner)]).then(() => undefined),
  };
}
