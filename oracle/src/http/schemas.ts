import { z } from 'zod';
import { codePoints, hexSchema, noNul, pageQueryFields } from './schema-parts.ts';
import { JOB_STATUS, JOB_STATUSES } from '../../../core/src/jobs/job-state.ts';
import { LOSSLESS_FORMATS } from '../../../core/src/generation-queue.ts';
import { JOB_LIST_DEFAULT_LIMIT, JOB_LIST_FILTERS, JOB_LIST_MAX_LIMIT, JOB_SEARCH_MAX_CHARS } from '../domain/job-list.ts';
import { TITLE_MAX_CHARS } from '../domain/song-title.ts';
import { normalizeShownLine, shownTextProblem } from '../domain/shown-text.ts';
import { ERROR_CODES } from '../domain/errors.ts';
import { publicProfileSchema } from './profile-schemas.ts';
import { DEFAULT_REMIX_STRENGTH, EDIT_TASKS, MIN_REPAINT_SECONDS } from '../../../core/src/song-edits.ts';

/**
 * Request and response schemas of the core endpoints. Requests are validated with them at the
 * edge; /openapi.json is generated from the same objects (./openapi.ts).
 */

/** Every code the API answers with (oracle/src/domain/errors.ts): the SDK's `ApiErrorCode` is generated from it. */
export const errorCodeSchema = z.enum(ERROR_CODES).meta({
  id: 'ErrorCode',
  description: 'The error codes of docs/api.md. A client should treat a code it does not know as the HTTP status alone.',
  example: 'GEN_003',
});

export const PROMPT_MAX_CHARS = 500;
/** Bound on given lyrics (the spec sets none; generated lyrics are at most 512 tokens). */
export const LYRICS_MAX_CHARS = 5000;

export const promptSchema = z
  .string()
  .refine(noNul, 'must not contain NUL characters')
  .refine((value) => value.trim().length > 0, 'must not be empty')
  .refine((value) => codePoints(value) <= PROMPT_MAX_CHARS, `must be at most ${PROMPT_MAX_CHARS} characters`)
  .meta({ description: 'Text prompt, 1 to 500 characters.', example: 'upbeat synthwave with a driving bassline' });

export const durationSchema = z
  .number()
  .int()
  .min(5)
  .max(240)
  .meta({ description: 'Seconds of audio, 5 to 240; capped by the tier (free 30, pro 120, enterprise 240).', example: 30 });

// Webhooks (extension, docs/api.md "Webhooks (extension)"): the shape only; the allow-list
// dependent checks (https, public IP literal) are oracle/src/webhooks/target-url.ts.
export const WEBHOOK_URL_MAX_CHARS = 2048;

export const webhookUrlSchema = z
  .string()
  .max(WEBHOOK_URL_MAX_CHARS, `must be at most ${WEBHOOK_URL_MAX_CHARS} characters`)
  .superRefine((value, ctx) => {
    // WHATWG parsing forgives `https:host`; an absolute URL spells out `//`.
    const url = /^https?:\/\//i.test(value) && URL.canParse(value) ? new URL(value) : null;
    // Controls and spaces would be silently stripped or escaped by the parser: refuse them instead.
    const hasControl = [...value].some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f);
    if (url === null || hasControl || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    } else if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
    } else if (url.href.length > WEBHOOK_URL_MAX_CHARS) {
      // Percent-encoding and punycode lengthen a URL: the stored (normalized) form must fit too.
      ctx.addIssue({ code: 'custom', message: `must be at most ${WEBHOOK_URL_MAX_CHARS} characters once encoded` });
    }
  })
  .meta({
    description:
      "Extension: URL that receives a signed `generation.completed` or `generation.failed` POST when the job finishes. https (http only for hosts in the operator's development allow-list); never a private or loopback address.",
    example: 'https://example.com/hooks/songmint',
  });

// Song edits (extension, docs/api.md "Edit a song"): the shape only; the checks against the
// source song (owner, status, retention, length, the live model) are oracle/src/domain/song-edits.ts.
const editSeconds = z.number().min(0).max(240);

/** Which fields each task takes: a repaint its range, a remix its strength, an extend neither. */
function refineEdit(
  edit: { task: string; start?: number | undefined; end?: number | undefined; strength?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (edit.task === 'repaint') {
    if (edit.start === undefined) issue('start', 'a repaint needs start (seconds)');
    if (edit.end === undefined) issue('end', 'a repaint needs end (seconds)');
    if (edit.start !== undefined && edit.end !== undefined && edit.end - edit.start < MIN_REPAINT_SECONDS) {
      issue('end', `must be at least ${MIN_REPAINT_SECONDS} s after start`);
    }
  } else {
    if (edit.start !== undefined) issue('start', `only a repaint takes a range, not ${edit.task}`);
    if (edit.end !== undefined) issue('end', `only a repaint takes a range, not ${edit.task}`);
  }
  if (edit.task !== 'remix' && edit.strength !== undefined) issue('strength', `only a remix takes strength, not ${edit.task}`);
}

const editFields = {
  task: z.enum(EDIT_TASKS).meta({
    description:
      '`extend`: the result is `duration` seconds, the source then new material; `repaint`: seconds `start` to `end` made anew, the rest kept; `remix`: a variation keeping tempo, key and chord progression.',
  }),
  start: editSeconds.optional().meta({ description: 'Repaint only: where the new material starts (seconds).' }),
  end: editSeconds.optional().meta({ description: 'Repaint only: where it ends (seconds, at least 1 s after start, at most the song).' }),
  strength: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: `Remix only: how closely the remix follows the source, 0 to 1 (default ${DEFAULT_REMIX_STRENGTH}).` }),
};

/** Exactly one source: a song of the caller's or audio they uploaded. */
function refineSource(jobField: string, uploadField: string) {
  return (edit: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const given = [jobField, uploadField].filter((field) => edit[field] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [jobField],
        message: given.length === 0 ? `give ${jobField} or ${uploadField}` : `give ${jobField} or ${uploadField}, not both`,
      });
    }
  };
}

const sourceIdSchema = z.string().min(1).max(100);

export const editRequestSchema = z
  .strictObject({
    source_job_id: sourceIdSchema.optional().meta({ description: 'The song to edit: one of your completed jobs (`gen_…`).' }),
    source_upload_id: sourceIdSchema.optional().meta({
      description: 'Or the audio to edit: one of your uploads (`upl_…`, POST /api/uploads). Exactly one of the two.',
    }),
    ...editFields,
  })
  .superRefine(refineEdit)
  .superRefine(refineSource('source_job_id', 'source_upload_id'))
  .meta({
    id: 'EditRequest',
    description:
      "Extension: edit one of your completed songs, or audio you uploaded, instead of starting over. `prompt` describes the new material; `duration` is the result's length (extend: longer than the source; repaint and remix: the source's, an upload's whole seconds). Charged and limited as a generation.",
  });

export const editRequestVariantBSchema = z
  .strictObject({
    sourceJobId: sourceIdSchema.optional().meta({ description: 'The song to edit (`gen_…`).' }),
    sourceUploadId: sourceIdSchema.optional().meta({ description: 'Or the upload to edit (`upl_…`); exactly one of the two.' }),
    ...editFields,
  })
  .superRefine(refineEdit)
  .superRefine(refineSource('sourceJobId', 'sourceUploadId'))
  .meta({ id: 'EditRequestVariantB', description: 'Variant B spelling of EditRequest.' });

export const generateRequestSchema = z
  .strictObject({
    prompt: promptSchema,
    duration: durationSchema,
    seed: z
      .number()
      .int()
      .min(Number.MIN_SAFE_INTEGER)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Reproducibility seed.' }),
    lyrics: z
      .string()
      .refine(noNul, 'must not contain NUL characters')
      .refine((value) => codePoints(value) <= LYRICS_MAX_CHARS, `must be at most ${LYRICS_MAX_CHARS} characters`)
      .optional()
      .meta({ description: 'Lyrics with [verse]/[chorus]/[bridge] tags; given lyrics win over with_lyrics.' }),
    steps: z
      .union([z.literal(27), z.literal(60)])
      .default(27)
      .meta({ description: 'Diffusion steps: 27 (default) or 60.' }),
    with_lyrics: z.boolean().default(false).meta({ description: 'Generate lyrics from the prompt first (ignored when lyrics are given).' }),
    webhook: webhookUrlSchema.optional(),
    edit: editRequestSchema.optional(),
  })
  .meta({ id: 'GenerateRequest' });

/** Variant B (`Prefer: wait`): camelCase, prompt and duration (and an edit), synchronous. */
export const generateRequestVariantBSchema = z
  .strictObject({ prompt: promptSchema, duration: durationSchema, edit: editRequestVariantBSchema.optional() })
  .meta({ id: 'GenerateRequestVariantB' });

export const generateAcceptedSchema = z
  .strictObject({
    job_id: z.string().meta({ example: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11' }),
    status: z.literal(JOB_STATUS.queued),
    estimated_time: z.number().int().meta({ description: 'Seconds until the job is expected to complete.' }),
    position: z.number().int().meta({ description: 'Place in the queue; 1 starts next.' }),
  })
  .meta({ id: 'GenerateAccepted' });

/** The model that made a song (extension of the spec: provenance in every variant). */
export const modelRecordSchema = z
  .strictObject({
    name: z.string().meta({ example: 'songmint-builtin-procedural' }),
    version: z.string().meta({ example: '1.0.0' }),
  })
  .meta({ id: 'ModelRecord', description: 'The model that made the audio; null only for a job no model completed.' });

/** The C2PA content credentials a song's MP3 carries (extension: docs/content-credentials.md). */
export const contentCredentialsSchema = z
  .strictObject({
    standard: z.literal('c2pa'),
    manifest: z.string().meta({ description: "The active manifest's label.", example: 'urn:c2pa:3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70' }),
    signer: z.string().meta({ description: 'Subject of the certificate that signed it.', example: 'CN=Songmint, O=Songmint' }),
  })
  .meta({
    id: 'ContentCredentials',
    description:
      'The signed C2PA manifest embedded in the MP3 (ID3 GEOB frame): made by AI (c2pa.created, trainedAlgorithmicMedia), model and licence, seed, prompt hash, job id. Null for audio published before credentials were embedded.',
  });

/** A song's lossless masters (extension: docs/api.md "Lossless downloads"), in each variant's casing. */
const losslessFields = {
  status: z.enum(['pending', 'ready']).meta({
    description:
      '`pending` from completion until the worker stored the files, a few seconds later (no files listed yet: ask the status again); then `ready`.',
  }),
  bits: z.number().int().meta({ description: 'Bits per sample of the integer PCM.', example: 24 }),
  channels: z.number().int().meta({ example: 2 }),
  rate: z.number().int().meta({ description: "Samples per second: the model's own rate (48000 for ACE-Step).", example: 48000 }),
  format: z.enum(LOSSLESS_FORMATS),
  bytes: z.number().int().meta({ description: 'Size of the file.' }),
  download: z.string().meta({
    description: 'The API path (GET, bearer token, owner only) that answers a one-hour download URL of the file.',
    example: '/api/generate/gen_3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70/download/flac',
  }),
};
const losslessDescription =
  "WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample rate), each carrying the same signed C2PA manifest; private, downloaded through `download`. Made in the seconds after the song completed (`status` pending, then ready). Null for songs made before they were kept, once retention deleted the audio, and when the worker could not make them. The MP3 stays the file `audio_hash` and the mint signature cover.";
export const losslessSchema = z
  .strictObject({
    status: losslessFields.status,
    sample_rate: losslessFields.rate,
    bits_per_sample: losslessFields.bits,
    channels: losslessFields.channels,
    files: z.array(
      z.strictObject({
        format: losslessFields.format,
        content_type: z.string().meta({ example: 'audio/flac' }),
        bytes: losslessFields.bytes,
        download: losslessFields.download,
      }),
    ),
  })
  .meta({ id: 'LosslessFiles', description: losslessDescription });
export const losslessVariantBSchema = z
  .strictObject({
    status: losslessFields.status,
    sampleRate: losslessFields.rate,
    bitsPerSample: losslessFields.bits,
    channels: losslessFields.channels,
    files: z.array(
      z.strictObject({
        format: losslessFields.format,
        contentType: z.string().meta({ example: 'audio/flac' }),
        bytes: losslessFields.bytes,
        download: losslessFields.download,
      }),
    ),
  })
  .meta({ id: 'LosslessFilesVariantB', description: losslessDescription });

const lyricsSchema = z
  .string()
  .nullable()
  .meta({ description: 'The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental.' });

const editOfFields = {
  task: z.enum(EDIT_TASKS),
  start: z.number().nullable().meta({ description: 'Repaint: where the remade range starts (seconds); null for another task.' }),
  end: z.number().nullable().meta({ description: 'Repaint: where it ends (seconds); null for another task.' }),
  strength: z.number().nullable().meta({ description: 'Remix: how closely it follows the source, 0 to 1; null for another task.' }),
};
const editOfDescription =
  'Extension: what this song was edited from, one of its owner\'s jobs or audio they uploaded (exactly one of the two ids), and the edit as it was asked for (docs/api.md "Edit a song"); null for a song that is no edit.';
export const editOfSchema = z
  .strictObject({
    job_id: z.string().nullable().meta({ description: "The source song's job (`gen_…`); null for an edit of an upload." }),
    upload_id: z.string().nullable().meta({ description: 'The uploaded source audio (`upl_…`); null for an edit of a song.' }),
    ...editOfFields,
  })
  .meta({ id: 'EditOf', description: editOfDescription });
export const editOfVariantBSchema = z
  .strictObject({
    jobId: z.string().nullable().meta({ description: "The source song's job (`gen_…`); null for an edit of an upload." }),
    uploadId: z.string().nullable().meta({ description: 'The uploaded source audio (`upl_…`); null for an edit of a song.' }),
    ...editOfFields,
  })
  .meta({ id: 'EditOfVariantB', description: editOfDescription });

export const generateVariantBResultSchema = z
  .strictObject({
    audioUrl: z.url(),
    audioHash: z.string(),
    duration: z.number().int(),
    lyrics: lyricsSchema,
    model: modelRecordSchema.nullable(),
    contentCredentials: contentCredentialsSchema.nullable(),
    lossless: losslessVariantBSchema.nullable(),
    editOf: z.union([editOfVariantBSchema, z.null()]),
  })
  .meta({ id: 'GenerateResultVariantB' });

export const jobStatusSchema = z
  .union([
    z.strictObject({
      job_id: z.string(),
      status: z.literal(JOB_STATUS.queued),
      progress: z.number().int(),
      estimated_remaining: z.number().int().meta({ description: 'Seconds.' }),
      position: z.number().int(),
    }),
    z.strictObject({
      job_id: z.string(),
      status: z.literal(JOB_STATUS.processing),
      progress: z.number().int(),
      estimated_remaining: z.number().int().meta({ description: 'Seconds.' }),
    }),
    z.strictObject({
      job_id: z.string(),
      status: z.literal(JOB_STATUS.completed),
      audio_url: z.url(),
      audio_hash: z.string().meta({ example: '0x' + 'ab'.repeat(32) }),
      duration: z.number().int(),
      created_at: z.iso.datetime(),
      lyrics: lyricsSchema,
      model: modelRecordSchema.nullable(),
      content_credentials: contentCredentialsSchema.nullable(),
      lossless: losslessSchema.nullable(),
      signature_used: z.boolean().meta({
        description:
          'True once the chain watcher has seen the song minted with its platform signature (confirmed blocks deep); false before, also while a signature is issued but unused.',
      }),
      nft_token_id: z
        .string()
        .regex(/^[0-9]+$/)
        .nullable()
        .meta({
          description: 'The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null until then.',
          example: '1',
        }),
      // A union, not .nullable(): a nullable $ref is emitted as allOf + type, which generators read as never null.
      edit_of: z.union([editOfSchema, z.null()]),
    }),
    z.strictObject({
      job_id: z.string(),
      status: z.literal(JOB_STATUS.failed),
      error: z.strictObject({ code: errorCodeSchema, message: z.string(), retry_after: z.number().int().optional() }),
    }),
    z.strictObject({ job_id: z.string(), status: z.literal(JOB_STATUS.cancelled) }).meta({
      description: 'Extension of the spec: the owner cancelled the job (POST /api/generate/{job_id}/cancel) before it completed.',
    }),
  ])
  .meta({ id: 'JobStatus' });

// ---------------------------------------------------------------------------------------------
// Job list and cancel (extensions of the spec, docs/api.md "List and cancel jobs")

export const jobListQuerySchema = z
  .strictObject({
    ...pageQueryFields('Jobs', JOB_LIST_MAX_LIMIT, JOB_LIST_DEFAULT_LIMIT),
    filter: z.enum(JOB_LIST_FILTERS).default('all').meta({
      description:
        'Extension (the library): `all` (default) every song not in the trash; `minted`; `unminted` (completed, not minted); `edits`; `failed` (failed or cancelled); `trash` (moved there with DELETE, restorable).',
    }),
    q: z
      .string()
      .refine(noNul, 'must not contain NUL characters')
      .refine((value) => codePoints(value) <= JOB_SEARCH_MAX_CHARS, `must be at most ${JOB_SEARCH_MAX_CHARS} characters`)
      .optional()
      .meta({
        description: `Extension (the library): only songs whose name (minted name or title), prompt or lyrics contain this text, case-insensitively; at most ${JOB_SEARCH_MAX_CHARS} characters. Blank: no search.`,
        example: 'rain',
      }),
  })
  .meta({ id: 'JobListQuery' });

export const jobSummarySchema = z
  .strictObject({
    job_id: z.string(),
    status: z.enum(JOB_STATUSES),
    progress: z.number().int(),
    prompt: z.string(),
    duration: z.number().int().meta({ description: 'Requested seconds.' }),
    created_at: z.iso.datetime(),
    audio_url: z.url().nullable(),
    audio_hash: z.string().nullable(),
    // A union, not .nullable(): a nullable $ref is emitted as allOf + type, which generators read as never null.
    error_code: z.union([errorCodeSchema, z.null()]),
    edit_of: z.union([editOfSchema, z.null()]),
    title: z.string().nullable().meta({
      description:
        'Extension: the name it goes by besides its prompt: the minted name, or the title its owner gave it (or an edit got from its source, e.g. "Night drive (extended +4 s)"); null: it goes by its prompt.',
    }),
    nft_token_id: z
      .string()
      .regex(/^[0-9]+$/)
      .nullable()
      .meta({ description: 'Extension: the minted SongNFT token id once the chain watcher has seen the mint; null before.' }),
    deleted_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'Extension: when its owner moved it to the trash; null while it is in the library.' }),
  })
  .meta({ id: 'JobSummary' });

export const jobListSchema = z
  .strictObject({
    jobs: z.array(jobSummarySchema).meta({ description: 'Newest first.' }),
    next_cursor: z.string().nullable().meta({ description: 'Cursor of the next page; null on the last page.' }),
    total: z.number().int().meta({ description: 'Extension: songs matching `filter` and `q` in all pages.' }),
  })
  .meta({ id: 'JobList' });

export const renameJobSchema = z
  .strictObject({
    title: z
      .string()
      .max(TITLE_MAX_CHARS * 8)
      .transform(normalizeShownLine)
      .superRefine((value, ctx) => {
        const problem =
          value.length === 0
            ? 'must not be empty'
            : (shownTextProblem(value, { lineBreaks: false }) ??
              (codePoints(value) > TITLE_MAX_CHARS ? `must be at most ${TITLE_MAX_CHARS} characters` : null));
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      })
      .meta({
        description: `The new name, 1 to ${TITLE_MAX_CHARS} characters: letters, numbers, punctuation, symbols and spaces (no control, bidi or invisible characters; other spaces become U+0020, runs of them one, and those at the ends are dropped).`,
        example: 'Night drive',
      }),
  })
  .meta({ id: 'RenameJobRequest' });

export const jobCancelledSchema = z
  .strictObject({ job_id: z.string(), status: z.literal(JOB_STATUS.cancelled) })
  .meta({ id: 'JobCancelled' });

// ---------------------------------------------------------------------------------------------
// Idempotency-Key (extension of the spec, oracle/src/http/idempotency.ts)

/** The request header of every POST that creates or charges, for the OpenAPI document. */
export const idempotencyKeyHeaderSchema = z.string().min(1).max(255).optional().meta({
  description:
    'Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept.',
  example: '5f0c8d0e-7b1e-4c1a-9d2e-1f3a4b5c6d7e',
});

export const nonceResponseSchema = z
  .strictObject({
    nonce: z.string(),
    expires_at: z.iso.datetime(),
    domain: z.string().meta({ description: 'The SIWE message must name this domain.' }),
    uri: z.string().meta({ description: 'The SIWE message URI must start with this origin.' }),
    chain_id: z.literal(8453),
  })
  .meta({ id: 'AuthNonce' });

export const verifyRequestSchema = z
  .strictObject({
    message: z.string().min(1).max(4096).meta({ description: 'EIP-4361 message text.' }),
    signature: hexSchema.max(16_384).meta({
      description:
        "The wallet's EIP-191 signature of `message`: 65 bytes from an EOA; any length from a smart wallet (ERC-1271, or ERC-6492 wrapped while undeployed).",
    }),
    social_fid: z
      .union([z.number().int().positive(), z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer')])
      .optional()
      .meta({ description: 'Farcaster fid to link; accepted only when the IdRegistry confirms it.' }),
  })
  .meta({ id: 'AuthVerifyRequest' });

const walletProofSchema = z
  .strictObject({
    message: z.string().min(1).max(4096).meta({ description: 'EIP-4361 message of the wallet, for this domain and chain 8453.' }),
    signature: hexSchema.max(16_384).meta({ description: "The wallet's EIP-191 signature of `message` (EOA or smart wallet)." }),
  })
  .meta({ id: 'WalletProof', description: 'Proof that the user holds the wallet the session acts for.' });

export const farcasterSignInRequestSchema = z
  .strictObject({
    message: z.string().min(1).max(4096).meta({
      description:
        'Sign In With Farcaster (FIP-11) message: EIP-4361 for this domain, chain 10, statement "Farcaster Auth", one `farcaster://fid/<fid>` resource and a nonce from GET /api/auth/nonce.',
    }),
    signature: hexSchema.max(16_384).meta({ description: "The fid's custody address's or auth address's signature of `message`." }),
    wallet: walletProofSchema
      .optional()
      .meta({ description: 'The wallet to act for, with the same nonce; absent: the address that signed the Farcaster message.' }),
  })
  .meta({ id: 'FarcasterSignInRequest' });

export const quickAuthSignInRequestSchema = z
  .strictObject({
    token: z.string().min(1).max(8192).meta({ description: "A Farcaster Mini App's Quick Auth JWT issued for this domain." }),
    wallet: walletProofSchema
      .optional()
      .meta({ description: 'Needed the first time a fid signs in: the wallet its account acts for (a nonce from GET /api/auth/nonce).' }),
  })
  .meta({ id: 'QuickAuthSignInRequest' });

export const sessionTokenSchema = z
  .strictObject({
    token: z.string(),
    expires_at: z.iso.datetime(),
    user: z.strictObject({
      id: z.string(),
      wallet_address: z.string(),
      tier: z.enum(['free', 'pro', 'enterprise']),
      social_fid: z.string().nullable(),
    }),
  })
  .meta({ id: 'SessionToken' });

export const limitUsageSchema = z
  .strictObject({
    limit: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    reset_at: z.iso.datetime().meta({ description: 'When the counter starts again (ISO 8601 UTC).' }),
  })
  .meta({ id: 'LimitUsage' });

/** The longest song per steps value (oracle/src/domain/live-models.ts `MaxDurations`). */
const maxDurationsSchema = z
  .strictObject({
    '27': z.number().int().nullable().meta({ description: 'At 27 steps (the default).' }),
    '60': z.number().int().nullable().meta({ description: 'At 60 steps.' }),
  })
  .meta({ id: 'ModelMaxDuration' });

export const profileSchema = z
  .strictObject({
    id: z.string(),
    wallet_address: z.string(),
    social_fid: z.string().nullable(),
    tier: z.enum(['free', 'pro', 'enterprise']),
    daily_generations: z.number().int(),
    daily_limit: z.number().int(),
    max_duration: z.number().int(),
    last_generation_reset: z.iso.date(),
    total_generations: z.number().int(),
    total_minted: z.number().int(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    statistics: z.strictObject({
      jobs: z.strictObject({
        queued: z.number().int(),
        processing: z.number().int(),
        completed: z.number().int(),
        failed: z.number().int(),
      }),
      audio_seconds_generated: z.number(),
      minted: z.number().int(),
    }),
    limits: z
      .strictObject({
        songs: z.strictObject({
          daily: limitUsageSchema.meta({
            description: "The tier's daily generations (the spec's daily counter, UTC day); reset_at is the next UTC midnight.",
          }),
          hourly: limitUsageSchema.meta({ description: 'The hourly `generation` category; reset_at is the end of this hour.' }),
        }),
        previews: z.strictObject({
          hourly: limitUsageSchema.meta({
            description: 'The hourly `preview` category (previews never touch the daily counter); reset_at is the end of this hour.',
          }),
        }),
      })
      .meta({
        description:
          'Extension: what is left now. A song needs room in both songs.daily and songs.hourly; a refused request counts in neither.',
      }),
    models: z
      .strictObject({
        sings: z.boolean().meta({
          description:
            "True only when a worker is live and every live worker's model sings the lyrics it is given (ACE-Step): a job goes to whichever worker claims it. False: songs are instrumental; lyrics (given or written) are recorded with the song and condition the music, but no voice sings them.",
        }),
        live: z.array(
          z.strictObject({
            name: z.string(),
            version: z.string(),
            sings: z.boolean().meta({ description: 'The model sings the lyrics it is given.' }),
            workers: z.number().int().meta({ description: 'Live workers running it.' }),
            max_duration: maxDurationsSchema.meta({ description: 'The longest song a live worker running it finishes, per steps value.' }),
          }),
        ),
        max_duration: maxDurationsSchema.meta({
          description:
            "The longest song (seconds) any live worker finishes within the job limit, per steps value: measured by each worker on its device at start. A longer request is refused with GEN_004 before anything is charged; the tighter of this and the tier's `max_duration` applies. Null: no measured limit applies (no live worker, or one from before the measurement).",
        }),
      })
      .meta({
        description: 'Extension: the models the live workers run (their heartbeats), whether they sing, and the longest song they finish.',
      }),
    storage: z
      .strictObject({
        used_bytes: z.number().int().meta({
          description:
            'Bytes the store holds for you: uploads (every byte of the file, metadata chunks included), songs (MP3, WAV and FLAC masters, kept latents) and covers.',
        }),
        pending_bytes: z.number().int().meta({
          description: 'Held for your queued and running songs until they store their files (estimated from their length).',
        }),
        quota_bytes: z.number().int().meta({ description: "Your tier's quota: free 2 GiB, pro 50 GiB, enterprise 1 TiB." }),
        remaining_bytes: z.number().int().meta({ description: 'quota - used - pending, at least 0.' }),
      })
      .meta({
        description:
          'Extension: storage quota. An upload, song, edit or cover that would pass it is refused with STORAGE_001 (409) before anything is stored or charged; retention, the trash and deleting uploads give bytes back.',
      }),
    // Extension: your display name, bio and avatar as everyone reads them (GET /v1/public/creators/{address}); PATCH /v1/user/profile changes them.
    public_profile: publicProfileSchema,
  })
  .meta({ id: 'UserProfile' });

/** SIGN_007, UPLOAD_005: the registered song the refused audio contains. */
export const earlierSongSchema = z
  .strictObject({
    job_id: z.string().meta({ description: 'The registered song’s job (`gen_…`).' }),
    token_id: z.string().nullable().meta({ description: 'Its SongNFT token id (decimal) once its mint is seen on chain, else null.' }),
  })
  .meta({ id: 'EarlierSong', description: 'The song signed for another account that the refused audio contains (docs/fingerprints.md).' });

export const variantAErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: errorCodeSchema,
      message: z.string(),
      details: z.string(),
      retry_after: z.number().int().optional(),
      job_id: z.string().optional(),
      earlier_song: earlierSongSchema.optional(),
    }),
  })
  .meta({ id: 'ErrorVariantA' });

export const dailyLimitErrorSchema = z
  .strictObject({
    error: z.literal('rate_limit_exceeded'),
    limit: z.number().int(),
    reset_at: z.iso.datetime(),
    code: z.literal('RATE_001'),
    message: z.string(),
    retry_after: z.number().int(),
  })
  .meta({ id: 'DailyLimitError' });

export const variantCErrorSchema = z
  .strictObject({ error: errorCodeSchema, message: z.string(), details: z.record(z.string(), z.unknown()) })
  .meta({ id: 'ErrorVariantC' });

export const healthSchema = z.strictObject({ status: z.literal('ok'), service: z.string() }).meta({ id: 'Health' });

export const livenessSchema = z
  .strictObject({
    status: z.literal('alive'),
    uptime_seconds: z.number().int().meta({ description: 'Seconds since the process started.' }),
  })
  .meta({ id: 'Liveness' });

/** GET /health/ready: the 200 and 503 answers share this shape; the worker counts are there when the database answered. */
export const readinessSchema = z
  .strictObject({
    status: z.enum(['ready', 'not_ready']),
    checks: z.strictObject({
      signer: z
        .strictObject({
          backend: z.enum(['pkcs11', 'awskms', 'libsecp256k1', 'noble']),
          key: z.string().meta({ description: 'The key reference without PIN (`pkcs11:token=…;object=…`, `awskms://…`), or `env`.' }),
        })
        .optional()
        .meta({
          description:
            'Which backend signs mints: `pkcs11` (an HSM) or `awskms`, or `libsecp256k1`/`noble` for a development key in the environment.',
        }),
      database: z.enum(['up', 'down']),
      workers: z.strictObject({
        live: z.number().int().optional().meta({ description: 'Workers with a fresh heartbeat.' }),
        slots: z.number().int().optional(),
        devices: z.array(z.string()).optional(),
        models: z.array(z.string()).optional().meta({ description: 'The models the live workers run, as `name@version`.' }),
        status: z.enum(['up', 'down', 'unknown']),
      }),
    }),
    waiting_for: z
      .array(z.enum(['database', 'workers']))
      .optional()
      .meta({
        description:
          'Only when not ready: what the service waits for. `database`: PostgreSQL does not answer; `workers`: no inference worker has a heartbeat newer than 20 s.',
      }),
  })
  .meta({ id: 'Readiness' });

/** "prompt: must not be empty; duration: Too big..." from zod issues. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}
