/**
 * Deadlines of every object-store call (docs/operations.md, "Deadlines"). A store that stops
 * answering without closing must fail a call with `unavailable` in bounded time, never hang it:
 *
 * - `connectMs`: opening the TCP (and TLS) connection.
 * - `idleMs`: the socket silent this long, in either direction, abandons the attempt. A transfer
 *   in progress is never silent, so this bounds a stalled store, not a large object.
 * - `requestMs`: one attempt from the first byte sent to the last byte received, whatever its
 *   pace: the bound on an upload that trickles (the MP3s are a few MB).
 * - `attempts`: tries per call, the first included (the SDK's standard retry, with backoff).
 *   Two: a connection reset is retried once; a stalled store costs at most two `idleMs`, which
 *   keeps a request that reads the store (a mint signature's hash) within the API's deadline.
 */
export const OBJECT_STORE_DEADLINES = {
  connectMs: 3000,
  idleMs: 5000,
  requestMs: 60_000,
  attempts: 2,
} as const;
