/**
 * `TRUST_PROXY` (docs/operations.md "Behind a load balancer"): which peers may say who the client
 * is through `X-Forwarded-For`, in Express's `trust proxy` forms. The client address it yields
 * (`req.ip`) is the key of the per-IP hourly buckets (sign-in, public reads), so a setting that
 * trusts too much lets a client pick its bucket, and one that trusts too little puts every client
 * behind a balancer in the balancer's one bucket.
 *
 * - `loopback` (the default): a proxy on the same host (127.0.0.1/8, ::1); a client that connects
 *   directly cannot set its address;
 * - a hop count `N` (1-32): the last N addresses are proxies of yours, however they connect (a
 *   balancer chain of known depth whose addresses change);
 * - a comma list of addresses, CIDR ranges and Express's names `loopback`, `linklocal`,
 *   `uniquelocal`: those peers and entries are proxies;
 * - `false` (or `off`, `0`): nobody; `req.ip` is the peer's address.
 * `true` is refused: it trusts every hop, so any client names its own address (and bucket) by
 * sending X-Forwarded-For; give the hop count or the proxies' addresses instead. So is a range of
 * every address (`0.0.0.0/0`, `::/0`), which means the same.
 */
import { isIP } from 'node:net';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';

/** What Express's `trust proxy` takes from this setting. */
export type TrustProxy = false | number | readonly string[];

export const DEFAULT_TRUST_PROXY = 'loopback';

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);
const NARROWER = 'give the number of proxies in front of the oracle (e.g. 1) or their addresses (e.g. 10.0.0.0/8)';
const MAX_HOPS = 32;

function checkEntry(entry: string): string | null {
  if (NAMED.has(entry)) return null;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address, a CIDR range or one of ${[...NAMED].join(', ')}`;
  if (prefix === undefined) return null;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `"${entry}": the prefix length must be 1 to ${bits}`;
  // A /0 range is every address: it trusts every hop, as `true` does (and Express's proxy-addr
  // throws on it at start rather than at validation).
  if (Number(prefix) === 0) return `"${entry}" is every address, which trusts every hop as true does; ${NARROWER}`;
  return null;
}

/** Parses a `TRUST_PROXY` value (see above). */
export function parseTrustProxy(value: string): Result<TrustProxy, DomainError<'invalid_trust_proxy'>> {
  const trimmed = value.trim().toLowerCase();
  const invalid = (message: string) => fail({ code: 'invalid_trust_proxy' as const, message });
  if (trimmed === 'false' || trimmed === 'off' || trimmed === '0') return ok(false);
  if (trimmed === 'true') {
    return invalid(
      `true trusts every hop, so any client picks its own address (and rate-limit bucket) through X-Forwarded-For; ${NARROWER}`,
    );
  }
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops <= MAX_HOPS ? ok(hops) : invalid(`a hop count must be 1 to ${MAX_HOPS}`);
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) return invalid('an empty entry in the list');
  for (const entry of entries) {
    const problem = checkEntry(entry);
    if (problem !== null) return invalid(problem);
  }
  return ok(entries);
}
