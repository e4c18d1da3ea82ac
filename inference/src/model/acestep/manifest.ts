/**
 * `songmint-acestep.json`: what Songmint records about an ACE-Step 1.5 directory once every check
 * has passed (`npm run model:import` writes it): which known layout it is (layouts.ts: the tensor
 * names and files live there, not here), which file plays each graph role with its sidecars, every
 * file's sha256, each graph's precision, the widths read from the graphs, the tokenizer, the
 * silence latent, the sampling schedule, the VAE tiling, where the files came from, and per file
 * which licence covers it and whether that licence allows commercial minting.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import { ModelLicence } from '../licence.ts';
import type { GraphRole, KnownLayout } from './layouts.ts';
import { GRAPH_ROLES, LAYOUTS, PRECISIONS, QUALITIES, requiredGraphs, WIDTHS } from './layouts.ts';

export const ACESTEP_MANIFEST_FILE = 'songmint-acestep.json';
export const ACESTEP_MANIFEST_FORMAT = 'songmint-acestep/2';
/** The public exporter's own contract file (its presence marks an exporter directory). */
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
  /** The weights' precision (`q4`/`q8`: MatMulNBits graphs; fp16 Qwen-family exports overflow unless rescaled). */
  precision: z.enum(PRECISIONS),
  /** External-data sidecars (weights over protobuf's 2 GB limit, or split into shards). */
  external_data: z.array(FileRef).default([]),
});
export type ManifestGraph = z.infer<typeof Graph>;

/** A licence and the files it covers: a song may be minted only when every file's licence allows commercial use. */
const Licence = ModelLicence.extend({ component: z.string().min(1).max(200), files: z.array(RelativePath).min(1) });
export type ManifestLicence = z.infer<typeof Licence>;

const StepCount = z.number().int().min(1).max(200);

export const AcestepManifest = z
  .object({
    format: z.literal(ACESTEP_MANIFEST_FORMAT),
    /** The known layout (layouts.ts) whose names the graphs are bound by. */
    layout: z.enum(['exporter-2b', 'xl-turbo']),
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(100),
    description: z.string().min(1),
    /** Where the files came from (repositories at pinned revisions), when known. */
    sources: z.array(z.object({ repo: z.string().min(1), revision: z.string().min(1) })).default([]),
    quality: z.enum(QUALITIES).optional(),
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
      /** tokenizer_config.json beside it, where the layout ships one (checked as JSON, hashed). */
      config: FileRef.optional(),
      max_caption_tokens: z.number().int().positive().max(4096),
      max_lyric_tokens: z.number().int().positive().max(8192),
    }),
    /** The checkpoint's silence latent, converted to raw little-endian float32 `[frames, latent_channels]`. */
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
     * Tiled VAE decoding as ACE-Step's `tiled_decode`: a song of at most `vae_chunk_frames` latent
     * frames in one call; a longer one in windows of that many frames whose middle
     * `vae_chunk_frames - 2 x vae_overlap_frames` are kept (the overlap decoded as context, dropped).
     */
    vae_chunk_frames: z.number().int().positive().default(512),
    vae_overlap_frames: z.number().int().nonnegative().default(64),
    graphs: z.partialRecord(z.enum(GRAPH_ROLES), Graph),
  })
  .superRefine((m, ctx) => {
    const layout = LAYOUTS[m.layout];
    for (const role of requiredGraphs(layout))
      if (m.graphs[role] === undefined)
        ctx.addIssue({ code: 'custom', path: ['graphs', role], message: `the ${m.layout} layout needs ${role}` });
    for (const role of GRAPH_ROLES)
      if (m.graphs[role] !== undefined && layout.graphs[role] === undefined)
        ctx.addIssue({ code: 'custom', path: ['graphs', role], message: `the ${m.layout} layout has no ${role} graph` });
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

export function manifestLayout(manifest: AcestepManifest): KnownLayout {
  return LAYOUTS[manifest.layout];
}

/** The graphs this model runs (required and optional ones present), in role order. */
export function manifestGraphs(manifest: AcestepManifest): { graph: GraphRole; entry: ManifestGraph }[] {
  return GRAPH_ROLES.flatMap((graph) => {
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
  const format = typeof json === 'object' && json !== null && 'format' in json ? String(json.format) : undefined;
  if (format !== undefined && format !== ACESTEP_MANIFEST_FORMAT && format.startsWith('songmint-acestep/'))
    return fail({
      code: 'MODEL_MANIFEST_INVALID',
      message: `${ACESTEP_MANIFEST_FILE} is ${format}, written by an older Songmint: run npm run model:import -- ${dir} again`,
    });
  const parsed = AcestepManifest.safeParse(json);
  if (!parsed.success)
    return fail({ code: 'MODEL_MANIFEST_INVALID', message: `${ACESTEP_MANIFEST_FILE}: ${z.prettifyError(parsed.error)}` });
  return ok(parsed.data);
}

/** The licence recorded on each job: commercial only when every file's licence is. */
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
