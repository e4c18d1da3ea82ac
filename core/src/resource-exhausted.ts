/**
 * Whether a failure means a resource ran out (a full disk above all) rather than a bad request
 * or a bug: the oracle answers 503 for any of them (`isResourceExhausted`,
 * oracle/src/http/error-handler.ts); a worker waits for space instead of spending a retry only
 * for a full disk (`isOutOfSpace`, inference/src/worker/worker.ts): too many connections or too
 * little memory is no reason to hold a job. docs/operations.md "Disk full" says what each
 * component does when its disk fills.
 *
 * - PostgreSQL: SQLSTATE class 53, insufficient resources: 53100 disk_full (a data file, temp
 *   file or WAL segment that cannot be written), 53200 out_of_memory, 53300
 *   too_many_connections, 53400 configuration_limit_exceeded. The statement failed; the server
 *   lives and serves again once the resource is back.
 * - This process's own files (the IPFS blockstore): ENOSPC, EDQUOT. Some libraries wrap the
 *   error and keep only its text (blockstore-fs's PutFailedError), so the text is read too.
 */

const OUT_OF_SPACE_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
const OUT_OF_SPACE_TEXT = /\b(ENOSPC|EDQUOT)\b|No space left on device|Disk quota exceeded/;

/** True for SQLSTATE class 53 (insufficient resources). */
export function isInsufficientResourcesSqlState(code: string): boolean {
  return /^53[0-9A-Z]{3}$/.test(code);
}

/** SQLSTATE 53100 disk_full. */
const DISK_FULL_SQLSTATE = '53100';

/** Any resource ran out: SQLSTATE class 53, or no space for this process's files. */
export function isResourceExhausted(error: unknown): boolean {
  return someInChain(error, (code) => OUT_OF_SPACE_ERRNO.has(code) || isInsufficientResourcesSqlState(code));
}

/** A disk ran out of space (53100, ENOSPC, EDQUOT): space comes back once an operator frees it. */
export function isOutOfSpace(error: unknown): boolean {
  return someInChain(error, (code) => OUT_OF_SPACE_ERRNO.has(code) || code === DISK_FULL_SQLSTATE);
}

function someInChain(error: unknown, matches: (code: string) => boolean, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 8) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && matches(code)) return true;
  if (OUT_OF_SPACE_TEXT.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => someInChain(inner, matches, depth + 1))) return true;
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause !== error && someInChain(cause, matches, depth + 1);
}
