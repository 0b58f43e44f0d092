import 'server-only';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { signWebhook } from './webhook-signature';
import { webhookTarget } from './webhook-target';

/** A webhook that did not take a delivery: why, in words for the history (never the secret). */
export class WebhookFailure extends Error {
  constructor(
    message: string,
    /** The receiver's HTTP status, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'WebhookFailure';
  }
}

export type WebhookPostOptions = {
  /** Loopback and private targets allowed (WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate: boolean;
  /** The whole request, connecting included. */
  timeoutMs?: number;
  now?: () => number;
  /** For tests: how names resolve (the default asks the system's resolver). */
  resolve?: (host: string) => Promise<string[]>;
};

/** What a receiver answers that we read (to say why it refused); the rest is drained unread. */
const MAX_ANSWER = 2048;

/**
 * POSTs `body` (JSON) to the webhook, signed under its secret. The URL is checked (webhookTarget) right before
 * the request and the connection goes only to the addresses that check resolved, so a name that resolves to
 * a public address when checked and a private one a moment later (DNS rebinding) still reaches only the
 * first; the Host header and TLS server name stay the URL's. Redirects are not followed (a 3xx is a failure:
 * it could point anywhere); any answer but 2xx throws a WebhookFailure with its status.
 */
export async function postWebhook(
  hook: { url: string; secret: string },
  body: string,
  headers: Record<string, string>,
  options: WebhookPostOptions,
): Promise<{ status: number }> {
  const target = await webhookTarget(hook.url, options.allowPrivate, options.resolve);
  if (!target.ok) throw new WebhookFailure(`the webhook's URL ${target.problem}`);
  const { url, addresses } = target;
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    const family = (a: string) => isIP(a) as 4 | 6;
    const wanted =
      lookupOptions.family === 4 || lookupOptions.family === 6
        ? addresses.filter((a) => family(a) === lookupOptions.family)
        : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (lookupOptions.all)
      callback(
        null,
        list.map((address) => ({ address, family: family(address) })),
      );
    else callback(null, list[0]!, family(list[0]!));
  };
  const payload = Buffer.from(body, 'utf8');
  const requestOptions: RequestOptions = {
    method: 'POST',
    lookup: pinned,
    // A fresh connection each time: a pooled socket could have been opened to an address checked earlier.
    agent: false,
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(payload.length),
      'User-Agent': 'tray-scan-dashboard-webhook/1',
      ...headers,
      ...signWebhook(hook.secret, payload, (options.now ?? Date.now)()),
    },
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_ANSWER) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', (error) =>
        reject(new WebhookFailure(`the webhook's answer broke off (${error.message})`, status)),
      );
      res.on('end', () => {
        if (status >= 200 && status < 300) return resolve({ status });
        const said = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ').trim();
        if (status >= 300 && status < 400) {
          reject(
            new WebhookFailure(
              `the webhook answered ${status} (a redirect, which is not followed: give its final URL)`,
              status,
            ),
          );
        } else reject(new WebhookFailure(`the webhook answered ${status}${said ? `: ${said}` : ''}`, status));
      });
    });
    req.on('error', (error: Error & { code?: string }) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR';
      reject(
        new WebhookFailure(
          timedOut
            ? `the webhook did not answer within ${(options.timeoutMs ?? 10_000) / 1000} s`
            : `the webhook could not be reached (${error.code ?? error.message})`,
        ),
      );
    });
    req.end(payload);
  });
}
