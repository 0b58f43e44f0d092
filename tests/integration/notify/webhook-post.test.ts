import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook, WebhookFailure } from '@/lib/server/notify/webhook-post';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver';

const SECRET = 'whsec-test-0123456789';
const body = JSON.stringify({ id: 'evt-1', text: 'Lettuce & co' });
let n = 0;
/** Another event each time: the same body in the same second would be signed alike, which a receiver takes for a replay. */
const next = () => JSON.stringify({ id: `evt-${++n + 1}` });

describe('webhook requests', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET);
  });
  afterAll(() => receiver.close());
  afterEach(() => receiver.answer(200));

  it('POSTs the JSON body with a signature the receiver verifies; the same request again is refused as a replay', async () => {
    const before = receiver.requests.length;
    expect(await postWebhook({ url: receiver.url, secret: SECRET }, body, {}, { allowPrivate: true })).toEqual({
      status: 200,
    });
    const [hook] = (await receiver.waitFor(before + 1)).slice(before);
    expect(hook).toMatchObject({
      method: 'POST',
      path: '/hook',
      status: 200,
      json: { id: 'evt-1', text: 'Lettuce & co' },
    });
    expect(hook!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hook!.headers['x-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);

    // A captured request sent again as it was: the receiver has accepted it once and refuses it now.
    const replay = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-timestamp': String(hook!.headers['x-signature-timestamp']),
        'x-signature-256': String(hook!.headers['x-signature-256']),
      },
      body: hook!.body,
    });
    expect(replay.status).toBe(409);
    // Signed under another secret: refused.
    await expect(
      postWebhook({ url: receiver.url, secret: 'another-secret' }, next(), {}, { allowPrivate: true }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a timestamp outside the window even with a valid signature (a late replay)', async () => {
    const before = receiver.requests.length;
    const tenMinutesAgo = () => Date.now() - 10 * 60_000;
    await expect(
      postWebhook({ url: receiver.url, secret: SECRET }, body, {}, { allowPrivate: true, now: tenMinutesAgo }),
    ).rejects.toMatchObject({ status: 401 });
    expect(receiver.requests[before]?.problem).toMatch(/timestamp/);
  });

  it('refuses loopback and private targets unless allowed, before any request', async () => {
    const before = receiver.requests.length;
    for (const url of [
      receiver.url,
      'http://10.0.0.8/hook',
      'http://[::1]:80/x',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const failure = await postWebhook({ url, secret: SECRET }, body, {}, { allowPrivate: false }).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(WebhookFailure);
      expect((failure as Error).message).toMatch(/loopback or private/);
    }
    const rebound = await postWebhook(
      { url: 'http://hooks.example.test/x', secret: SECRET },
      body,
      {},
      { allowPrivate: false, resolve: async () => ['93.184.215.14', '127.0.0.1'] },
    ).catch((e: unknown) => e);
    expect((rebound as Error).message).toMatch(/loopback or private/);
    expect(receiver.requests.length).toBe(before);
  });

  it("connects only to the address the check resolved, keeping the URL's host name", async () => {
    const port = new URL(receiver.url).port;
    const before = receiver.requests.length;
    // No resolver on this machine knows the name: the request can only have gone to the checked address.
    await postWebhook(
      { url: `http://hooks.unresolvable.invalid:${port}/hook`, secret: SECRET },
      next(),
      {},
      { allowPrivate: true, resolve: async () => ['127.0.0.1'] },
    );
    expect(receiver.requests[before]?.headers.host).toBe(`hooks.unresolvable.invalid:${port}`);
  });

  it('does not follow a redirect, and fails with the status of any answer but 2xx', async () => {
    receiver.answer(302, { location: 'http://169.254.169.254/latest/meta-data' });
    const before = receiver.requests.length;
    await expect(
      postWebhook({ url: receiver.url, secret: SECRET }, next(), {}, { allowPrivate: true }),
    ).rejects.toMatchObject({ status: 302, message: expect.stringMatching(/redirect, which is not followed/) });
    expect(receiver.requests.length).toBe(before + 1);
    receiver.answer(503);
    await expect(
      postWebhook({ url: receiver.url, secret: SECRET }, next(), {}, { allowPrivate: true }),
    ).rejects.toMatchObject({ status: 503, message: 'the webhook answered 503: ok' });
  });
});

describe('a webhook that does not answer', () => {
  let silent: Server;
  beforeAll(async () => {
    silent = createServer(() => {
      // Takes the request and never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    silent.closeAllConnections();
    silent.close();
  });

  it('fails after the timeout', async () => {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
    await expect(
      postWebhook({ url, secret: SECRET }, body, {}, { allowPrivate: true, timeoutMs: 300 }),
    ).rejects.toMatchObject({ message: 'the webhook did not answer within 0.3 s' });
  });
});
