import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailTransport, redactedSmtpUrl } from '@/lib/server/notify/transport';
import { startMailServer, type MailServer } from '../../helpers/mail-server';

const FROM = 'Tray-scan batches <alerts@example.test>';
const message = {
  to: 'ana@example.test',
  subject: 'Straße & Co — 3 batches',
  text: 'Plain part',
  html: '<p>HTML part</p>',
  headers: { 'List-Unsubscribe': '<https://app.example.test/api/alerts/unsubscribe?token=abc>' },
  attachments: [
    {
      filename: 'view.xlsx',
      content: Buffer.from('PK-not-really'),
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    },
  ],
};

describe('mail transport over SMTP', () => {
  let server: MailServer;
  beforeAll(async () => {
    server = await startMailServer();
  });
  afterAll(() => server.close());

  it("delivers both parts, the headers and the attachments, from MAIL_FROM, signing in with SMTP_URL's user", async () => {
    const transport = createMailTransport({ smtpUrl: server.url, from: FROM, dir: '/nonexistent' });
    expect(transport.mode).toEqual({ kind: 'smtp', server: expect.not.stringContaining('mail-secret-pass') });
    await transport.send(message);
    const [got] = await server.waitFor(1);
    transport.close();
    expect(got!.envelopeTo).toEqual(['ana@example.test']);
    expect(got!.mail.from?.value).toEqual([{ name: 'Tray-scan batches', address: 'alerts@example.test' }]);
    expect(got!.mail.subject).toBe(message.subject);
    expect(got!.mail.text?.trim()).toBe('Plain part');
    expect(got!.mail.html).toContain('<p>HTML part</p>');
    expect(got!.mail.headers.get('list')).toMatchObject({
      unsubscribe: { url: 'https://app.example.test/api/alerts/unsubscribe?token=abc' },
    });
    expect(got!.mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ['view.xlsx', 'PK-not-really'],
    ]);
  });

  it('throws when the server refuses the credentials, without the password in the error', async () => {
    const wrong = server.url.replace('mail-secret-pass', 'wrong-pass-here');
    const transport = createMailTransport({ smtpUrl: wrong, from: FROM, dir: '/nonexistent' });
    const failure = await transport.send(message).then(
      () => null,
      (e: Error) => e,
    );
    transport.close();
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).not.toContain('wrong-pass-here');
  });

  it('redacts the password of SMTP_URL for logs', () => {
    expect(redactedSmtpUrl('smtp://user:s3cret@mail.example.com:587')).toBe('smtp://user:***@mail.example.com:587');
  });
});

describe('mail transport without SMTP_URL', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tsb-mail-')), 'mail');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each e-mail as an .eml file into MAIL_DIR, readable by a mail client', async () => {
    const transport = createMailTransport({ from: FROM, dir });
    expect(transport.mode).toEqual({ kind: 'folder', dir });
    const first = await transport.send(message);
    await transport.send({ ...message, subject: 'second' });
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);
    expect(first.file && statSync(first.file).mode & 0o777).toBe(0o600);
    const mail = await simpleParser(readFileSync(first.file!));
    expect(mail.subject).toBe(message.subject);
    expect(mail.to && 'text' in mail.to ? mail.to.text : null).toBe('ana@example.test');
    expect(mail.attachments[0]?.filename).toBe('view.xlsx');
  });
});
