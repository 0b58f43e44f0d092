import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from '@/lib/server/http/client-address';
import { PEER_ADDRESS_HEADER } from '@/lib/server/http/peer-address';

const from = (peer: string | null, forwardedFor?: string) => {
  const headers = new Headers();
  if (peer !== null) headers.set(PEER_ADDRESS_HEADER, peer);
  if (forwardedFor !== undefined) headers.set('x-forwarded-for', forwardedFor);
  return new Request('http://app.test/api/session', { headers });
};

describe('the client address the sign-in limits count by', () => {
  it('is the socket peer without trusted proxies: X-Forwarded-For, written by the client, is ignored', () => {
    expect(clientAddress(from('203.0.113.9', '198.51.100.1'), 0)).toBe('203.0.113.9');
    expect(clientAddress(from('203.0.113.9', '198.51.100.1, 198.51.100.2'), 0)).toBe('203.0.113.9');
  });

  it('is the n-th X-Forwarded-For entry from the right behind n trusted proxies, whatever the client prepended', () => {
    // The client sent "1.1.1.1"; proxy A appended the client's real address, proxy B (the peer) A's.
    const request = from('10.0.0.2', '1.1.1.1, 203.0.113.7, 10.0.0.1');
    expect(clientAddress(request, 1)).toBe('10.0.0.1');
    expect(clientAddress(request, 2)).toBe('203.0.113.7');
  });

  it('is the socket peer when the list is shorter than the trusted hops, or its entry is empty', () => {
    expect(clientAddress(from('10.0.0.2', '203.0.113.7'), 2)).toBe('10.0.0.2');
    expect(clientAddress(from('10.0.0.2'), 1)).toBe('10.0.0.2');
    expect(clientAddress(from('10.0.0.2', '203.0.113.7, '), 1)).toBe('10.0.0.2');
  });

  it('is "unknown" (one shared bucket) when no socket address reached the handler', () => {
    expect(clientAddress(from(null, '198.51.100.1'), 0)).toBe('unknown');
  });

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['192.0.2.1:8080', '192.0.2.1'],
    ['[2001:db8::1]:443', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::ffff', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s (ports dropped, IPv6 by its /64)', (raw, key) => {
    expect(addressKey(raw)).toBe(key);
  });
});
