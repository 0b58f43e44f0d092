import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigForTest } from '@/lib/server/config';
import { createAlertChannels } from '@/lib/server/notify/channels';
import { verifyWebhookSignature } from '@/lib/server/notify/webhook-signature';
import { batch, judged, missesMessage, OUTSIDE, PERSON } from '../../helpers/alert-messages';
import { startMailServer, type MailServer } from '../../helpers/mail-server';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver';

const ORIGIN = 'https://dash.example.test';
const SECRET = 'hook-secret-for-tests';
const holder = globalThis as unknown as { __appConfig?: unknown };

/** The app's configuration as these variables make it (read once per process, as the server does). */
function configure(env: Record<string, string>) {
  holder.__appConfig = loadConfigForTest({
    BATCH_API_BASE_URL: 'http://127.0.0.1:9',
    SESSION_SECRET: 'x'.repeat(32),
    CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
    APP_ORIGIN: ORIGIN,
    ...env,
  });
}

const fired = [
  judged(batch('b1', { batch_name: 'Lettuce <north> & co', germination: 78.2, usable: 71.4 })),
  judged(batch('b2', { batch_name: 'Lettuce south', germination: 79.5, usable: 80.15 })),
];
const percent = (language: string, v: string) =>
  new Intl.NumberFormat(language, {
    style: 'unit',
    unit: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(Number(v));

describe('alert e-mails through a real SMTP server', () => {
  let server: MailServer;
  beforeAll(async () => {
    server = await startMailServer();
    configure({ SMTP_URL: server.url, MAIL_FROM: 'Tray-scan batches <alerts@example.test>' });
  });
  afterAll(() => server.close());

  it("sends each recipient one e-mail in their language, with the batches' figures, and the unsubscribe header to an outside address", async () => {
    const channels = createAlertChannels();
    const message = missesMessage(fired, { total: 2 });
    await channels.email(PERSON, [message], null);
    await channels.email({ ...OUTSIDE, language: 'de' }, [message], null);
    const [en, de] = await server.waitFor(2);

    expect(en!.envelopeTo).toEqual(['ana@grower.test']);
    expect(en!.mail.from?.value[0]?.address).toBe('alerts@example.test');
    expect(en!.mail.subject).toBe('Germination watch: 2 new batches are below their germination targets');
    expect(en!.mail.html).toContain('<html lang="en">');
    expect(en!.mail.html).toContain('Lettuce &lt;north&gt; &amp; co');
    for (const f of fired) {
      expect(en!.mail.text).toContain(f.batch.batch_name);
      expect(en!.mail.text).toContain(`Germination ${percent('en', f.batch.avg_germination_rate!)} (!)`);
      expect(en!.mail.text).toContain(`Usable ${percent('en', f.batch.avg_usable_seedling_rate!)}`);
      expect(en!.mail.text).toContain(
        `${ORIGIN}/batches?from=2026-11-20&to=2026-11-27&tz=UTC&below=germination&org=green&batch=${f.batch.batch_id}`,
      );
    }
    expect(en!.mail.headers.get('list')).toBeUndefined();

    expect(de!.envelopeTo).toEqual(['lab@outside.test']);
    expect(de!.mail.subject).toBe('Germination watch: 2 neue Chargen liegen unter ihren Keimraten-Sollwerten');
    expect(de!.mail.html).toContain('<html lang="de">');
    for (const f of fired)
      expect(de!.mail.text).toContain(`Keimrate ${percent('de', f.batch.avg_germination_rate!)} (!)`);
    expect(de!.mail.headers.get('list')).toMatchObject({
      unsubscribe: { url: `${ORIGIN}/api/alerts/unsubscribe?token=tok123` },
    });
  });

  it('sends a digest as one e-mail', async () => {
    const before = server.received.length;
    const basil = missesMessage([judged(batch('b3', { crop_type: 'Basil', germination: 40 }))], { id: 'e2' });
    await createAlertChannels().email({ ...PERSON, language: 'nl' }, [missesMessage(fired), basil], {
      cadence: 'daily',
      since: '2026-11-26T06:00:00Z',
    });
    const mails = await server.waitFor(before + 1);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.mail.subject).toBe('Dagelijks overzicht voor Green & Co: 2 meldingen');
    expect(mails.at(-1)!.mail.text).toMatch(/Basil\n-+\n[\s\S]*Lettuce\n-+\n/);
  });

  it('throws when the mail server refuses, so the watcher retries', async () => {
    configure({ SMTP_URL: server.url.replace('mail-secret-pass', 'not-the-password'), APP_ORIGIN: ORIGIN });
    // A new transport for the new configuration.
    (globalThis as { __mailTransport?: unknown }).__mailTransport = undefined;
    await expect(createAlertChannels().email(PERSON, [missesMessage(fired)], null)).rejects.toThrow(
      /did not take the e-mail/,
    );
  });
});

describe('alert webhooks', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET);
  });
  afterAll(() => receiver.close());

  it("POSTs each format signed under the webhook's secret, with the event id (WEBHOOK_ALLOW_PRIVATE=1)", async () => {
    configure({ WEBHOOK_ALLOW_PRIVATE: '1' });
    const channels = createAlertChannels();
    for (const [i, format] of (['json', 'slack', 'teams'] as const).entries()) {
      await channels.webhook(
        { url: receiver.url, format, secret: SECRET },
        missesMessage(fired, { id: `evt-${format}` }),
      );
      const hook = (await receiver.waitFor(i + 1))[i]!;
      expect(hook.status).toBe(200);
      expect(verifyWebhookSignature(SECRET, hook.headers, hook.body, Date.now())).toMatchObject({ ok: true });
      expect(hook.headers['x-alert-event']).toBe(`evt-${format}`);
    }
    const [json, slack, teams] = receiver.requests.map((r) => r.json as Record<string, unknown>);
    expect(json).toMatchObject({
      id: 'evt-json',
      links: { view: `${ORIGIN}/batches?from=2026-11-20&to=2026-11-27&tz=UTC&below=germination&org=green` },
    });
    expect((json!.batches as { germination: number }[]).map((b) => b.germination)).toEqual([78.2, 79.5]);
    expect(slack).toMatchObject({ text: expect.stringContaining('Germination watch'), blocks: expect.any(Array) });
    expect(teams).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }],
    });
  });

  it('refuses a loopback target when WEBHOOK_ALLOW_PRIVATE is unset, sending nothing', async () => {
    configure({});
    const before = receiver.requests.length;
    await expect(
      createAlertChannels().webhook({ url: receiver.url, format: 'json', secret: SECRET }, missesMessage(fired)),
    ).rejects.toThrow(/loopback or private address/);
    expect(receiver.requests.length).toBe(before);
  });
});
