import 'server-only';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may point: never at this machine or a private network (a rule's author must not reach the
 * instances' neighbours through us) unless the deployment allows it (WEBHOOK_ALLOW_PRIVATE=1). Checked on the
 * addresses the name resolves to, when a rule is saved and again before each request.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** An address on loopback, a private, link-local, shared, documentation, multicast or reserved network. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

export type WebhookTarget = { ok: true; url: URL; addresses: string[] } | { ok: false; problem: string };

/** `url` as a webhook's target: its resolved addresses, or why it may not be one (in words, for a 422 or the history). */
export async function webhookTarget(url: string, allowPrivate: boolean, resolve = resolveAll): Promise<WebhookTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: 'is not a URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { ok: false, problem: 'must be an http or https URL' };
  if (parsed.username || parsed.password)
    return { ok: false, problem: 'may not carry a user name or password (the signature authenticates us)' };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, problem: `names a host that does not resolve (${host.slice(0, 100)})` };
  }
  if (addresses.length === 0)
    return { ok: false, problem: `names a host that does not resolve (${host.slice(0, 100)})` };
  if (!allowPrivate && addresses.some(isPrivateAddress)) {
    return {
      ok: false,
      problem:
        'points at a loopback or private address, which this deployment does not allow (WEBHOOK_ALLOW_PRIVATE=1 allows it)',
    };
  }
  return { ok: true, url: parsed, addresses };
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}
