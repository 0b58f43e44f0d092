import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { READ_TEXT, readWhole, type RawResponse, type TextReader } from './transport';

/** The most sockets open to the service at once (per origin and process); lib/server/upstream.ts shares them out. */
export const UPSTREAM_SOCKETS = 64;

/**
 * Sockets kept open per upstream origin (more concurrent requests wait for a free one). Node drops an idle
 * socket a second before the server's announced `Keep-Alive: timeout`; without one, after 4 s (undici's
 * default), so that a server closing idle sockets rarely closes one under a request being sent.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: UPSTREAM_SOCKETS, timeout: 4000 };
const agents = { 'http:': new HttpAgent(AGENT_OPTIONS), 'https:': new HttpsAgent(AGENT_OPTIONS) };

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

function decoded(response: IncomingMessage): Readable {
  switch (String(response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return headers;
}

type Exchange = { status: number; statusText: string; headers: Headers; payload: Buffer<ArrayBuffer> | null };

/** The checks of keepAliveFetch: the agent for a URL it serves, else undefined (the global fetch serves it). */
function agentFor(input: Parameters<typeof fetch>[0], init: RequestInit): { url: URL; agent: HttpAgent } | undefined {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const agent = url ? agents[url.protocol as keyof typeof agents] : undefined;
  if (!url || !agent || (init.body !== undefined && init.body !== null && typeof init.body !== 'string'))
    return undefined;
  return { url, agent };
}

function exchange(url: URL, agent: HttpAgent, init: RequestInit): Promise<Exchange> {
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const body = (init.body ?? undefined) as string | undefined;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));

  return new Promise<Exchange>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && init.redirect !== 'manual') {
          response.resume();
          return reject(new TypeError(`fetch failed: redirect (${status}) not allowed`));
        }
        const chunks: Buffer<ArrayBuffer>[] = [];
        const stream = decoded(response);
        stream.on('data', (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
        stream.on('error', reject);
        response.on('error', reject);
        // A connection that closes before the body's end (truncated answer, reset) is a failure, not a short body.
        response.on('close', () => {
          if (!response.complete) reject(new TypeError('fetch failed: the connection closed before the body ended'));
        });
        stream.on('end', () => {
          const payload = NULL_BODY_STATUS.has(status)
            ? null
            : chunks.length === 1
              ? chunks[0]!
              : Buffer.concat(chunks);
          resolve({ status, statusText: response.statusMessage ?? '', headers: headersOf(response), payload });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * `fetch` for the upstream client over node:http with keep-alive agents, the body read whole. Inside Next.js
 * the global fetch is wrapped for caching and tracing and goes through web streams, which cost about as much
 * as the upstream call itself on a fast service. Covers what the transport uses: a URL or string, method,
 * string body, headers, signal; compressed answers are decoded as fetch would. Redirects are never followed
 * (the transport asks for `redirect: 'error'`): anything but `manual` turns a 3xx into a TypeError, as fetch does.
 * Anything else (a Request object, a stream body) is handed to the global fetch.
 *
 * The transport reads its answers through `[READ_TEXT]` (keepAliveText) instead: the same exchange, the body
 * decoded straight from the buffer, without a Response (building one and reading its body back through a web
 * stream cost more CPU per page than decoding it).
 */
export const keepAliveFetch: typeof fetch & TextReader = Object.assign(
  ((input, init = {}) => {
    const target = agentFor(input, init);
    if (!target) return globalThis.fetch(input, init);
    // new Response throws for a status outside 200-599: the promise rejects, as fetch's does.
    return exchange(target.url, target.agent, init).then(
      ({ status, statusText, headers, payload }) => new Response(payload, { status, statusText, headers }),
    );
  }) as typeof fetch,
  { [READ_TEXT]: keepAliveText },
);

/** keepAliveFetch and `await response.text()` in one: the same answers, the same failures. */
async function keepAliveText(input: URL, init: RequestInit): Promise<RawResponse> {
  const target = agentFor(input, init);
  if (!target) return readWhole(await globalThis.fetch(input, init));
  const { status, headers, payload } = await exchange(target.url, target.agent, init);
  if (status < 200 || status > 599) throw new RangeError(`fetch failed: status ${status} is outside 200-599`);
  return { status, headers, text: payload === null ? '' : utf8Decode(payload) };
}

/** UTF-8 as fetch's `text()` decodes it: a leading byte order mark dropped, bad bytes as U+FFFD. */
export function utf8Decode(payload: Buffer): string {
  const start = payload[0] === 0xef && payload[1] === 0xbb && payload[2] === 0xbf ? 3 : 0;
  return payload.toString('utf8', start);
}
