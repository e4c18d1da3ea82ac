import type { Request, Response } from 'express';
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import { parseCid } from '../../ipfs/content-store.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { AppError, Result } from '../../domain/errors.ts';
import type { SessionUser } from '../../domain/request-charge.ts';
import { signFoundJob } from '../../domain/signatures.ts';
import type { IssuedSignature, SignableJob, SignatureSubject } from '../../domain/signatures.ts';
import type { AppDeps, MintServices } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { addressSchema, bytes32Schema } from '../schema-parts.ts';
import { describeIssues, idempotencyKeyHeaderSchema, variantAErrorSchema } from '../schemas.ts';

export type SignatureRouterDeps = Pick<AppDeps, 'db' | 'metrics' | 'logger' | 'now'> & MintServices;

/** Longest metadata URI accepted; the contract stores the string, so keep it bounded. */
const METADATA_URI_MAX = 512;

/** `ipfs://<cid>` or `ipfs://<cid>/<path>` with a CID that parses. */
export const metadataUriSchema = z
  .string()
  .max(METADATA_URI_MAX)
  .refine((value) => {
    const match = /^ipfs:\/\/([A-Za-z0-9]+)(\/[\x21-\x7e]*)?$/.exec(value);
    return match?.[1] !== undefined && parseCid(match[1]).ok;
  }, 'must be ipfs://<cid> with a valid CID')
  .meta({ description: 'Metadata URI the token will carry.', example: 'ipfs://bafkreibwnxqpvexampleexampleexampleexampleexampleexample' });

export const signatureRequestSchema = z
  .strictObject({
    job_id: z.string().min(1).max(100).meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }),
    user_address: addressSchema.meta({ description: 'Must be the authenticated wallet.' }),
    metadata_uri: metadataUriSchema,
  })
  .meta({ id: 'SignatureRequest' });

export const signatureRequestVariantBSchema = z
  .strictObject({ metadataURI: metadataUriSchema, audioHash: bytes32Schema })
  .meta({ id: 'SignatureRequestVariantB' });

export const signatureResponseSchema = z
  .object({
    signature: z.string().meta({ description: '65-byte EIP-191 signature, hex.' }),
    audio_hash: z.string(),
    expires_at: z.iso.datetime().meta({ description: 'Issue time + 1 hour (UTC).' }),
    job_id: z.string(),
  })
  .meta({ id: 'SignatureResponse' });

export const signatureResponseVariantBSchema = z
  .object({ signature: z.string(), expiresAt: z.number().int().meta({ description: 'Unix seconds.' }) })
  .meta({ id: 'SignatureResponseVariantB' });

type ParsedRequest = Result<SignatureInput & { variant: 'A' | 'B' }>;

/** Variant B is recognised by its camelCase fields; anything else is read as Variant A. */
export function parseSignatureRequest(body: unknown): ParsedRequest {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const variantB = isObject && !('job_id' in body) && ('metadataURI' in body || 'audioHash' in body);
  if (variantB) {
    const parsed = signatureRequestVariantBSchema.safeParse(body);
    if (!parsed.success) return fail(invalid(parsed.error));
    return ok({ variant: 'B', subject: { audioHash: parsed.data.audioHash.toLowerCase() as Hex }, metadataUri: parsed.data.metadataURI });
  }
  const parsed = signatureRequestSchema.safeParse(body);
  if (!parsed.success) return fail(invalid(parsed.error));
  return ok({
    variant: 'A',
    subject: { jobId: parsed.data.job_id },
    metadataUri: parsed.data.metadata_uri,
    userAddress: parsed.data.user_address,
  });
}

function invalid(error: z.ZodError): AppError {
  return appError('VALIDATION_ERROR', 'Invalid signature request', { details: describeIssues(error) });
}

/** What the signature routes issue a signature for (their input). */
export interface SignatureInput {
  subject: SignatureSubject;
  metadataUri: string;
  /** Variant A and C name the wallet; it must be the caller's. */
  userAddress?: string;
}

/**
 * Issues a mint signature for `job`, as the charge's lookup (`signableJobLookup`) found it:
 * shared by POST /api/signature and Variant C's POST /v1/nft/mint. Answers the error and returns
 * null when it refuses.
 */
export async function signForRequest(
  deps: SignatureRouterDeps,
  call: { req: Request; res: Response; user: SessionUser; input: SignatureInput; found: SignableJob | null },
): Promise<IssuedSignature | null> {
  const { req, res, user, input: request } = call;
  if (request.userAddress !== undefined && request.userAddress.toLowerCase() !== user.walletAddress) {
    sendError(
      req,
      res,
      appError('FORBIDDEN', 'user_address is not your wallet', {
        details: 'A mint signature is issued only for the authenticated wallet, which must also send the mint transaction.',
      }),
    );
    return null;
  }
  const signatureDeps = {
    db: deps.db,
    objectStore: deps.objectStore,
    signer: deps.signer,
    now: deps.now,
    ...(deps.signerStatus === undefined ? {} : { signerStatus: deps.signerStatus }),
    modelLicence: deps.modelLicence,
    maxOutsideShare: deps.maxOutsideShare,
  };
  const signatureRequest = {
    userId: user.id,
    minter: user.walletAddress as Address,
    subject: request.subject,
    metadataUri: request.metadataUri,
  };
  const result = await signFoundJob(signatureDeps, signatureRequest, call.found);
  if (!result.ok) {
    if (result.error.code === 'SIGN_004')
      deps.logger.error({ jobId: result.error.jobId, details: result.error.details }, 'stored audio failed its hash check');
    sendError(req, res, result.error);
    return null;
  }
  deps.metrics.signaturesIssued.inc();
  res.setHeader('Cache-Control', 'no-store');
  return result.value;
}

/** POST /api/signature's body: Variant B by its camelCase fields, Variant A otherwise. */
export function signatureInput(req: Request): Result<SignatureInput & { variant: 'A' | 'B' }> {
  return parseSignatureRequest(req.body);
}

/**
 * POST /api/signature (Variants A and B): the route table validates the body first (bad input is
 * not charged), then reads the user, charges the route's category and finds the job in one
 * statement (`signableJobLookup`).
 */
export function signatureHandler(
  deps: SignatureRouterDeps,
): (call: SignedInCall<SignatureInput & { variant: 'A' | 'B' }, SignableJob>) => Promise<void> {
  return async (call) => {
    const issued = await signForRequest(deps, call);
    if (issued === null) return;
    if (call.input.variant === 'B') {
      call.res.json({ signature: issued.signature, expiresAt: Math.floor(issued.expiresAt.getTime() / 1000) } satisfies z.infer<
        typeof signatureResponseVariantBSchema
      >);
      return;
    }
    call.res.json({
      signature: issued.signature,
      audio_hash: issued.audioHash,
      expires_at: issued.expiresAt.toISOString(),
      job_id: issued.jobId,
    } satisfies z.infer<typeof signatureResponseSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantAErrorSchema } } });
export const signatureDocs: RouteDocs = {
  tags: ['mint'],
  summary: 'Issue the one-time platform signature that authorizes minting a completed job (Variants A and B)',
  description:
    'Checks in order: (1) the job belongs to the caller (SIGN_001, 404), (2) it is completed (SIGN_003, 409), (3) no signature was issued before (SIGN_002, 409) — except one made by a platform key SongNFT has since retired, for audio never minted, which can never be used and is replaced by a signature from the current key, (4) the stored audio still hashes to the recorded value (SIGN_004, 409); then the model that made the audio must be licensed for commercial use unless the operator overrides it (SIGN_005, 403), and no other job may hold the same sound (PCM hash) first: one that made it earlier, of any account, and can still be signed, or one signed for it (SIGN_006, 409: one mint per sound, for the job that made it first); a song whose edit chain starts from an uploaded file must not contain a sound made for another account before it, signed or not, however re-encoded, filtered, overlaid, cut, sped up or transposed, by its landmark fingerprint (SIGN_007, 409, naming that song in `error.earlier_song`: its job and its token once minted; your own songs, their edits and extensions pass, and so does a later copy of your own song; a song made from the prompt alone is never refused for resembling another account’s), and at most `MINT_MAX_OUTSIDE_SHARE` (0.5 unless the operator sets it) of the song may be uploaded audio kept verbatim through its edits (SIGN_008, 403). Every completed song is registered to its account at completion (docs/fingerprints.md). `user_address` must be the authenticated wallet (FORBIDDEN, 403). Variant B (`metadataURI`, `audioHash`) finds the job by its audio hash and answers `{signature, expiresAt}`.',
  request: {
    headers: z.object({ 'Idempotency-Key': idempotencyKeyHeaderSchema }),
    body: {
      content: { 'application/json': { schema: z.union([signatureRequestSchema, signatureRequestVariantBSchema]) } },
    },
  },
  responses: {
    200: {
      description: 'Signature issued.',
      content: { 'application/json': { schema: z.union([signatureResponseSchema, signatureResponseVariantBSchema]) } },
    },
    400: error('Invalid input (VALIDATION_ERROR).'),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    403: error(
      'user_address is not the authenticated wallet (FORBIDDEN); SIGN_005: the model that made the audio is licensed for non-commercial use only; SIGN_008: more of the song than the operator allows (MINT_MAX_OUTSIDE_SHARE) is uploaded audio kept verbatim.',
    ),
    404: error('SIGN_001: no such job of the caller.'),
    409: error(
      'SIGN_002 already signed, SIGN_003 not completed, SIGN_004 audio hash mismatch, SIGN_006 another job made the same sound first or holds its signature, SIGN_007 the song (one carrying uploaded audio) contains a sound made earlier for another account (named in `error.earlier_song`); IDEM_002 a request with this Idempotency-Key is still running.',
    ),
    422: error('IDEM_001: Idempotency-Key reused with a different request.'),
    429: error('Hourly metadata and NFT limit (RATE_002).'),
    503: error('Object storage, or the chain while telling whether an earlier signature still works, unavailable (SERVICE_UNAVAILABLE).'),
  },
};
