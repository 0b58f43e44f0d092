import 'server-only';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** The request header that carries the TCP peer's address to the route handlers (see below). */
export const PEER_ADDRESS_HEADER = 'x-tsb-peer-address';

const holder = globalThis as unknown as { __peerAddressHook?: boolean };

/**
 * Next.js 16 gives a route handler a Request rebuilt from the Node request's headers, and nothing of the
 * socket: `base-server.js` only fills `X-Forwarded-For` from `socket.remoteAddress` when the client did not
 * send one (`??=`), so that header is the client's choice. Node publishes every request on the diagnostics
 * channel `http.server.request.start` with its socket, synchronously, before the server's 'request' event
 * (hence before Next.js reads anything): the subscriber writes the socket's address into our own header,
 * replacing whatever a client sent under that name. No custom server, no patched Node or Next.js API.
 *
 * Limits: it sees every HTTP server of the process (harmless: one more request header); requests taken in
 * the milliseconds between `listen` and instrumentation's `register()` carry no such header and share the
 * address "unknown"; an HTTP/2 server (`node:http2`, which `next start` does not use) is not covered.
 */
export function installPeerAddressHook(): void {
  if (holder.__peerAddressHook) return;
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? '';
  });
  holder.__peerAddressHook = true;
}
