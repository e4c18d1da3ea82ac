/**
 * A key held outside the process (a PKCS#11 token or AWS KMS) that signs 32-byte digests with
 * ECDSA. The one interface both services sign through: the oracle's mint signer
 * (oracle/src/chain/mint-signer.ts) over secp256k1, the worker's C2PA signer over P-256.
 */
import type { Result } from '../result.ts';

export type SigningCurve = 'secp256k1' | 'P-256';

export type SigningKeyBackend = 'pkcs11' | 'awskms';

export type SigningKeyErrorCode =
  /** The reference cannot be used: bad syntax, module that does not load, token or key not found, wrong PIN, wrong curve. */
  | 'SIGNING_KEY_INVALID'
  /** The token or KMS did not answer, or failed, within the signing deadline: try again later. */
  | 'SIGNER_UNAVAILABLE';

export interface SigningKeyError {
  code: SigningKeyErrorCode;
  message: string;
}

export interface SigningKey {
  readonly backend: SigningKeyBackend;
  readonly curve: SigningCurve;
  /** SEC1 uncompressed point, `04 || X || Y` (65 bytes). */
  readonly publicKey: Uint8Array;
  /** Which key, without PIN or credentials: for logs, readiness and metrics. */
  readonly display: string;
  /** ECDSA over `digest` (32 bytes, already hashed) as raw `r || s` (64 bytes), s as the backend made it. */
  signDigest(digest: Uint8Array): Promise<Result<Uint8Array, SigningKeyError>>;
  /** Ends the sessions (PKCS#11) or the client (KMS); signatures asked for after this fail. */
  close(): Promise<void>;
}

/** How long one signature may take before the caller is told the signer is unavailable. */
export const SIGNING_DEADLINE_MS = 5000;

export const signingKeyInvalid = (message: string): { ok: false; error: SigningKeyError } => ({
  ok: false,
  error: { code: 'SIGNING_KEY_INVALID', message },
});

export const signerUnavailable = (message: string): { ok: false; error: SigningKeyError } => ({
  ok: false,
  error: { code: 'SIGNER_UNAVAILABLE', message },
});

/** Rejects `work` with SIGNER_UNAVAILABLE after `ms`: a token or KMS that stops answering costs a bounded wait. */
export async function withSigningDeadline<T>(
  work: Promise<Result<T, SigningKeyError>>,
  what: string,
  ms = SIGNING_DEADLINE_MS,
): Promise<Result<T, SigningKeyError>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Result<T, SigningKeyError>>((resolve) => {
    timer = setTimeout(() => resolve(signerUnavailable(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
