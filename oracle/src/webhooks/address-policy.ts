/**
 * Where webhooks may go. A webhook URL is chosen by the user, so without a guard the oracle would
 * post into its own network (SSRF): the database, cloud metadata at 169.254.169.254, admin ports
 * on loopback. Addresses in private, loopback, link-local, shared (CGNAT), multicast, reserved
 * and documentation ranges are refused, IPv6 forms that embed an IPv4 address included (mapped,
 * compatible, NAT64, 6to4), since they may reach the same hosts. An operator's allow-list
 * (`WEBHOOK_ALLOWED_HOSTS`, empty in production) lifts the guard for named hosts in development.
 */
import { BlockList, isIP } from 'node:net';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';

/** A host, optionally with a port; no port matches every port of the host. */
export interface AllowedHost {
  host: string;
  port?: number;
}

export type AllowList = ReadonlyArray<AllowedHost>;

const IPV4_REFUSED: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const IPV6_REFUSED: ReadonlyArray<[string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['::ffff:0:0', 96], // IPv4-mapped
  ['64:ff9b::', 96], // NAT64 (embeds an IPv4 address)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

/**
 * One list per family: a BlockList checks IPv4 addresses against its IPv6 rules too (as
 * IPv4-mapped), so the `::ffff:0:0/96` rule would refuse every IPv4 address in a shared list.
 */
function refusedRanges(ranges: ReadonlyArray<[string, number]>, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

/** Built once and never changed after. */
const REFUSED_IPV4 = refusedRanges(IPV4_REFUSED, 'ipv4');
const REFUSED_IPV6 = refusedRanges(IPV6_REFUSED, 'ipv6');

/** Whether `address` (an IP literal, IPv6 without brackets) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !REFUSED_IPV4.check(address, 'ipv4');
  if (family === 6) return !REFUSED_IPV6.check(address, 'ipv6');
  return false;
}

/** `[::1]` → `::1`; lower-case, as URL hostnames and allow-list entries are compared. */
export function bareHost(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** The port a URL connects to. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Whether the operator's allow-list names this URL's host (and port, where the entry has one). */
export function isAllowListed(url: URL, allowList: AllowList): boolean {
  const host = bareHost(url.hostname);
  const port = effectivePort(url);
  return allowList.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port));
}

/**
 * Parses `WEBHOOK_ALLOWED_HOSTS`: a comma list of `host` or `host:port` (an IPv6 literal in
 * brackets). Fails with the first malformed entry.
 */
export function parseAllowList(value: string): Result<AllowList, DomainError<'ALLOW_LIST_INVALID'>> {
  const entries: AllowedHost[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    let parsed: URL;
    try {
      parsed = new URL(`http://${item}`);
    } catch {
      return fail({ code: 'ALLOW_LIST_INVALID', message: `${item}: not a host or host:port` });
    }
    if (
      parsed.username !== '' ||
      parsed.password !== '' ||
      parsed.pathname !== '/' ||
      parsed.search !== '' ||
      parsed.hash !== '' ||
      item.includes('/')
    ) {
      return fail({ code: 'ALLOW_LIST_INVALID', message: `${item}: not a host or host:port` });
    }
    const hasPort = /:\d+$/.test(item) && !(item.startsWith('[') && item.endsWith(']'));
    entries.push({ host: bareHost(parsed.hostname), ...(hasPort ? { port: Number(item.slice(item.lastIndexOf(':') + 1)) } : {}) });
  }
  return ok(entries);
}
