import { Router } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import { MAX_AUDIO_BYTES } from '../../../../core/src/generation-queue.ts';
import { appError } from '../../domain/errors.ts';
import type { ErrorCode } from '../../domain/errors.ts';
import type { IpfsContentStore, IpfsErrorCode } from '../../ipfs/content-store.ts';
import { parseCid } from '../../ipfs/content-store.ts';
import { sendError } from '../error-response.ts';

export interface GatewayDeps {
  ipfs: Pick<IpfsContentStore, 'cat'>;
}

/** Largest file served: the spec's audio limit. */
const GATEWAY_MAX_BYTES = MAX_AUDIO_BYTES;
/** Content under a CID never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const CAT_ERRORS: Readonly<Record<IpfsErrorCode, { code: ErrorCode; message: string }>> = {
  not_found: { code: 'NOT_FOUND', message: 'Content not held by this gateway' },
  invalid_cid: { code: 'VALIDATION_ERROR', message: 'Invalid CID' },
  too_large: { code: 'PAYLOAD_TOO_LARGE', message: 'Content too large for this gateway' },
  failed: { code: 'INTERNAL_ERROR', message: 'Content could not be read' },
};

async function contentTypeOf(bytes: Uint8Array): Promise<string> {
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed !== undefined) return sniffed.mime;
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return 'application/json; charset=utf-8';
  } catch {
    return 'application/octet-stream';
  }
}

/**
 * Development IPFS gateway, `GET /ipfs/<cid>`: serves content held in the local blockstore (the
 * metadata JSON and covers this oracle added), so `ipfs://` URIs resolve without the public IPFS
 * network. Public, like any gateway; mount it outside authentication. Production uses a public
 * gateway or the pinning provider's.
 */
export function gatewayRouter(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/:cid', async (req, res) => {
    const cidText = String(req.params.cid);
    const cid = parseCid(cidText);
    if (!cid.ok) {
      sendError(req, res, appError('VALIDATION_ERROR', 'Invalid CID', { details: cid.error.message }));
      return;
    }
    const etag = `"${cid.value.toString()}"`;
    if (req.get('if-none-match') === etag) {
      res.status(304).setHeader('ETag', etag).setHeader('Cache-Control', IMMUTABLE).end();
      return;
    }
    const content = await deps.ipfs.cat(cid.value, GATEWAY_MAX_BYTES);
    if (!content.ok) {
      const { code, message } = CAT_ERRORS[content.error.code];
      sendError(req, res, appError(code, message, { details: content.error.message }));
      return;
    }
    res.setHeader('Content-Type', await contentTypeOf(content.value));
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('ETag', etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Ipfs-Path', `/ipfs/${cid.value.toString()}`);
    res.end(Buffer.from(content.value.buffer, content.value.byteOffset, content.value.byteLength));
  });
  return router;
}
