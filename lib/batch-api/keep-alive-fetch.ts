import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';

/**
 * Sockets kept open per upstream origin (more concurrent requests wait for a free one). Node drops an idle
 * socket a second before the server's announced `Keep-Alive: timeout`; without one, after 4 s (undici's
 * default), so that a server closing idle sockets rarely closes one under a request being sent.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, timeout: 4000 };
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

/**
 * `fetch` for the upstream client over node:http with keep-alive agents, the body read whole. Inside Next.js
 * the global fetch is wrapped for caching and tracing and goes through web streams, which cost about as much
 * as the upstream call itself on a fast service. Covers what the transport uses: a URL or string, method,
 * string body, headers, signal; compressed answers are decoded as fetch would. Redirects are never followed
 * (the transport asks for `redirect: 'error'`): anything but `manual` turns a 3xx into a TypeError, as fetch does.
 * Anything else (a Request object, a stream body) is handed to the global fetch.
 */
export const keepAliveFetch: typeof fetch = (input, init = {}) => {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const agent = url ? agents[url.protocol as keyof typeof agents] : undefined;
  if (!url || !agent || (init.body !== undefined && init.body !== null && typeof init.body !== 'string')) {
    return globalThis.fetch(input, init);
  }
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const body = init.body ?? undefined;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));

  return new Promise<Response>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && init.redirect !== 'manual') {
        response.resume();
        return reject(new TypeError(`fetch failed: redirect (${status}) not allowed`));
      }
      const chunks: Buffer[] = [];
      const stream = decoded(response);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      response.on('error', reject);
      // A connection that closes before the body's end (truncated answer, reset) is a failure, not a short body.
      response.on('close', () => {
        if (!response.complete) reject(new TypeError('fetch failed: the connection closed before the body ended'));
      });
      stream.on('end', () => {
        try {
          const payload = NULL_BODY_STATUS.has(status) ? null : Buffer.concat(chunks);
          resolve(new Response(payload, { status, statusText: response.statusMessage, headers: headersOf(response) }));
        } catch (error) {
          reject(error); // a status outside 200-599
        }
      });
    });
    request.on('error', reject);
    request.end(body);
  });
};
