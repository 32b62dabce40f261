import { randomUUID } from 'node:crypto';
import type { SESv2Client, SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { tracer } from './observability.ts';
import type { MailMessage, Mailer } from './ports/mail.ts';

/**
 * The mail adapter: SES v2 `SendEmail`. In the cloud the function's role may send only from the
 * deployment's identity (lib/api-stack.ts); locally SES_ENDPOINT points at aws-ses-v2-local
 * (lib/local/mail.ts), whose inbox shows every message. A message without attachments goes as
 * Content.Simple; with attachments (payment notices) as Content.Raw, a MIME message built here.
 */
let ses: Promise<{ client: SESv2Client; sdk: typeof import('@aws-sdk/client-sesv2') }> | undefined;
/**
 * SES's client, loaded at the first message: the functions that import this adapter for a rare message (the ISEE
 * jobs' December reminders) do not pay for it at every cold start.
 */
const sesClient = () =>
  (ses ??= import('@aws-sdk/client-sesv2').then((sdk) => ({
    sdk,
    client: tracer.captureAWSv3Client(new sdk.SESv2Client({ endpoint: process.env.SES_ENDPOINT || undefined })),
  })));

/** The sender and the council's support address are deployment settings (README, "Configuration"). */
export function mailSettings(env: NodeJS.ProcessEnv = process.env): { from: string; supportAddress: string } {
  const from = env.MAIL_FROM?.trim();
  const supportAddress = env.SUPPORT_EMAIL?.trim();
  if (!from) throw new Error('Missing environment variable MAIL_FROM');
  if (!supportAddress) throw new Error('Missing environment variable SUPPORT_EMAIL');
  return { from, supportAddress };
}

const encodedWord = (text: string) =>
  /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const base64Lines = (data: Uint8Array | string) =>
  (
    Buffer.from(data)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');

/** A MIME message (multipart/mixed: the text, the optional HTML, the attachments), for Content.Raw. */
export function mimeMessage(message: MailMessage, from: string): Uint8Array {
  const boundary = `portale-${randomUUID()}`;
  const alternative = `alt-${randomUUID()}`;
  const headers = [
    `From: ${from}`,
    `To: ${message.to.join(', ')}`,
    ...(message.replyTo?.length ? [`Reply-To: ${message.replyTo.join(', ')}`] : []),
    `Subject: ${encodedWord(message.subject)}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
  ];
  const bodies = [
    `Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(message.text)}`,
    ...(message.html
      ? [
          `Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(message.html)}`,
        ]
      : []),
  ];
  const parts = [
    `Content-Type: multipart/alternative; boundary="${alternative}"\r\n\r\n${bodies.map((b) => `--${alternative}\r\n${b}\r\n`).join('')}--${alternative}--`,
    ...(message.attachments ?? []).map(
      (a) =>
        `Content-Type: ${a.contentType}; name="${encodedWord(a.fileName)}"\r\nContent-Disposition: attachment; filename="${encodedWord(a.fileName)}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(a.content)}`,
    ),
  ];
  const text = `${headers.join('\r\n')}\r\n\r\n${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`;
  return Buffer.from(text, 'utf8');
}

/** The SendEmail request for a message (exported for the unit test). */
export function sendEmailInput(message: MailMessage, defaultFrom: string): SendEmailCommandInput {
  const from = message.from ?? defaultFrom;
  const common = {
    FromEmailAddress: from,
    Destination: { ToAddresses: message.to },
    ReplyToAddresses: message.replyTo,
  };
  if (message.attachments?.length) return { ...common, Content: { Raw: { Data: mimeMessage(message, from) } } };
  return {
    ...common,
    Content: {
      Simple: {
        Subject: { Data: message.subject, Charset: 'UTF-8' },
        Body: {
          Text: { Data: message.text, Charset: 'UTF-8' },
          ...(message.html ? { Html: { Data: message.html, Charset: 'UTF-8' } } : {}),
        },
      },
    },
  };
}

/** SES's own floor: an account in the sandbox may send one message a second. */
export const SES_SANDBOX_SEND_RATE = 1;
/** How long the account's sending rate is trusted before it is asked again (AWS raises it on request). */
const SEND_RATE_TTL_MS = 10 * 60_000;
let sendRate: { value: number; until: number } | null = null;

/**
 * SES refusing a message for the sending rate: SES v2's TooManyRequestsException, SES v1's Throttling "Maximum
 * sending rate exceeded". Nothing was sent: the message may go again after a pause.
 */
export const isThrottled = (error: unknown): boolean => {
  const { name = '', message = '' } = (error ?? {}) as { name?: string; message?: string };
  return (
    ['TooManyRequestsException', 'Throttling', 'ThrottlingException'].includes(name) ||
    /maximum sending rate exceeded/i.test(message)
  );
};
/** A throttled message is sent again this many times, after 250 ms, 500 ms, 1 s, 2 s, 4 s (with jitter). */
const THROTTLE_RETRIES = 5;
const THROTTLE_FIRST_PAUSE_MS = 250;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const sesMailer: Mailer = {
  /** SendEmail; a message SES throttles is sent again after a growing pause, not given up as failed. */
  async send(message) {
    const input = sendEmailInput(message, mailSettings().from);
    const { client, sdk } = await sesClient();
    for (let attempt = 0; ; attempt++) {
      try {
        const { MessageId } = await client.send(new sdk.SendEmailCommand(input));
        return { messageId: MessageId ?? '' };
      } catch (error) {
        if (!isThrottled(error) || attempt >= THROTTLE_RETRIES) throw error;
        const backoff = THROTTLE_FIRST_PAUSE_MS * 2 ** attempt;
        await pause(backoff / 2 + Math.random() * (backoff / 2));
      }
    }
  },
  /**
   * The rate the portal sends at: the deployment's MAIL_SEND_RATE (CDK context mailSendRate) when set, else the
   * account's maximum sending rate (SES v2 GetAccount, SendQuota.MaxSendRate: messages a second); past it SES
   * refuses messages (TooManyRequestsException). When it cannot be read, the sandbox's rate.
   */
  async maxSendRate() {
    const configured = Number(process.env.MAIL_SEND_RATE);
    if (configured > 0) return configured;
    if (sendRate && sendRate.until > Date.now()) return sendRate.value;
    let value = SES_SANDBOX_SEND_RATE;
    try {
      const { client, sdk } = await sesClient();
      value = (await client.send(new sdk.GetAccountCommand({}))).SendQuota?.MaxSendRate || SES_SANDBOX_SEND_RATE;
    } catch {
      // Not allowed or not answered: send no faster than any SES account may.
    }
    sendRate = { value, until: Date.now() + SEND_RATE_TTL_MS };
    return value;
  },
};
