import 'server-only';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { getConfig, type AppConfig } from '../config';
import { logLine } from '../logging';
import type { MailMessage } from './mail-message';

/**
 * How the app sends e-mail: over SMTP when SMTP_URL is set; otherwise each e-mail is written as an .eml file
 * into MAIL_DIR, so the demo (and anyone without a mail server) can open what would have been sent.
 */
type MailSettings = AppConfig['mail'];

export type MailTransport = {
  /** `smtp`: delivered to a mail server; `folder`: written to `dir` (nobody receives it). */
  readonly mode: { kind: 'smtp'; server: string } | { kind: 'folder'; dir: string };
  /** Sends one e-mail; throws when the server refused it or could not be reached (the caller retries). */
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
  close(): void;
};

/** SMTP_URL as it may be shown or logged: the server and its user, never the password. */
export function redactedSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'an unreadable SMTP_URL';
  }
}

/** Long enough for a slow server, short enough that a dead one fails a delivery (retried later) instead of hanging it. */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export function createMailTransport(settings: MailSettings): MailTransport {
  const envelope = (message: MailMessage) => ({
    from: settings.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers,
    attachments: message.attachments?.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
    })),
  });
  if (settings.smtpUrl) {
    const server = redactedSmtpUrl(settings.smtpUrl);
    const smtp = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      mode: { kind: 'smtp', server },
      async send(message) {
        try {
          const info = await smtp.sendMail(envelope(message));
          return { messageId: info.messageId };
        } catch (error) {
          // Nodemailer's errors name the server's answer, never the password; the URL is logged redacted.
          logLine('warn', 'mail not sent', { server, error: String(error) });
          throw new Error(
            `the mail server did not take the e-mail (${String((error as Error).message ?? error).slice(0, 300)})`,
          );
        }
      },
      close: () => smtp.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    mode: { kind: 'folder', dir: settings.dir },
    async send(message) {
      const info = await stream.sendMail(envelope(message));
      // Only this process reads and writes the folder: the e-mails may hold one-time links.
      await mkdir(settings.dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(settings.dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { messageId: info.messageId, file };
    },
    close: () => stream.close(),
  };
}

const holder = globalThis as unknown as { __mailTransport?: MailTransport };

function transport(): MailTransport {
  if (!holder.__mailTransport) {
    holder.__mailTransport = createMailTransport(getConfig().mail);
    const mode = holder.__mailTransport.mode;
    logLine(
      'info',
      mode.kind === 'smtp' ? 'mail goes out over SMTP' : 'mail is written to a folder (SMTP_URL is not set)',
      mode.kind === 'smtp' ? { server: mode.server } : { dir: mode.dir },
    );
  }
  return holder.__mailTransport;
}

/** Sends one e-mail from MAIL_FROM over SMTP_URL, or writes it into MAIL_DIR when SMTP_URL is unset. */
export function sendMail(message: MailMessage): Promise<{ messageId: string; file?: string }> {
  return transport().send(message);
}

/** Where e-mail goes: a mail server, or the folder of .eml files (said in the demo's output and the UI). */
export function mailMode(): MailTransport['mode'] {
  return transport().mode;
}

/** Whether e-mail reaches people (SMTP_URL is set), rather than a local folder. */
export function mailIsSetUp(): boolean {
  return Boolean(getConfig().mail.smtpUrl);
}
