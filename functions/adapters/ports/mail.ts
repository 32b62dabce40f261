export interface MailAttachment {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

/** An e-mail. Without `from` the deployment's sender (MAIL_FROM) is used. */
export interface MailMessage {
  to: string[];
  replyTo?: string[];
  from?: string;
  subject: string;
  text: string;
  html?: string;
  /** With attachments the message is sent as raw MIME (SES Content.Raw); without, as Content.Simple. */
  attachments?: MailAttachment[];
}

/** Outgoing e-mail: SES v2 in the cloud, aws-ses-v2-local on this machine (functions/adapters/mail.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
  /** How many messages a second the sender may send (SES: the account's SendQuota.MaxSendRate); none: no limit. */
  maxSendRate?(): Promise<number>;
}
