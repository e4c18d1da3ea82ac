import type { Request } from 'express';
import { z } from 'zod';
import { toPublicJobId } from '../../../../core/src/generation-queue.ts';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import type { SignableJob } from '../../domain/signatures.ts';
import type { AppDeps, MintServices } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { describeIssues, idempotencyKeyHeaderSchema, variantCErrorSchema } from '../schemas.ts';
import { metadataUriSchema, signForRequest } from './signature.ts';
import type { SignatureInput, SignatureRouterDeps } from './signature.ts';
import { addressSchema } from '../schema-parts.ts';

/** Token ids are sequential from 1 and fit PostgreSQL bigint. */
const TOKEN_ID = /^[1-9][0-9]{0,18}$/;
const MAX_BIGINT = 9223372036854775807n;

/** A SongNFT token id from a path segment, or null when it is not one. */
export function parseTokenId(text: string): bigint | null {
  return TOKEN_ID.test(text) && BigInt(text) <= MAX_BIGINT ? BigInt(text) : null;
}

export const nftMintRequestSchema = z
  .strictObject({
    job_id: z.string().min(1).max(100).meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }),
    metadata_uri: metadataUriSchema,
    user_address: addressSchema.optional(),
  })
  .meta({ id: 'NftMintRequest' });

export const nftMintResponseSchema = z
  .strictObject({
    job_id: z.string(),
    signature: z.string(),
    metadata_uri: z.string(),
    audio_hash: z.string(),
    minter: z.string(),
    expires_at: z.iso.datetime(),
    mint_call: z.strictObject({
      chain_id: z.number().int(),
      address: z.string().nullable().meta({ description: 'SongNFT address; null when the oracle has no chain configured.' }),
      function_name: z.literal('mint'),
      args: z.tuple([z.string(), z.string(), z.string()]).meta({ description: '[metadataURI, audioHash, signature]' }),
    }),
  })
  .meta({ id: 'NftMintResponse' });

export const nftResponseSchema = z
  .strictObject({
    token_id: z.string(),
    chain_id: z.number().int(),
    contract: z.string().nullable(),
    metadata_uri: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The metadata JSON when this oracle published it.' }),
    minter: z.string().meta({ description: 'Address that minted the token (transfers are not tracked).' }),
    audio_hash: z.string(),
    audio_url: z.string().nullable(),
    job_id: z.string(),
    mint_tx_hash: z.string().nullable(),
    minted_at: z.iso.datetime().nullable(),
    pool_id: z.string().nullable().meta({ description: "Uniswap v4 PoolId of the song's pool; null until its launch is indexed." }),
    pool_url: z.string().nullable().meta({
      description: 'The pool route (`/v1/trading/pools/{id}`); null until the launch is indexed.',
      example: '/v1/trading/pools/1',
    }),
  })
  .meta({ id: 'Nft' });

interface NftRow {
  token_id: string;
  job_id: string;
  minter: string;
  metadata_uri: string;
  audio_hash: string;
  audio_url: string | null;
  mint_tx_hash: string | null;
  used_at: Date | null;
  document: Record<string, unknown> | null;
  pool_id: string | null;
}

/** POST /v1/nft/mint's body, as the signature routes take it. */
export function nftMintInput(req: Request): Result<SignatureInput> {
  const parsed = nftMintRequestSchema.safeParse(req.body);
  if (!parsed.success) return fail(appError('VALIDATION_ERROR', 'Invalid mint request', { details: describeIssues(parsed.error) }));
  return ok({
    subject: { jobId: parsed.data.job_id },
    metadataUri: parsed.data.metadata_uri,
    ...(parsed.data.user_address === undefined ? {} : { userAddress: parsed.data.user_address }),
  });
}

/** Variant C: POST /v1/nft/mint, a mint authorization with the contract call to make. */
export function nftMintHandler(deps: SignatureRouterDeps): (call: SignedInCall<SignatureInput, SignableJob>) => Promise<void> {
  return async (call) => {
    const issued = await signForRequest(deps, call);
    if (issued === null) return;
    call.res.json({
      job_id: issued.jobId,
      signature: issued.signature,
      metadata_uri: issued.metadataUri,
      audio_hash: issued.audioHash,
      minter: issued.minter,
      expires_at: issued.expiresAt.toISOString(),
      mint_call: {
        chain_id: deps.chain.chainId,
        address: deps.chain.songNftAddress ?? null,
        function_name: 'mint',
        args: [issued.metadataUri, issued.audioHash, issued.signature],
      },
    } satisfies z.infer<typeof nftMintResponseSchema>);
  };
}

/** The `{id}` of GET /v1/nft/{id}: a token id, 400 otherwise. */
export function tokenIdInput(req: Request): Result<string> {
  const id = String(req.params.id);
  if (parseTokenId(id) === null)
    return fail(appError('VALIDATION_ERROR', 'Invalid token id', { details: 'the token id is a positive integer', fields: { id } }));
  return ok(id);
}

/** Variant C: GET /v1/nft/{id}, a minted token (indexed from SongMinted events). */
export function nftHandler(deps: Pick<AppDeps, 'db'> & Pick<MintServices, 'chain'>): (call: SignedInCall<string, never>) => Promise<void> {
  return async ({ req, res, input: id }) => {
    const row = await deps.db.oneOrNone<NftRow>(
      `SELECT s.token_id::text AS token_id, s.job_id, s.minter, s.metadata_uri, s.audio_hash, j.audio_url, s.mint_tx_hash, s.used_at,
              (SELECT m.document FROM song_metadata m WHERE m.metadata_uri = s.metadata_uri ORDER BY m.created_at LIMIT 1) AS document,
              (SELECT p.pool_id FROM song_pools p WHERE p.song_id = s.token_id) AS pool_id
         FROM mint_signatures s JOIN generation_jobs j ON j.id = s.job_id
        WHERE s.token_id = $1`,
      [id],
    );
    if (row === null) {
      sendError(
        req,
        res,
        appError('NOT_FOUND', 'Token not found', { details: 'no Songmint token with this id has been indexed', fields: { id } }),
      );
      return;
    }
    res.json({
      token_id: row.token_id,
      chain_id: deps.chain.chainId,
      contract: deps.chain.songNftAddress ?? null,
      metadata_uri: row.metadata_uri,
      metadata: row.document,
      minter: row.minter,
      audio_hash: row.audio_hash,
      audio_url: row.audio_url,
      job_id: toPublicJobId(row.job_id),
      mint_tx_hash: row.mint_tx_hash,
      minted_at: row.used_at === null ? null : row.used_at.toISOString(),
      pool_id: row.pool_id,
      pool_url: row.pool_id === null ? null : `/v1/trading/pools/${row.token_id}`,
    } satisfies z.infer<typeof nftResponseSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantCErrorSchema } } });
export const nftMintDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: mint authorization for a completed job, with the contract call to make',
  description: 'Same checks and codes as POST /api/signature, errors in the Variant C shape.',
  request: {
    headers: z.object({ 'Idempotency-Key': idempotencyKeyHeaderSchema }),
    body: { content: { 'application/json': { schema: nftMintRequestSchema } } },
  },
  responses: {
    200: { description: 'Signature issued.', content: { 'application/json': { schema: nftMintResponseSchema } } },
    400: error('VALIDATION_ERROR'),
    401: error('AUTH_ERROR'),
    403: error('FORBIDDEN: user_address is not the authenticated wallet; SIGN_005; SIGN_008 too much of the song is uploaded audio'),
    404: error('SIGN_001'),
    409: error(
      'SIGN_002, SIGN_003, SIGN_004, SIGN_006; SIGN_007 the song (one carrying uploaded audio) contains a sound made earlier for another account (`details.earlier_song`); IDEM_002 (a request with this Idempotency-Key is still running)',
    ),
    422: error('IDEM_001: Idempotency-Key reused with a different request'),
    429: error('RATE_002: the hourly metadata and NFT limit'),
  },
};

export const nftDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Variant C: a minted token (indexed from SongMinted events)',
  request: { params: z.object({ id: z.string().meta({ description: 'Token id.', example: '1' }) }) },
  responses: {
    200: { description: 'Token.', content: { 'application/json': { schema: nftResponseSchema } } },
    400: error('VALIDATION_ERROR'),
    401: error('AUTH_ERROR'),
    404: error('NOT_FOUND'),
    429: error('RATE_002: the hourly metadata and NFT limit'),
  },
};
