import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@/lib/server/notify/webhook-signature';

/** One request the receiver got, and what it answered. */
export type ReceivedHook = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body read as JSON (null when it is not). */
  json: unknown;
  /** 2xx: accepted; 401: not signed by the secret, or too old; 409: a replay of a request it accepted. */
  status: number;
  problem: string | null;
};

export type WebhookReceiver = {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  /** Every request, accepted or not, in order. */
  requests: ReceivedHook[];
  /** The requests it accepted (signed, fresh and not seen before). */
  accepted(): ReceivedHook[];
  /** Resolves once `count` requests in all have arrived (at once if they have). */
  waitFor(count: number): Promise<ReceivedHook[]>;
  /** What it answers accepted requests from now on (200 unless told): a status, and headers such as Location. */
  answer(status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
};

/**
 * A webhook receiver on loopback that does what we tell receivers to do (README, Webhooks): checks the signature
 * over the raw body with verifyWebhookSignature, refuses a timestamp outside the window, and refuses a request
 * it has already accepted (same timestamp and signature: a replay inside the window).
 */
export async function startWebhookReceiver(
  secret: string,
  options: { now?: () => number; windowS?: number; port?: number } = {},
): Promise<WebhookReceiver> {
  const now = options.now ?? (() => Date.now());
  const requests: ReceivedHook[] = [];
  const seen = new Set<string>();
  const waiters: { count: number; resolve: (hooks: ReceivedHook[]) => void }[] = [];
  let reply: { status: number; headers: Record<string, string> } = { status: 200, headers: {} };
  const settle = () => {
    for (const w of [...waiters]) {
      if (requests.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(requests.slice());
      }
    }
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // Not JSON: kept as text, still checked.
      }
      const check = verifyWebhookSignature(secret, req.headers, raw, now(), options.windowS);
      const key = `${String(req.headers['x-signature-timestamp'])}:${String(req.headers['x-signature-256'])}`;
      let status = reply.status;
      let problem: string | null = null;
      if (!check.ok) [status, problem] = [401, check.problem];
      else if (seen.has(key)) [status, problem] = [409, 'a replay of a request already accepted'];
      else seen.add(key);
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
        status,
        problem,
      });
      res.writeHead(status, { 'content-type': 'text/plain', ...(status === reply.status ? reply.headers : {}) });
      res.end(problem ?? 'ok');
      settle();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    accepted: () => requests.filter((r) => r.status >= 200 && r.status < 300),
    waitFor(count) {
      return new Promise((resolve) => {
        waiters.push({ count, resolve });
        settle();
      });
    },
    answer(status, headers = {}) {
      reply = { status, headers };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
