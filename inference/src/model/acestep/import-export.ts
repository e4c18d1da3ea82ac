/**
 * Turns a directory as the public ACE-Step 1.5 exporter writes it (SuzukiDaishi/ACE-Step-ONNX-Rust,
 * tools/onnx_export: `manifest.json`, `io_contract_core.json`, `io_contract_qwen3_embedding_0p6.json`
 * and the graphs), plus the checkpoint's `silence_latent.pt` and Qwen3-Embedding's
 * `tokenizer.json`, into a model directory the worker runs: each graph's sha256 against the
 * export's own manifest (a changed byte is refused, naming the file), the widths read from the
 * graphs, the silence latent converted from `.pt` in TypeScript (torch-pt.ts: nothing in it runs)
 * to raw float32 `[frames, channels]`, and `songmint-acestep.json` written beside the export's
 * files, which stay untouched. The caller then runs the same checks as `model:check`.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import { readFloatTensor } from '../torch-pt.ts';
import type { GraphName, Width } from './contract.ts';
import { GRAPH_NAMES } from './contract.ts';
import type { AcestepManifest } from './manifest.ts';
import { ACESTEP_MANIFEST_FILE, AcestepManifest as ManifestSchema } from './manifest.ts';
import { sha256File } from './validate.ts';

export const EXPORT_MANIFEST_FILE = 'manifest.json';
export const QWEN_CONTRACT_FILE = 'io_contract_qwen3_embedding_0p6.json';
export const SILENCE_LATENT_BIN = 'silence_latent.bin';

export type ImportErrorCode =
  'MODEL_EXPORT_INVALID' | 'MODEL_FILE_MISSING' | 'MODEL_CHECKSUM_MISMATCH' | 'MODEL_PT_INVALID' | 'MODEL_LAYOUT_INVALID';
export interface ImportError {
  code: ImportErrorCode;
  message: string;
}

export interface ImportOptions {
  dir: string;
  /** The checkpoint's `silence_latent.pt` (default: the directory's). */
  silenceLatent?: string | undefined;
  /** Qwen3-Embedding-0.6B's `tokenizer.json` (default: the directory's). */
  tokenizer?: string | undefined;
  name?: string | undefined;
}

export interface Imported {
  manifest: AcestepManifest;
  /** Each graph's file, as the export's manifest named and hashed it. */
  verified: string[];
}

/** The export's `manifest.json` as `tools/onnx_export/common.py` `update_manifest` writes it. */
const ExportManifest = z.object({
  generated_at: z.string().optional(),
  artifact_root: z.string().optional(),
  models: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({
        path: z.string().min(1),
        external_data: z.boolean().default(false),
        external_files: z.array(z.string()).default([]),
        inputs: z.array(z.string()).default([]),
        outputs: z.array(z.string()).default([]),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        size_bytes: z.number().int().nonnegative().optional(),
      }),
    ),
  ),
});
type ExportEntry = z.infer<typeof ExportManifest>['models'][string][string];

const QwenContract = z.object({
  path: z.string().min(1).default('qwen3_embedding_0p6.onnx'),
  token_embedding_path: z.string().min(1).default('qwen3_token_embedding_0p6.onnx'),
});

/** Where each width is read: a graph, one of its tensors (by any of its names), an axis. */
const WIDTH_SOURCES: Readonly<Record<Width, { graph: GraphName; kind: 'input' | 'output'; names: string[]; axis: number }>> = {
  text_hidden: { graph: 'qwen3_embedding_0p6', kind: 'output', names: ['last_hidden_state'], axis: 2 },
  latent_channels: { graph: 'vae_decoder', kind: 'input', names: ['latents'], axis: 1 },
  context_channels: { graph: 'dit_decoder', kind: 'input', names: ['context_latents'], axis: 2 },
  encoder_hidden: { graph: 'dit_decoder', kind: 'input', names: ['encoder_hidden_states'], axis: 2 },
  timbre_frames: { graph: 'condition_encoder', kind: 'input', names: ['refer_audio_acoustic_hidden_states_packed'], axis: 1 },
};

const err = (code: ImportErrorCode, message: string): Result<never, ImportError> => fail({ code, message });

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

/** The exporter's licences: ACE-Step 1.5 (MIT) and Qwen3-Embedding-0.6B (Apache-2.0); both allow commercial use. */
const LICENCES: AcestepManifest['licences'] = [
  {
    component: 'ACE-Step 1.5 graphs (condition encoder, DiT, VAE, silence latent)',
    spdx: 'MIT',
    commercial_use: true,
    url: 'https://github.com/ace-step/ACE-Step-1.5',
  },
  {
    component: 'Qwen3-Embedding-0.6B (caption encoder, token table, tokenizer)',
    spdx: 'Apache-2.0',
    commercial_use: true,
    url: 'https://huggingface.co/Qwen/Qwen3-Embedding-0.6B',
  },
];

export async function importAcestepExport(options: ImportOptions): Promise<Result<Imported, ImportError>> {
  const dir = options.dir;
  const exportManifestPath = join(dir, EXPORT_MANIFEST_FILE);
  if (!existsSync(exportManifestPath))
    return err('MODEL_FILE_MISSING', `no ${EXPORT_MANIFEST_FILE} in ${dir}: the exporter writes one beside the graphs`);
  let exportManifest: z.infer<typeof ExportManifest>;
  try {
    const parsed = ExportManifest.safeParse(await readJson(exportManifestPath));
    if (!parsed.success) return err('MODEL_EXPORT_INVALID', `${EXPORT_MANIFEST_FILE}: ${z.prettifyError(parsed.error)}`);
    exportManifest = parsed.data;
  } catch (e) {
    return err('MODEL_EXPORT_INVALID', `${EXPORT_MANIFEST_FILE} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  let qwen: z.infer<typeof QwenContract> = QwenContract.parse({});
  if (existsSync(join(dir, QWEN_CONTRACT_FILE))) {
    const parsed = QwenContract.safeParse(await readJson(join(dir, QWEN_CONTRACT_FILE)));
    if (!parsed.success) return err('MODEL_EXPORT_INVALID', `${QWEN_CONTRACT_FILE}: ${z.prettifyError(parsed.error)}`);
    qwen = parsed.data;
  }
  const files: Record<GraphName, string> = {
    qwen3_embedding_0p6: qwen.path,
    qwen3_token_embeddings: qwen.token_embedding_path,
    condition_encoder: 'condition_encoder.onnx',
    dit_decoder: 'dit_decoder.onnx',
    vae_decoder: 'vae_decoder.onnx',
  };
  const entries = Object.values(exportManifest.models).flatMap((group) => Object.values(group));

  // Every graph the backend runs: listed in the export's manifest, present, and byte for byte as hashed there.
  const graphs = {} as AcestepManifest['graphs'];
  const metadata = new Map<
    GraphName,
    { inputs: readonly ort.InferenceSession.ValueMetadata[]; outputs: readonly ort.InferenceSession.ValueMetadata[] }
  >();
  for (const graph of GRAPH_NAMES) {
    const file = files[graph];
    const entry: ExportEntry | undefined = entries.find((e) => e.path === file);
    if (entry === undefined) return err('MODEL_EXPORT_INVALID', `graph ${graph}: ${file} is not in ${EXPORT_MANIFEST_FILE}`);
    const path = join(dir, file);
    if (!existsSync(path)) return err('MODEL_FILE_MISSING', `graph ${graph}: ${file} is missing from ${dir}`);
    const found = await sha256File(path);
    if (found !== entry.sha256)
      return err(
        'MODEL_CHECKSUM_MISMATCH',
        `graph ${graph}: ${file} sha256 expected ${entry.sha256} (${EXPORT_MANIFEST_FILE}), found ${found}`,
      );
    const externalData: { file: string; sha256: string }[] = [];
    for (const sidecar of entry.external_files) {
      if (!existsSync(join(dir, sidecar)))
        return err('MODEL_FILE_MISSING', `graph ${graph}: external data ${sidecar} is missing from ${dir}`);
      externalData.push({ file: sidecar, sha256: await sha256File(join(dir, sidecar)) });
    }
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(path, { executionProviders: ['cpu'] });
    } catch (e) {
      return err('MODEL_LAYOUT_INVALID', `graph ${graph}: ${file} does not load: ${e instanceof Error ? e.message : String(e)}`);
    }
    metadata.set(graph, { inputs: session.inputMetadata, outputs: session.outputMetadata });
    const floats = [...session.inputMetadata, ...session.outputMetadata].map((m) => (m.isTensor ? m.type : undefined));
    await session.release();
    const precision = floats.includes('float16') ? 'fp16' : 'fp32';
    graphs[graph] = { file, sha256: found, precision, external_data: externalData };
  }

  // The widths, as the graphs declare them.
  const dims = {} as Record<Width, number>;
  for (const [width, source] of Object.entries(WIDTH_SOURCES) as [Width, (typeof WIDTH_SOURCES)[Width]][]) {
    const values = metadata.get(source.graph)?.[source.kind === 'input' ? 'inputs' : 'outputs'] ?? [];
    const tensor = values.find((m) => source.names.includes(m.name));
    const dim = tensor?.isTensor === true ? tensor.shape[source.axis] : undefined;
    if (typeof dim !== 'number' || dim <= 0)
      return err(
        'MODEL_LAYOUT_INVALID',
        `width ${width}: graph ${source.graph} ${source.kind} ${source.names.join(' or ')} declares dimension ${source.axis} as ${String(dim ?? 'nothing')}, not a number`,
      );
    dims[width] = dim;
  }

  // The silence latent: [1, channels, frames] in the checkpoint, [frames, channels] raw here.
  const ptPath = resolve(options.silenceLatent ?? join(dir, 'silence_latent.pt'));
  if (!existsSync(ptPath))
    return err(
      'MODEL_FILE_MISSING',
      `no silence latent at ${ptPath} (the checkpoint's acestep-v15-turbo/silence_latent.pt; --silence-latent names it)`,
    );
  const tensor = readFloatTensor(await readFile(ptPath));
  if (!tensor.ok) return err('MODEL_PT_INVALID', `${basename(ptPath)}: ${tensor.error.message}`);
  const [batch, channels, frames] = tensor.value.shape;
  if (tensor.value.shape.length !== 3 || batch !== 1 || channels !== dims.latent_channels || frames === undefined)
    return err(
      'MODEL_PT_INVALID',
      `${basename(ptPath)}: shape [${tensor.value.shape.join(', ')}], expected [1, latent_channels=${dims.latent_channels}, frames]`,
    );
  const transposed = new Float32Array(frames * channels);
  for (let c = 0; c < channels; c += 1)
    for (let f = 0; f < frames; f += 1) transposed[f * channels + c] = tensor.value.data[c * frames + f] ?? 0;
  await writeFile(join(dir, SILENCE_LATENT_BIN), new Uint8Array(transposed.buffer));

  // The tokenizer: Qwen3-Embedding's tokenizer.json, which must load.
  const tokenizerSource = resolve(options.tokenizer ?? join(dir, 'tokenizer.json'));
  if (!existsSync(tokenizerSource))
    return err(
      'MODEL_FILE_MISSING',
      `no tokenizer at ${tokenizerSource} (the checkpoint's Qwen3-Embedding-0.6B/tokenizer.json; --tokenizer names it)`,
    );
  try {
    new Tokenizer(JSON.parse(await readFile(tokenizerSource, 'utf8')) as object, {});
  } catch (e) {
    return err('MODEL_LAYOUT_INVALID', `tokenizer ${tokenizerSource}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (tokenizerSource !== resolve(join(dir, 'tokenizer.json'))) await copyFile(tokenizerSource, join(dir, 'tokenizer.json'));

  const manifest = ManifestSchema.parse({
    format: 'songmint-acestep/1',
    name: options.name ?? 'ace-step-1.5-turbo',
    version: '1.5',
    description: `ACE-Step 1.5 turbo (DiT-only), imported by npm run model:import from the export generated ${exportManifest.generated_at ?? 'at an unrecorded time'}.`,
    licences: LICENCES,
    sample_rate: 48_000,
    channels: 2,
    samples_per_frame: 1920,
    frames_per_second: 25,
    patch_size: 2,
    dims,
    tokenizer: {
      file: 'tokenizer.json',
      sha256: await sha256File(join(dir, 'tokenizer.json')),
      max_caption_tokens: 256,
      max_lyric_tokens: 2048,
    },
    silence_latent: {
      file: SILENCE_LATENT_BIN,
      sha256: await sha256File(join(dir, SILENCE_LATENT_BIN)),
      dtype: 'float32',
      shape: [frames, channels],
    },
    // Turbo is distilled for 8 steps at shift 3, without guidance: both request values run it.
    schedule: { steps_for_request: { '27': 8, '60': 8 }, shift: 3, guidance_scale: 1 },
    vae_chunk_frames: 512,
    vae_overlap_frames: 64,
    graphs,
  });
  await writeFile(join(dir, ACESTEP_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return ok({ manifest, verified: GRAPH_NAMES.map((g) => files[g]) });
}
