/**
 * The Hugging Face Hub presets `npm run model:fetch` and `MODEL=<preset> npm start` download:
 * repositories pinned at commits, and the byte size of every file the layout (layouts.ts) names,
 * taken from a working consumer's manifest (Emb1ter/ai-music-js@835fa4a lib/model-manifest.ts),
 * never from a README. A preset is data: an operator may give one of their own as a JSON file in
 * the same shape (a mirror, or another pinned revision); revisions are always 40-hex commits.
 * `songmint-hub-files.json` records what a fetch downloaded and each file's sha256 from the Hub's
 * LFS metadata; `model:import` verifies the directory against it.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { KnownLayout, Quality } from './layouts.ts';
import { GRAPH_ROLES, graphFile, LAYOUTS, QUALITIES } from './layouts.ts';
import { RelativePath } from './manifest.ts';

export const HUB_RECORD_FILE = 'songmint-hub-files.json';

const Commit = z.string().regex(/^[0-9a-f]{40}$/, 'a revision is pinned: a 40-hex commit, never a branch such as main');
const RepoId = z.string().regex(/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/, 'owner/name');

export const HubPreset = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
  description: z.string().min(1),
  layout: z.enum(['xl-turbo', 'exporter-2b']),
  repositories: z
    .array(
      z.object({
        repo: RepoId,
        revision: Commit,
        /** Each file the preset takes from it, by its path in the repository, with its size in bytes. */
        files: z.record(RelativePath, z.number().int().positive()),
      }),
    )
    .min(1),
});
export type HubPreset = z.infer<typeof HubPreset>;

const XL_TURBO_PRESET: HubPreset = {
  name: 'acestep-1.5-xl-turbo',
  description: 'ACE-Step 1.5 XL Turbo (4B DiT), DiT-only, 8 steps at shift 3, from the files Emb1ter/ai-music-js 0.4.0 runs',
  layout: 'xl-turbo',
  repositories: [
    {
      repo: 'shreyask/ACE-Step-v1.5-ONNX',
      revision: 'bdabfb5684fd70fcc76f98cbb51bb9ebc47ee342',
      files: {
        'onnx/text_encoder_q4.onnx': 4_280_307,
        'onnx/text_encoder_q4.onnx.data': 1_684_127_744,
        'onnx/text_embed_tokens_fp16.onnx': 2_208,
        'onnx/text_embed_tokens_fp16.onnx.data': 310_618_112,
      },
    },
    {
      repo: 'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU',
      revision: 'cf185389395b3a725d948a59262f3ab4be4b0ad8',
      files: {
        'condition_encoder_xl_turbo_q4.onnx': 2_136_693,
        'condition_encoder_xl_turbo_q4.onnx.data': 347_366_896,
        'condition_encoder_xl_turbo_q8.onnx': 2_137_573,
        'condition_encoder_xl_turbo_q8.onnx.data.0': 656_270_832,
        'audio_code_detokenizer_xl_fp16.onnx': 127_091,
        'audio_code_detokenizer_xl_fp16.onnx.data': 210_820_224,
        'dit_decoder_xl_turbo_q4.onnx': 9_017_416,
        'dit_decoder_xl_turbo_q4.onnx.data.0': 949_514_240,
        'dit_decoder_xl_turbo_q4.onnx.data.1': 942_622_720,
        'dit_decoder_xl_turbo_q4.onnx.data.2': 811_806_720,
        'dit_decoder_xl_turbo_q8.onnx': 9_026_143,
        'dit_decoder_xl_turbo_q8.onnx.data.0': 948_725_760,
        'dit_decoder_xl_turbo_q8.onnx.data.1': 945_377_280,
        'dit_decoder_xl_turbo_q8.onnx.data.2': 932_659_200,
        'dit_decoder_xl_turbo_q8.onnx.data.3': 932_659_200,
        'dit_decoder_xl_turbo_q8.onnx.data.4': 932_659_200,
        'dit_decoder_xl_turbo_q8.onnx.data.5': 80_547_840,
        'vae_decoder_fp32.onnx': 1_076_526,
        'vae_decoder_fp32.onnx.data': 337_707_008,
      },
    },
    {
      repo: 'ACE-Step/Ace-Step1.5',
      revision: '19671f406d603126926c1b7e2adc169acbcade22',
      files: {
        'Qwen3-Embedding-0.6B/tokenizer.json': 11_423_705,
        'Qwen3-Embedding-0.6B/tokenizer_config.json': 5_404,
        'acestep-v15-turbo/silence_latent.pt': 3_841_215,
      },
    },
  ],
};

export const HUB_PRESETS: Readonly<Record<string, HubPreset>> = { [XL_TURBO_PRESET.name]: XL_TURBO_PRESET };

export interface PresetError {
  code: 'MODEL_PRESET_INVALID';
  message: string;
}

/** A preset by name, or from a JSON file (a path ending in .json) in the same shape. */
export async function resolvePreset(nameOrFile: string): Promise<Result<HubPreset, PresetError>> {
  if (!nameOrFile.endsWith('.json')) {
    const preset = HUB_PRESETS[nameOrFile];
    return preset === undefined
      ? fail({ code: 'MODEL_PRESET_INVALID', message: `no preset ${nameOrFile}: the presets are ${Object.keys(HUB_PRESETS).join(', ')}` })
      : ok(preset);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(nameOrFile, 'utf8'));
  } catch (err) {
    return fail({ code: 'MODEL_PRESET_INVALID', message: `${nameOrFile}: ${err instanceof Error ? err.message : String(err)}` });
  }
  const parsed = HubPreset.safeParse(json);
  return parsed.success
    ? ok(parsed.data)
    : fail({ code: 'MODEL_PRESET_INVALID', message: `${nameOrFile}: ${z.prettifyError(parsed.error)}` });
}

/** One file to download: where from (repository at its pinned revision) and its size. */
export interface PlannedFile {
  repo: string;
  revision: string;
  path: string;
  size: number;
}

/** The layout's files at a quality: every graph every song needs (the optional ones the preset carries), tokenizer, silence latent. */
export function layoutFiles(layout: KnownLayout, quality: Quality, available: (path: string) => boolean): Result<string[], PresetError> {
  const paths: string[] = [];
  for (const role of GRAPH_ROLES) {
    const graph = layout.graphs[role];
    const file = graphFile(layout, role, quality);
    if (graph === undefined || file === undefined) continue;
    const externalData = file.externalData === 'exporter-manifest' ? [] : file.externalData;
    const wanted = [file.file, ...externalData];
    if (graph.optionalFor !== null && !wanted.every(available)) continue;
    paths.push(...wanted);
  }
  paths.push(layout.tokenizer.file);
  if (layout.tokenizer.config !== null) paths.push(layout.tokenizer.config);
  paths.push(layout.silenceLatent.file);
  const missing = paths.find((path) => !available(path));
  if (missing !== undefined)
    return fail({
      code: 'MODEL_PRESET_INVALID',
      message: `the ${layout.id} layout needs ${missing}, which the preset pins in no repository`,
    });
  return ok(paths);
}

/** Every file a preset downloads at a quality, in the layout's order, with its repository and size. */
export function planPreset(preset: HubPreset, quality: Quality): Result<PlannedFile[], PresetError> {
  const where = (path: string) => preset.repositories.find((r) => r.files[path] !== undefined);
  const paths = layoutFiles(LAYOUTS[preset.layout], quality, (path) => where(path) !== undefined);
  if (!paths.ok) return paths;
  return ok(
    paths.value.flatMap((path) => {
      const repo = where(path);
      const size = repo?.files[path];
      return repo === undefined || size === undefined ? [] : [{ repo: repo.repo, revision: repo.revision, path, size }];
    }),
  );
}

/** `songmint-hub-files.json`: what was downloaded from where, each file's sha256 (the Hub's LFS oid) and size. */
export const HubRecord = z.object({
  format: z.literal('songmint-hub-files/2'),
  preset: z.string().min(1),
  layout: z.enum(['xl-turbo', 'exporter-2b']),
  quality: z.enum(QUALITIES),
  endpoint: z.string().min(1),
  sources: z.array(z.object({ repo: z.string().min(1), revision: z.string().min(1) })).min(1),
  files: z.record(
    RelativePath,
    z.object({ repo: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().nonnegative() }),
  ),
});
export type HubRecord = z.infer<typeof HubRecord>;
