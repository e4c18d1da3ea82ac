/**
 * The one HTTP transport of every JSON-RPC client the oracle opens (the chain watcher, the pool
 * indexer, the signer's reads, smart-wallet sign-in, the Farcaster registry), with the deadlines
 * of docs/operations.md ("Deadlines"). An RPC node that stops answering without closing must
 * fail a call in bounded time: the watcher and the indexer then keep their cursors and try again
 * on their next poll, and a request that reads the chain answers 503 within the API's deadline.
 */
import { http } from 'viem';
import type { HttpTransport } from 'viem';

export const RPC_DEADLINES = {
  /** One JSON-RPC call, from sending to the whole answer (viem aborts the fetch). */
  callMs: 5000,
  /** Retries after a failed call (a timeout or a 5xx/429), with viem's backoff from `retryDelayMs`. */
  retries: 1,
  retryDelayMs: 150,
} as const;

/** The longest one RPC read can take: every attempt times out, plus the backoff between them. */
export const RPC_CALL_BOUND_MS =
  (RPC_DEADLINES.retries + 1) * RPC_DEADLINES.callMs + RPC_DEADLINES.retryDelayMs * 2 ** RPC_DEADLINES.retries;

export function rpcTransport(url: string): HttpTransport {
  return http(url, { timeout: RPC_DEADLINES.callMs, retryCount: RPC_DEADLINES.retries, retryDelay: RPC_DEADLINES.retryDelayMs });
}
