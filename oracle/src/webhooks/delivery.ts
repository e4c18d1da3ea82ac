/**
 * One HTTP attempt of a webhook delivery, with the SSRF guard where it counts: the host is
 * resolved here, every address it resolves to must be public (unless the operator allow-listed
 * the host), and the connection goes to the address that was checked (a custom `lookup`), so a
 * name that answers differently the second time (DNS rebinding) cannot slip through. Redirects
 * are not followed (a 3xx is a failed attempt), the attempt has a deadline, and at most
 * `RESPONSE_SNIPPET_BYTES` of the answer are read.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';
import { bareHost, effectivePort, isAllowListed, isPublicAddress } from './address-policy.ts';
import type { AllowList } from './address-policy.ts';

/** What is kept of a non-2xx answer for the delivery record. */
export const RESPONSE_SNIPPET_BYTES = 256;

export interface AttemptRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  timeoutMs: number;
  allowList: AllowList;
}

export type AttemptOutcome =
  /** The target answered (any status); `snippet` is the start of a non-2xx body. */
  | { kind: 'answered'; status: number; snippet?: string }
  /** The guard refused the target: nothing was sent. */
  | { kind: 'refused'; message: string }
  /** No answer: DNS, connection, TLS, reset, or the deadline. */
  | { kind: 'no_answer'; message: string };

export function isDelivered(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
}

interface Resolved {
  address: string;
  family: 4 | 6;
}

/** Why a target gets no request: the guard refused it, or it has no address to reach. */
type Unreachable = DomainError<'refused' | 'no_answer'>;

async function resolveChecked(url: URL, allowList: AllowList): Promise<Result<Resolved, Unreachable>> {
  const allowed = isAllowListed(url, allowList);
  if (!allowed && url.protocol !== 'https:') return fail({ code: 'refused', message: 'not https and not in the allow-list' });
  const host = bareHost(url.hostname);
  let addresses: Resolved[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 4 ? 4 : 6 }];
  } else {
    try {
      const found = await dnsLookup(host, { all: true, verbatim: true });
      addresses = found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
    } catch (error) {
      return fail({ code: 'no_answer', message: `DNS lookup failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  // Every answer must be public: a name that mixes a public and a private address is refused
  // rather than hoping the public one is picked.
  if (!allowed && (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address)))) {
    return fail({ code: 'refused', message: `${host} resolves to a private, loopback or reserved address` });
  }
  const first = addresses[0];
  if (first === undefined) return fail({ code: 'no_answer', message: `${host} has no address` });
  return ok(first);
}

/** A `lookup` that answers with the checked address whatever is asked. */
function pinnedLookup(pinned: Resolved): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) {
      callback(null, [{ address: pinned.address, family: pinned.family }]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}

function readSnippet(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      response.destroy();
      resolve(Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'));
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_SNIPPET_BYTES) done();
    });
    response.once('end', done);
    response.once('error', done);
  });
}

function timeLeft(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/** `work`, or `late` once `ms` have passed, whichever settles first. */
function within<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** Posts once, within `timeoutMs` from the DNS lookup to the answer; never throws. */
export async function attemptDelivery(attempt: AttemptRequest): Promise<AttemptOutcome> {
  const deadline = Date.now() + attempt.timeoutMs;
  const tooLate = { kind: 'no_answer', message: `no answer within ${attempt.timeoutMs} ms` } as const satisfies AttemptOutcome;
  const url = new URL(attempt.url);
  const resolved = await within(
    resolveChecked(url, attempt.allowList),
    attempt.timeoutMs,
    fail<Unreachable>({ code: tooLate.kind, message: tooLate.message }),
  );
  if (!resolved.ok) return { kind: resolved.error.code, message: resolved.error.message };
  const options: RequestOptions = {
    method: 'POST',
    host: bareHost(url.hostname),
    port: effectivePort(url),
    path: `${url.pathname}${url.search}`,
    headers: { ...attempt.headers, 'content-length': String(Buffer.byteLength(attempt.body)) },
    lookup: pinnedLookup(resolved.value),
    // A fresh connection per attempt: a pooled one might lead to an address checked for another URL.
    agent: false,
  };
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request: ClientRequest = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        response.destroy();
        settle({ kind: 'answered', status });
        return;
      }
      readSnippet(response).then(
        (snippet) => settle({ kind: 'answered', status, snippet }),
        () => settle({ kind: 'answered', status }),
      );
    });
    const timer = setTimeout(() => {
      settle(tooLate);
      request.destroy();
    }, timeLeft(deadline));
    request.once('error', (error) => settle({ kind: 'no_answer', message: error.message }));
    request.end(attempt.body);
  });
}
