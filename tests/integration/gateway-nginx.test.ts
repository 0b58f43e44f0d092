import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError, type UpstreamCall } from '@/lib/batch-api';
import { RangeLoad } from '@/lib/batch-api/range-load';
import { problemOf } from '@/lib/server/http/error-table';
import { demoClient, FAST_RETRY } from '../helpers/client';
import { freePort, startNginx, type Nginx } from '../helpers/nginx';
import { control, sandboxForFile, tokenFor, walkV2 } from '../helpers/sandbox';

/**
 * The service behind a real reverse proxy (Debian's nginx, a read timeout of one second): what the
 * dashboard meets are nginx's own 504 page when one request is slow, and its 502 page when the backend is gone.
 */
const sandbox = sandboxForFile({ batches: 1500, pageSize: 100 });
let nginx: Nginx;

beforeAll(async () => {
  nginx = await startNginx({
    service: { target: sandbox().url, readTimeoutS: 1 },
    gone: { target: `http://127.0.0.1:${await freePort()}`, readTimeoutS: 1 },
  });
});
afterAll(() => nginx?.stop());

describe('behind nginx', () => {
  it('one slow request becomes nginx’s HTML 504: retried, the whole range arrives, each batch once', async () => {
    const reference = (await walkV2(sandbox(), await tokenFor(sandbox()))).batches.map((b) => b.batch_id).sort();
    const calls: UpstreamCall[] = [];
    const client = demoClient(sandbox(), { baseUrl: nginx.url('service'), onCall: (c) => calls.push(c) });
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind: 'hang', count: 1 });
    const ids: string[] = [];
    for await (const chunk of new RangeLoad(client, {}, { concurrency: 4 }).chunks())
      ids.push(...chunk.map((b) => b.batch_id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(reference);
    const timedOut = calls.find((c) => c.status === 504)!;
    expect(timedOut.rawBody).toContain('504 Gateway Time-out');
  });

  it('a backend that is gone is nginx’s HTML 502: after the retries, a sentence of ours with nothing of the page', async () => {
    const calls: UpstreamCall[] = [];
    const client = demoClient(sandbox(), { baseUrl: nginx.url('gone'), onCall: (c) => calls.push(c) });
    // The auth endpoint is behind the same proxy: the token fetch of the GET fails, and is retried with it.
    const error = await client.page({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).kind).toBe('gateway');
    expect(calls.length).toBe(FAST_RETRY.maxAttempts);
    expect(calls.every((c) => c.path === '/v2/auth' && c.status === 502)).toBe(true);
    // The page answered a request that carried the credentials: it is not logged (it might echo them).
    expect(calls.every((c) => c.rawBody === undefined)).toBe(true);
    const { status, detail } = problemOf(error);
    expect(status).toBe(503);
    for (const leak of ['<', 'nginx', 'Bad Gateway', '/v2/']) expect(detail).not.toContain(leak);
  });
});
