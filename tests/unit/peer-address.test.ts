import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPeerAddressHook, PEER_ADDRESS_HEADER } from '@/lib/server/http/peer-address';

let server: Server;
beforeAll(async () => {
  installPeerAddressHook();
  // What a route handler gets: the headers of the Node request, as Next.js copies them into the Request.
  server = createServer((req, res) => res.end(JSON.stringify(req.headers)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A request from a chosen loopback address (Linux routes all of 127/8 to lo). */
function headersSeen(localAddress: string, headers: Record<string, string>): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: '127.0.0.1', port, localAddress, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the peer address hook (diagnostics channel http.server.request.start)', () => {
  it('writes the socket address into the request, over whatever the client sent under that name', async () => {
    const seen = await headersSeen('127.0.0.9', {
      [PEER_ADDRESS_HEADER]: '203.0.113.1',
      'x-forwarded-for': '198.51.100.1',
    });
    expect(seen[PEER_ADDRESS_HEADER]).toBe('127.0.0.9');
    // X-Forwarded-For is left as the client sent it: only trusted proxy hops make it count.
    expect(seen['x-forwarded-for']).toBe('198.51.100.1');
  });

  it('is installed once however often it is asked', async () => {
    installPeerAddressHook();
    expect((await headersSeen('127.0.0.10', {}))[PEER_ADDRESS_HEADER]).toBe('127.0.0.10');
  });
});
