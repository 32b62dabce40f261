import type { Server } from 'node:http';
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

export async function startMail(port: number): Promise<Closable & { endpoint: string }> {
  process.env.AWS_SES_ACCOUNT ||= JSON.stringify(LOCAL_SES_ACCOUNT);
  // A CommonJS module: under tsx/Node its default export may arrive wrapped once more (design.md §7).
  const imported = (await import('aws-ses-v2-local')).default as unknown as { default?: Start } & Start;
  const start: Start = imported.default ?? imported;
  const server = await start({ host: '127.0.0.1', port });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
