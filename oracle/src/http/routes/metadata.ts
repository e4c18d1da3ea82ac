import { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { AppError, Result } from '../../domain/errors.ts';
import { publishMetadata } from '../../domain/metadata.ts';
import type { MetadataDeps, MetadataInput } from '../../domain/metadata.ts';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { RouteDocs, SignedInCall } from '../route.ts';
import { codePoints, noNul } from '../schema-parts.ts';
import { describeIssues, idempotencyKeyHeaderSchema, variantAErrorSchema } from '../schemas.ts';

export type MetadataRouterDeps = MetadataDeps & Pick<AppDeps, 'logger'>;

/**
 * A 5 MB cover is ~7 MB of base64; with the other fields the body stays under this. Larger
 * bodies are refused by the body parser with 413 before anything is decoded.
 */
export const METADATA_BODY_LIMIT = '8mb';

const nameSchema = z
  .string()
  .refine(noNul, 'must not contain NUL characters')
  .refine((value) => value.trim().length > 0, 'must not be empty')
  .refine((value) => codePoints(value) <= 200, 'must be at most 200 characters')
  .meta({ description: 'Song title, 1 to 200 characters.', example: 'Neon Driveway' });
const descriptionSchema = z
  .string()
  .refine(noNul, 'must not contain NUL characters')
  .refine((value) => codePoints(value) <= 5000, 'must be at most 5000 characters')
  .meta({ description: 'Up to 5000 characters.' });
const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
const audioUrlSchema = httpUrlSchema.meta({
  description:
    'Public URL of the audio. When it is `{storage_url}/audio/<job_id>.mp3` of a completed job of the caller, the job is linked: its audio hash goes into the metadata and the cover is stored at covers/<job_id>.png.',
});
const coverSchema = z.string().meta({ description: 'Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5 MB decoded.' });
const traitSchema = z.string().refine(noNul, 'must not contain NUL characters').min(1).max(100);
const attributesSchema = z
  .strictObject({
    genre: traitSchema.optional(),
    mood: traitSchema.optional(),
    duration: z.number().int().min(1).max(3600).optional().meta({ description: 'Seconds; defaults to the linked job duration.' }),
    bpm: z.number().int().min(1).max(999).optional(),
  })
  .meta({ id: 'SongAttributes' });

export const metadataRequestSchema = z
  .strictObject({
    name: nameSchema,
    description: descriptionSchema.default(''),
    audio_url: audioUrlSchema,
    cover_image: coverSchema.optional(),
    attributes: attributesSchema.optional(),
    external_url: httpUrlSchema.optional(),
  })
  .meta({ id: 'MetadataRequest' });

export const metadataRequestVariantBSchema = z
  .strictObject({
    name: nameSchema,
    description: descriptionSchema.default(''),
    audioUrl: audioUrlSchema,
    coverImage: coverSchema.optional(),
    attributes: attributesSchema.optional(),
    externalUrl: httpUrlSchema.optional(),
  })
  .meta({ id: 'MetadataRequestVariantB' });

export const metadataResponseSchema = z
  .object({
    metadata_uri: z.string().meta({ example: 'ipfs://bafkrei...' }),
    metadata_hash: z.string().meta({ description: '0x + sha256 of the exact JSON bytes behind the CID.' }),
    cid: z.string(),
    job_id: z.string().optional(),
    image: z.string().optional().meta({ description: 'ipfs:// URI of the cover.' }),
    cover_url: z.string().optional(),
    pin_status: z.enum(['queued', 'pinning', 'pinned']).optional(),
  })
  .meta({ id: 'MetadataResponse' });

export const metadataResponseVariantBSchema = z
  .object({ metadataURI: z.string(), ipfsHash: z.string().meta({ description: 'The CID.' }) })
  .meta({ id: 'MetadataResponseVariantB' });

export type MetadataRequest = { variant: 'A' | 'B'; input: MetadataInput };
type ParsedMetadata = Result<MetadataRequest>;

function invalid(error: z.ZodError): AppError {
  return appError('VALIDATION_ERROR', 'Invalid metadata', { details: describeIssues(error) });
}

/** POST /api/metadata's body: Variant B by its camelCase fields, Variant A otherwise. */
export function parseMetadataRequest(body: unknown): ParsedMetadata {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (isObject && !('audio_url' in body) && ('audioUrl' in body || 'coverImage' in body)) {
    const parsed = metadataRequestVariantBSchema.safeParse(body);
    if (!parsed.success) return fail(invalid(parsed.error));
    const { name, description, audioUrl, coverImage, attributes, externalUrl } = parsed.data;
    return ok({
      variant: 'B',
      input: {
        name,
        description,
        audioUrl,
        ...(coverImage === undefined ? {} : { coverImage }),
        ...(attributes === undefined ? {} : { attributes }),
        ...(externalUrl === undefined ? {} : { externalUrl }),
      },
    });
  }
  const parsed = metadataRequestSchema.safeParse(body);
  if (!parsed.success) return fail(invalid(parsed.error));
  const { name, description, audio_url, cover_image, attributes, external_url } = parsed.data;
  return ok({
    variant: 'A',
    input: {
      name,
      description,
      audioUrl: audio_url,
      ...(cover_image === undefined ? {} : { coverImage: cover_image }),
      ...(attributes === undefined ? {} : { attributes }),
      ...(external_url === undefined ? {} : { externalUrl: external_url }),
    },
  });
}

/** POST /api/metadata (Variants A and B); its input is `parseMetadataRequest`. */
export function publishMetadataHandler(deps: MetadataRouterDeps): (call: SignedInCall<MetadataRequest, never>) => Promise<void> {
  return async ({ req, res, user, input }) => {
    const fields = input.variant === 'A' ? { cover: 'cover_image', audio: 'audio_url' } : { cover: 'coverImage', audio: 'audioUrl' };
    const result = await publishMetadata(deps, user.id, input.input, fields.cover, fields.audio);
    if (!result.ok) {
      sendError(req, res, result.error);
      return;
    }
    const published = result.value;
    res.status(201);
    if (input.variant === 'B') {
      res.json({ metadataURI: published.metadataUri, ipfsHash: published.cid } satisfies z.infer<typeof metadataResponseVariantBSchema>);
      return;
    }
    res.json({
      metadata_uri: published.metadataUri,
      metadata_hash: published.metadataHash,
      cid: published.cid,
      ...(published.jobId === undefined ? {} : { job_id: published.jobId }),
      ...(published.imageUri === undefined ? {} : { image: published.imageUri }),
      ...(published.coverUrl === undefined ? {} : { cover_url: published.coverUrl }),
      ...(published.pinStatus === undefined ? {} : { pin_status: published.pinStatus }),
    } satisfies z.infer<typeof metadataResponseSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantAErrorSchema } } });
export const metadataDocs: RouteDocs = {
  tags: ['mint'],
  summary: 'Upload song metadata (and cover) to IPFS; returns ipfs://<cid> and the sha256 of the stored JSON',
  description:
    'The cover is sniffed (PNG/JPEG/WebP/GIF, declared type must match, 5 MB), stored in object storage and added to IPFS; the ERC-721 JSON (name, description, image, animation_url, attributes, properties) is serialized with sorted keys and added under the unixfs-v1-2025 CID profile. Variant B (`audioUrl`) answers `{metadataURI, ipfsHash}`.',
  request: {
    headers: z.object({ 'Idempotency-Key': idempotencyKeyHeaderSchema }),
    body: { content: { 'application/json': { schema: z.union([metadataRequestSchema, metadataRequestVariantBSchema]) } } },
  },
  responses: {
    201: {
      description: 'Stored.',
      content: { 'application/json': { schema: z.union([metadataResponseSchema, metadataResponseVariantBSchema]) } },
    },
    400: error('Invalid input or cover image (VALIDATION_ERROR).'),
    401: error('Missing or invalid token (AUTH_ERROR).'),
    409: error(
      'IDEM_002: a request with this Idempotency-Key is still running; STORAGE_001: the cover would pass your storage quota (nothing stored, not charged).',
    ),
    413: error('Cover above 5 MB or body above 8 MB (PAYLOAD_TOO_LARGE).'),
    422: error('IDEM_001: Idempotency-Key reused with a different request.'),
    429: error('Hourly metadata and NFT limit (RATE_002).'),
    503: error('Object storage or the pinning service unavailable (SERVICE_UNAVAILABLE).'),
  },
};
