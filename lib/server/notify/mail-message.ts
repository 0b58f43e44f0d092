import 'server-only';

/** One e-mail as our transport sends it (lib/server/notify/): both parts always, attachments optional. */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Extra headers, e.g. List-Unsubscribe for an outside address. */
  headers?: Record<string, string>;
};
