import { GetAccountCommand, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mailSettings, sendEmailInput, sesMailer } from '../../functions/adapters/mail.ts';

const ses = mockClient(SESv2Client);
beforeEach(() => ses.reset());

describe('mail adapter (SES v2)', () => {
  it('sends a message without attachments as Content.Simple, from the deployment’s sender', async () => {
    vi.stubEnv('MAIL_FROM', 'noreply@comune.example.it');
    vi.stubEnv('SUPPORT_EMAIL', 'supporto@comune.example.it');
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    expect(
      await sesMailer.send({ to: ['a@example.it'], replyTo: ['b@example.it'], subject: 'Oggetto è', text: 'Testo' }),
    ).toEqual({ messageId: 'm-1' });
    expect(ses.commandCalls(SendEmailCommand)[0].args[0].input).toEqual({
      FromEmailAddress: 'noreply@comune.example.it',
      Destination: { ToAddresses: ['a@example.it'] },
      ReplyToAddresses: ['b@example.it'],
      Content: {
        Simple: {
          Subject: { Data: 'Oggetto è', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Testo', Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('sends a message with attachments as Content.Raw MIME, the subject encoded and the file in base64', () => {
    const input = sendEmailInput(
      {
        to: ['a@example.it'],
        subject: 'Avviso di pagamento è',
        text: 'In allegato.',
        attachments: [
          { fileName: 'avviso.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 prova') },
        ],
      },
      'noreply@comune.example.it',
    );
    expect(input.Content?.Simple).toBeUndefined();
    const mime = Buffer.from(input.Content!.Raw!.Data!).toString('utf8');
    expect(mime).toContain('From: noreply@comune.example.it\r\nTo: a@example.it\r\n');
    expect(mime).toContain(`Subject: =?UTF-8?B?${Buffer.from('Avviso di pagamento è').toString('base64')}?=`);
    expect(mime).toMatch(/Content-Type: multipart\/mixed; boundary="portale-[\w-]+"/);
    expect(mime).toContain('Content-Disposition: attachment; filename="avviso.pdf"');
    expect(mime).toContain(Buffer.from('%PDF-1.4 prova').toString('base64'));
    expect(mime).toContain(Buffer.from('In allegato.').toString('base64'));
  });

  it('reads the account’s sending rate once (GetAccount SendQuota.MaxSendRate), for the flow e-mail to keep to', async () => {
    ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 0 } });
    expect(await sesMailer.maxSendRate!()).toBe(14);
    expect(await sesMailer.maxSendRate!()).toBe(14);
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(1);
  });

  it('a message SES throttles (its sending rate) is sent again after a pause, not given up; other refusals are not retried', async () => {
    vi.stubEnv('MAIL_FROM', 'noreply@comune.example.it');
    vi.stubEnv('SUPPORT_EMAIL', 'supporto@comune.example.it');
    const throttled = () =>
      Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'TooManyRequestsException' });
    ses
      .on(SendEmailCommand)
      .rejectsOnce(throttled())
      .rejectsOnce(Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'Throttling' }))
      .resolves({ MessageId: 'm-2' });
    expect(await sesMailer.send({ to: ['a@example.it'], subject: 'Promemoria', text: 'Testo' })).toEqual({
      messageId: 'm-2',
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);

    ses.reset();
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    await expect(sesMailer.send({ to: ['b@example.it'], subject: 'Promemoria', text: 'Testo' })).rejects.toMatchObject({
      name: 'MessageRejected',
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('keeps to the deployment’s sending rate when one is set (MAIL_SEND_RATE), without asking SES', async () => {
    vi.stubEnv('MAIL_SEND_RATE', '3');
    expect(await sesMailer.maxSendRate!()).toBe(3);
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(0);
  });

  it('refuses to run without the sender or the support address', () => {
    expect(() => mailSettings({ SUPPORT_EMAIL: 'x@y.it' })).toThrow('MAIL_FROM');
    expect(() => mailSettings({ MAIL_FROM: 'x@y.it' })).toThrow('SUPPORT_EMAIL');
    expect(mailSettings({ MAIL_FROM: ' a@b.it ', SUPPORT_EMAIL: 's@b.it' })).toEqual({
      from: 'a@b.it',
      supportAddress: 's@b.it',
    });
  });
});
