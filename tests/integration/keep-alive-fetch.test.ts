import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadResponseError, ServiceUnavailableError, TimeoutError } from '@/lib/batch-api';
import { keepAliveFetch } from '@/lib/batch-api/keep-alive-fetch';
import { READ_TEXT } from '@/lib/batch-api/transport';
import { SPECIAL_CREDENTIALS } from '@/sandbox/organisations';
import { demoClient } from '../helpers/client';
import { control, sandboxForFile } from '../helpers/sandbox';

const sandbox = sandboxForFile({ batches: 700, pageSize: 100 });
const client = (options = {}) => demoClient(sandbox(), { fetch: keepAliveFetch, ...options });
const inject = (kind: string, count = 1) =>
  control(sandbox(), 'POST', '/_sandbox/inject', { kind, count, target: 'batches' });

/** Answers the BFF's fetch must handle that the sandbox never sends: compression and redirects. */
let other: Server;
let otherUrl = '';
beforeAll(async () => {
  other = createServer((req, res) => {
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      return res.end(gzipSync(JSON.stringify({ seen: req.headers['accept-encoding'] })));
    }
    if (req.url === '/bytes') {
      // A byte order mark, bad UTF-8 and a character split across two writes.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0xff, 0xc3, 0x28, 0xe2, 0x82]));
      return setTimeout(() => res.end(Buffer.from([0xac, 0x42])), 10);
    }
    if (req.url === '/empty') return res.writeHead(204).end();
    res.writeHead(302, { location: '/gzip' }).end();
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

describe('keep-alive fetch: the upstream client behaves as with the global fetch', () => {
  it('walks every page, form-encoding the credentials for the token', async () => {
    const batches = await client().list({});
    expect(batches).toHaveLength(700);
    expect(new Set(batches.map((b) => b.batch_id)).size).toBe(700);
    await expect(client(SPECIAL_CREDENTIALS).page({})).resolves.toMatchObject({ data: expect.any(Array) });
  });

  it('retries a reset connection and a body cut off mid-way', async () => {
    const api = client();
    await api.authenticate();
    await inject('reset');
    await inject('truncated');
    expect((await api.page({})).data).toHaveLength(100);
    expect(sandbox().stats.faultsServed).toBe(2);
  });

  it('times out, reports malformed JSON, and stops on the caller’s abort', async () => {
    const api = client({ timeoutMs: 300 });
    await api.authenticate();
    await inject('hang');
    await expect(api.page({})).rejects.toThrow(TimeoutError);
    await inject('malformed-json');
    await expect(api.page({})).rejects.toThrow(BadResponseError);
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('browser went away')), 100);
    await expect(api.page({}, null, { signal: controller.signal })).rejects.toThrow('browser went away');
  });

  it('a service that is down is unavailable, not an unexpected error', async () => {
    const down = demoClient(
      { ...sandbox(), url: 'http://127.0.0.1:1' },
      { fetch: keepAliveFetch, retry: { maxAttempts: 1 } },
    );
    await expect(down.page({})).rejects.toThrow(ServiceUnavailableError);
  });

  it('decodes a compressed answer and refuses to follow a redirect', async () => {
    const response = await keepAliveFetch(`${otherUrl}/gzip`);
    expect(await response.json()).toEqual({ seen: 'gzip, deflate, br' });
    await expect(keepAliveFetch(`${otherUrl}/elsewhere`, { redirect: 'error' })).rejects.toThrow(TypeError);
    expect((await keepAliveFetch(`${otherUrl}/elsewhere`, { redirect: 'manual' })).status).toBe(302);
  });

  it('reads a text body without a Response exactly as fetch and response.text() read it', async () => {
    for (const path of ['/bytes', '/empty', '/gzip']) {
      const viaResponse = await keepAliveFetch(`${otherUrl}${path}`);
      const direct = await keepAliveFetch[READ_TEXT](new URL(`${otherUrl}${path}`), {});
      expect(direct.status).toBe(viaResponse.status);
      expect(direct.text).toBe(await viaResponse.text());
    }
    expect((await keepAliveFetch[READ_TEXT](new URL(`${otherUrl}/bytes`), {})).text).toBe(
      await (await fetch(`${otherUrl}/bytes`)).text(),
    );
  });
});
