/**
 * Whether a failure means a resource ran out (a full disk above all) rather than a bad request
 * or a bug: the oracle answers 503 for it (oracle/src/http/error-handler.ts) and a worker waits
 * for space instead of spending a retry (inference/src/worker/worker.ts). docs/operations.md
 * "Disk full" says what each component does when its disk fills.
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

export function isResourceExhausted(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 8) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && (OUT_OF_SPACE_ERRNO.has(code) || isInsufficientResourcesSqlState(code))) return true;
  if (OUT_OF_SPACE_TEXT.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isResourceExhausted(inner, depth + 1))) return true;
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause !== error && isResourceExhausted(cause, depth + 1);
}
