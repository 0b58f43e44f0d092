import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminPersonReset from '@/app/api/admin/people/[id]/reset/route';
import * as adminPeople from '@/app/api/admin/people/route';
import * as session from '@/app/api/session/route';
import { bffForFile, PEOPLE, request, sessionCookieOf, signInBody } from '../helpers/bff';
import { startMailServer, type MailServer } from '../helpers/mail-server';

// Started before the app reads its configuration (the first hook of this file): SMTP_URL names it.
let server: MailServer;
beforeAll(async () => {
  server = await startMailServer();
  process.env.SMTP_URL = server.url;
  process.env.MAIL_FROM = 'Tray-scan batches <people@example.test>';
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await server.close();
});
bffForFile();

async function signIn(person: { email: string; password: string }, language?: string): Promise<string> {
  const response = await session.POST(
    request('/api/session', {
      method: 'POST',
      json: signInBody(person),
      headers: language ? { 'accept-language': language } : {},
    }),
  );
  expect(response.status).toBe(204);
  return sessionCookieOf(response)!;
}

describe('invites and password resets by e-mail, when SMTP_URL is set', () => {
  it("e-mails the invite link in the administrator's language, and still answers it to copy", async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const email = `new-${Math.random().toString(36).slice(2, 8)}@demo.example`;
    const before = server.received.length;
    const response = await adminPeople.POST(
      request('/api/admin/people', {
        method: 'POST',
        cookie: admin,
        json: { email, role: 'viewer' },
        headers: { 'accept-language': 'de-DE,de;q=0.9' },
      }),
    );
    expect(response.status).toBe(201);
    const { inviteUrl, emailed } = (await response.json()) as { inviteUrl: string; emailed: boolean };
    expect(emailed).toBe(true);
    const mail = (await server.waitFor(before + 1))[before]!;
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.mail.from?.value[0]?.address).toBe('people@example.test');
    expect(mail.mail.subject).toBe(`Einladung zu ${PEOPLE.demo.admin.orgName} bei Tray-Scan-Chargen`);
    expect(mail.mail.text).toContain(`Passwort festlegen: ${inviteUrl}`);
    expect(mail.mail.html).toContain(`href="${inviteUrl}"`);
  });

  it('e-mails a reset link to the member', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const people = (await (await adminPeople.GET(request('/api/admin/people', { cookie: admin }))).json()) as {
      people: { id: string; email: string }[];
    };
    const viewer = people.people.find((p) => p.email === PEOPLE.demo.viewer.email)!;
    const before = server.received.length;
    const response = await adminPersonReset.POST(
      request(`/api/admin/people/${viewer.id}/reset`, { method: 'POST', cookie: admin }),
    );
    expect(response.status).toBe(201);
    const { resetUrl, emailed } = (await response.json()) as { resetUrl: string; emailed: boolean };
    expect(emailed).toBe(true);
    const mail = (await server.waitFor(before + 1))[before]!;
    expect(mail.envelopeTo).toEqual([PEOPLE.demo.viewer.email]);
    expect(mail.mail.subject).toBe('Set a new password for Tray-scan batches');
    expect(mail.mail.text).toContain(`Set a new password: ${resetUrl}`);
  });
});
