/**
 * `songmint-acestep.json`: what Songmint needs to know about an ACE-Step 1.5 directory beyond the
 * export itself: which file plays which role, every file's sha256, each graph's precision, the
 * widths that must agree across graphs, the tokenizer, the silence latent, the sampling schedule
 * and how the request's `steps` maps onto it, the VAE tiling, and the licences. No tensor names:
 * each graph declares its own, and the backend reads them from the session (validate.ts).
 * `npm run model:import` writes it beside a public export's own `manifest.json` and
 * `io_contract*.json`, which stay as they are.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import { ModelLicence } from '../licence.ts';
import type { GraphName } from './contract.ts';
import { encoderLayout, GRAPH_NAMES, WIDTHS } from './contract.ts';

export const ACESTEP_MANIFEST_FILE = 'songmint-acestep.json';
export const IO_CONTRACT_CORE_FILE = 'io_contract_core.json';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 is 64 lowercase hex digits');
/** A path inside the model directory: relative, no `..` (a manifest cannot point outside it). */
export const RelativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'a path inside the model directory');

const FileRef = z.object({ file: RelativePath, sha256: Sha256 });
export type FileRef = z.infer<typeof FileRef>;

const Graph = FileRef.extend({
  /** The weights' precision: fp16 Qwen-family exports overflow the residual stream unless rescaled. */
  precision: z.enum(['fp32', 'fp16', 'bf16', 'int8']),
  /** External-data sidecars (weights over protobuf's 2 GB limit). */
  external_data: z.array(FileRef).default([]),
});
export type ManifestGraph = z.infer<typeof Graph>;

const Licence = ModelLicence.extend({ component: z.string().min(1).max(200) });

const StepCount = z.number().int().min(1).max(200);

export const AcestepManifest = z
  .object({
    format: z.literal('songmint-acestep/1'),
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(100),
    description: z.string().min(1),
    /** One per component; the model may be minted only when every one allows commercial use. */
    licences: z.array(Licence).min(1),
    sample_rate: z.literal(48_000),
    channels: z.literal(2),
    samples_per_frame: z.literal(1920),
    frames_per_second: z.literal(25),
    patch_size: z.literal(2),
    dims: z.object(
      Object.fromEntries(WIDTHS.map((name) => [name, z.number().int().positive()])) as Record<(typeof WIDTHS)[number], z.ZodNumber>,
    ),
    tokenizer: FileRef.extend({
      max_caption_tokens: z.number().int().positive().max(4096),
      max_lyric_tokens: z.number().int().positive().max(8192),
    }),
    /** The checkpoint's silence latent, raw little-endian float32 `[frames, latent_channels]`. */
    silence_latent: FileRef.extend({
      dtype: z.literal('float32'),
      shape: z.tuple([z.number().int().positive(), z.number().int().positive()]),
    }),
    schedule: z.object({
      /** Diffusion steps for each `steps` value a request may carry (the spec allows 27 and 60). */
      steps_for_request: z.record(z.string().regex(/^\d+$/), StepCount).refine((m) => Object.keys(m).length > 0, 'at least one entry'),
      /** Timestep shift s of t = s u / (1 + (s - 1) u): 3 for turbo, 1 for base/SFT. */
      shift: z.number().min(0.1).max(20),
      /** Classifier-free guidance scale; 1 means none (turbo). */
      guidance_scale: z.number().min(1).max(30),
      /** The learned null condition `[condition_tokens or 1, encoder_hidden]` float32, required when guidance_scale > 1. */
      null_condition: FileRef.extend({ shape: z.tuple([z.number().int().positive(), z.number().int().positive()]) }).optional(),
    }),
    /**
     * Tiled VAE decoding as ACE-Step's `tiled_decode` (acestep/handler.py): a song of at most
     * `vae_chunk_frames` latent frames is decoded in one call; a longer one in windows of that
     * many frames whose middle `vae_chunk_frames - 2 x vae_overlap_frames` are kept and whose
     * overlap each side is decoded as context and dropped. The reference's 512 and 64 by default.
     */
    vae_chunk_frames: z.number().int().positive().default(512),
    vae_overlap_frames: z.number().int().nonnegative().default(64),
    /** The common graphs, the condition encoder combined or split (contract.ts `encoderLayout`), and the optional ones. */
    graphs: z.object({
      qwen3_embedding_0p6: Graph,
      qwen3_token_embeddings: Graph,
      condition_encoder: Graph.optional(),
      text_projector: Graph.optional(),
      lyric_encoder: Graph.optional(),
      timbre_encoder: Graph.optional(),
      dit_decoder: Graph,
      vae_decoder: Graph,
      /** Optional (contract.ts OPTIONAL_GRAPHS): remix needs both FSQ graphs, uploaded audio the VAE encoder. */
      audio_tokenizer: Graph.optional(),
      audio_detokenizer: Graph.optional(),
      vae_encoder: Graph.optional(),
    } satisfies Record<GraphName, z.ZodType>),
  })
  .superRefine((m, ctx) => {
    const layout = encoderLayout(GRAPH_NAMES.filter((g) => m.graphs[g] !== undefined));
    if ('missing' in layout) ctx.addIssue({ code: 'custom', path: ['graphs'], message: `graphs: needs ${layout.missing}` });
    if (m.vae_chunk_frames <= 2 * m.vae_overlap_frames) {
      ctx.addIssue({
        code: 'custom',
        path: ['vae_chunk_frames'],
        message: `vae_chunk_frames ${m.vae_chunk_frames} must exceed 2 x vae_overlap_frames (${m.vae_overlap_frames})`,
      });
    }
    if (m.dims.context_channels !== 2 * m.dims.latent_channels) {
      ctx.addIssue({
        code: 'custom',
        path: ['dims', 'context_channels'],
        message: `context_channels ${m.dims.context_channels} must be 2 x latent_channels (${m.dims.latent_channels}): source latents and chunk masks`,
      });
    }
    if (m.silence_latent.shape[1] !== m.dims.latent_channels) {
      ctx.addIssue({
        code: 'custom',
        path: ['silence_latent', 'shape'],
        message: `silence latent has ${m.silence_latent.shape[1]} channels, dims.latent_channels is ${m.dims.latent_channels}`,
      });
    }
    if (m.silence_latent.shape[0] < m.dims.timbre_frames) {
      ctx.addIssue({
        code: 'custom',
        path: ['silence_latent', 'shape'],
        message: `silence latent has ${m.silence_latent.shape[0]} frames, the timbre reference needs ${m.dims.timbre_frames}`,
      });
    }
    if (m.schedule.guidance_scale > 1 && m.schedule.null_condition === undefined) {
      ctx.addIssue({ code: 'custom', path: ['schedule', 'null_condition'], message: 'guidance_scale > 1 needs the null condition' });
    }
    if (m.schedule.null_condition !== undefined && m.schedule.null_condition.shape[1] !== m.dims.encoder_hidden) {
      ctx.addIssue({
        code: 'custom',
        path: ['schedule', 'null_condition', 'shape'],
        message: `null condition width ${m.schedule.null_condition.shape[1]} is not dims.encoder_hidden ${m.dims.encoder_hidden}`,
      });
    }
  });
export type AcestepManifest = z.infer<typeof AcestepManifest>;

/** The graphs this model runs (the common ones and its condition encoder, combined or split), in order. */
export function manifestGraphs(manifest: AcestepManifest): { graph: GraphName; entry: ManifestGraph }[] {
  return GRAPH_NAMES.flatMap((graph) => {
    const entry = manifest.graphs[graph];
    return entry === undefined ? [] : [{ graph, entry }];
  });
}

export type ManifestErrorCode = 'MODEL_MANIFEST_MISSING' | 'MODEL_MANIFEST_INVALID';

export async function readAcestepManifest(dir: string): Promise<Result<AcestepManifest, { code: ManifestErrorCode; message: string }>> {
  let text: string;
  try {
    text = await readFile(join(dir, ACESTEP_MANIFEST_FILE), 'utf8');
  } catch (err) {
    return fail({
      code: 'MODEL_MANIFEST_MISSING',
      message: `no ${ACESTEP_MANIFEST_FILE} in ${dir}: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail({
      code: 'MODEL_MANIFEST_INVALID',
      message: `${ACESTEP_MANIFEST_FILE} is not JSON: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  const parsed = AcestepManifest.safeParse(json);
  if (!parsed.success)
    return fail({ code: 'MODEL_MANIFEST_INVALID', message: `${ACESTEP_MANIFEST_FILE}: ${z.prettifyError(parsed.error)}` });
  return ok(parsed.data);
}

/** The licence recorded on each job: commercial only when every component's licence is. */
export function combinedLicence(manifest: AcestepManifest): ModelLicence {
  const spdx = [...new Set(manifest.licences.map((l) => l.spdx))].join(' AND ');
  return { spdx: spdx.slice(0, 100), commercial_use: manifest.licences.every((l) => l.commercial_use) };
}

/** The request `steps` values this model accepts, ascending. */
export function requestSteps(manifest: AcestepManifest): number[] {
  return Object.keys(manifest.schedule.steps_for_request)
    .map(Number)
    .sort((a, b) => a - b);
}
