import { inject } from './stack-context.ts';

export interface StoredMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** The messages in the local SES inbox (aws-ses-v2-local's `GET /store`). */
export async function inbox(): Promise<StoredMail[]> {
  const response = await fetch(`${inject('sesEndpoint')}/store`);
  if (!response.ok) throw new Error(`GET /store: ${response.status}`);
  return (await response.json()).emails;
}
