import 'server-only';
import { isIPv4, isIPv6 } from 'node:net';
import { PEER_ADDRESS_HEADER } from './peer-address';

/**
 * The address the sign-in limits count against. With no trusted proxy (`TRUSTED_PROXY_HOPS=0`) it is the TCP
 * peer's, from the socket (lib/server/http/peer-address.ts); `X-Forwarded-For` is ignored, since a client writes
 * what it likes there. With `n` trusted proxies, each appending the address it received the request from, it
 * is the n-th entry from the right of `X-Forwarded-For`: the one the outermost trusted proxy appended. Entries
 * left of it were written by the client and are ignored. A list shorter than `n` did not pass through every
 * proxy, so the socket's address is used.
 *
 * IPv6 addresses count by their /64 (one host usually holds the whole /64); IPv4-mapped IPv6 counts as IPv4.
 */
export function clientAddress(request: Request, trustedHops: number): string {
  if (trustedHops > 0) {
    const entries = request.headers.get('x-forwarded-for')?.split(',') ?? [];
    const stated = entries.length >= trustedHops ? entries.at(-trustedHops)!.trim() : '';
    if (stated) return addressKey(stated);
  }
  const peer = request.headers.get(PEER_ADDRESS_HEADER);
  return peer ? addressKey(peer) : 'unknown';
}

/** One key per client: ports and brackets dropped (`[2001:db8::1]:443`, `192.0.2.1:80`), IPv6 as its /64. */
export function addressKey(raw: string): string {
  let address = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0)
  if (isIPv4(address)) return address;
  if (isIPv6(address)) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? mapped[1]! : `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
  }
  // Not an address: what a trusted proxy wrote (e.g. "unknown"), counted as it is.
  return address.slice(0, 100);
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded, an embedded IPv4 tail counting two. */
function ipv6Groups(address: string): string[] {
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes('.') ? 2 : 1), 0);
  const split = (part: string) => (part ? part.split(':') : []);
  const [head = '', tail] = address.split('::');
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const zeros = tail === undefined ? 0 : 8 - width(left) - width(right);
  return [...left, ...Array<string>(zeros).fill('0'), ...right].map((g) =>
    g.includes('.') ? g : parseInt(g, 16).toString(16),
  );
}
