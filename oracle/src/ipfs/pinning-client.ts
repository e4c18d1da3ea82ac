/**
 * Client of the IPFS Pinning Service API (ipfs/pinning-services-api-spec: Pinata, Filebase,
 * 4EVERLAND, ...). `pin` asks the service to pin a CID we computed offline and checks that the
 * service's pin object names the same CID: a service that recomputed the content under another
 * profile (or pinned something else) is caught before the CID is put on chain.
 */
import { CID } from 'multiformats/cid';
import { z } from 'zod';
import type { DomainError, Result } from '../../../core/src/result.ts';

export interface PinningClientOptions {
  /** Service base URL, e.g. `https://api.pinata.cloud/psa`; `/pins` is appended. */
  endpoint: string;
  accessToken: string;
  /** Milliseconds before a request is abandoned. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export type PinStatus = 'queued' | 'pinning' | 'pinned' | 'failed';

export interface PinReceipt {
  requestId: string;
  /** A failed pin is an error, never a receipt. */
  status: Exclude<PinStatus, 'failed'>;
  cid: string;
}

export type PinningErrorCode = 'unauthorized' | 'rejected' | 'cid_mismatch' | 'pin_failed' | 'unavailable' | 'bad_response';

export interface PinningError extends DomainError<PinningErrorCode> {
  httpStatus?: number;
}

export type PinResult = Result<PinReceipt, PinningError>;

export interface PinRequest {
  cid: CID;
  name?: string;
  /** Multiaddrs of peers that hold the blocks (e.g. our own node), as the spec allows. */
  origins?: string[];
  meta?: Record<string, string>;
}

export interface PinningClient {
  pin(request: PinRequest): Promise<PinResult>;
  status(requestId: string, expected: CID): Promise<PinResult>;
}

const pinStatusSchema = z.object({
  requestid: z.string().min(1),
  status: z.enum(['queued', 'pinning', 'pinned', 'failed']),
  pin: z.object({ cid: z.string().min(1) }),
});

const failureSchema = z.object({ error: z.object({ reason: z.string(), details: z.string().optional() }) });

export function createPinningClient(options: PinningClientOptions): PinningClient {
  const base = options.endpoint.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function call(path: string, init: RequestInit, expected: CID): Promise<PinResult> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${options.accessToken}`,
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: 'unavailable', message } };
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const failure = failureSchema.safeParse(body);
      const reason = failure.success
        ? `${failure.data.error.reason}${failure.data.error.details === undefined ? '' : `: ${failure.data.error.details}`}`
        : `HTTP ${response.status}`;
      const code: PinningErrorCode =
        response.status === 401 || response.status === 403 ? 'unauthorized' : response.status >= 500 ? 'unavailable' : 'rejected';
      return { ok: false, error: { code, message: reason, httpStatus: response.status } };
    }
    const parsed = pinStatusSchema.safeParse(body);
    if (!parsed.success) {
      return { ok: false, error: { code: 'bad_response', message: 'response is not a PinStatus object', httpStatus: response.status } };
    }
    const { requestid, status, pin } = parsed.data;
    if (!sameCid(pin.cid, expected)) {
      return {
        ok: false,
        error: { code: 'cid_mismatch', message: `service pinned ${pin.cid}, expected ${expected.toString()}` },
      };
    }
    if (status === 'failed') {
      return { ok: false, error: { code: 'pin_failed', message: `service reports pin ${requestid} failed` } };
    }
    return { ok: true, value: { requestId: requestid, status, cid: expected.toString() } };
  }

  return {
    pin(request) {
      const body = {
        cid: request.cid.toString(),
        ...(request.name === undefined ? {} : { name: request.name }),
        ...(request.origins === undefined ? {} : { origins: request.origins }),
        ...(request.meta === undefined ? {} : { meta: request.meta }),
      };
      return call('/pins', { method: 'POST', body: JSON.stringify(body) }, request.cid);
    },
    status(requestId, expected) {
      return call(`/pins/${encodeURIComponent(requestId)}`, { method: 'GET' }, expected);
    },
  };
}

/** The same content address, whatever multibase the service wrote it in. */
function sameCid(text: string, expected: CID): boolean {
  try {
    return CID.parse(text).equals(expected);
  } catch {
    return false;
  }
}
