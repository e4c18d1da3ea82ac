/**
 * Turns a directory as the public ACE-Step 1.5 exporter writes it (or as `model:fetch` downloads the
 * Hub repositories, hub-layout.ts: its `songmint-hub-files.json` holds the Hub's hashes) (SuzukiDaishi/ACE-Step-ONNX-Rust,
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
import { ACE_STEP_15_WIDTHS, GRAPH_NAMES, OPTIONAL_GRAPHS } from './contract.ts';
import type { AcestepManifest } from './manifest.ts';
import { ACESTEP_MANIFEST_FILE, AcestepManifest as ManifestSchema, RelativePath } from './manifest.ts';
import { HUB_RECORD_FILE, HubRecord } from './hub-layout.ts';
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
  /** Each graph's file, as its source named and hashed it. */
  verified: string[];
  /** The file that recorded the hashes: the export's manifest.json or songmint-hub-files.json. */
  source: string;
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
        path: RelativePath,
        external_data: z.boolean().default(false),
        external_files: z.array(RelativePath).default([]),
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
  path: RelativePath.default('qwen3_embedding_0p6.onnx'),
  token_embedding_path: RelativePath.default('qwen3_token_embedding_0p6.onnx'),
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

/** Where each role's graph is and the sha256 its source records, in either layout. */
interface Located {
  graphs: Partial<Record<GraphName, { file: string; sha256: string; sidecars: { file: string; sha256?: string | undefined }[] }>>;
  /** Which file recorded the hashes, for the messages. */
  source: string;
  silenceLatent: string;
  tokenizer: string;
  /** sha256 of the checkpoint files, where the source records them. */
  recorded: Readonly<Record<string, string>>;
  generatedAt: string | undefined;
}

async function parseJson<T>(dir: string, file: string, schema: z.ZodType<T>): Promise<Result<T, ImportError>> {
  let json: unknown;
  try {
    json = await readJson(join(dir, file));
  } catch (e) {
    return err('MODEL_EXPORT_INVALID', `${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? ok(parsed.data) : err('MODEL_EXPORT_INVALID', `${file}: ${z.prettifyError(parsed.error)}`);
}

/** The exporter's layout: `manifest.json` hashes the graphs, `io_contract_qwen3_embedding_0p6.json` names the Qwen ones. */
async function locateExport(dir: string): Promise<Result<Located, ImportError>> {
  const exportManifest = await parseJson(dir, EXPORT_MANIFEST_FILE, ExportManifest);
  if (!exportManifest.ok) return exportManifest;
  let qwen: z.infer<typeof QwenContract> = QwenContract.parse({});
  if (existsSync(join(dir, QWEN_CONTRACT_FILE))) {
    const parsed = await parseJson(dir, QWEN_CONTRACT_FILE, QwenContract);
    if (!parsed.ok) return parsed;
    qwen = parsed.value;
  }
  const files: Partial<Record<GraphName, string>> = {
    qwen3_embedding_0p6: qwen.path,
    qwen3_token_embeddings: qwen.token_embedding_path,
    condition_encoder: 'condition_encoder.onnx',
    dit_decoder: 'dit_decoder.onnx',
    vae_decoder: 'vae_decoder.onnx',
    audio_tokenizer: 'audio_tokenizer.onnx',
    audio_detokenizer: 'audio_detokenizer.onnx',
    vae_encoder: 'vae_encoder.onnx',
  };
  const entries = Object.values(exportManifest.value.models).flatMap((group) => Object.values(group));
  const graphs: Located['graphs'] = {};
  for (const [graph, file] of Object.entries(files) as [GraphName, string][]) {
    const entry: ExportEntry | undefined = entries.find((e) => e.path === file);
    // An optional role the export did not write (vae_encoder is never in the public exporter's set).
    if (entry === undefined && OPTIONAL_GRAPHS.includes(graph)) continue;
    if (entry === undefined) return err('MODEL_EXPORT_INVALID', `graph ${graph}: ${file} is not in ${EXPORT_MANIFEST_FILE}`);
    graphs[graph] = { file: entry.path, sha256: entry.sha256, sidecars: entry.external_files.map((file) => ({ file })) };
  }
  return ok({
    graphs,
    source: EXPORT_MANIFEST_FILE,
    silenceLatent: 'silence_latent.pt',
    tokenizer: 'tokenizer.json',
    recorded: {},
    generatedAt: exportManifest.value.generated_at,
  });
}

/** The Hub repositories' layout as `model:fetch` downloaded it: `songmint-hub-files.json` holds the Hub's hashes. */
async function locateHub(dir: string): Promise<Result<Located, ImportError>> {
  const record = await parseJson(dir, HUB_RECORD_FILE, HubRecord);
  if (!record.ok) return record;
  const { roles, files } = record.value;
  const graphs: Located['graphs'] = {};
  for (const graph of GRAPH_NAMES) {
    const role = roles[graph];
    if (role === undefined) continue;
    const sha256 = files[role.file];
    if (sha256 === undefined) return err('MODEL_EXPORT_INVALID', `graph ${graph}: ${role.file} has no sha256 in ${HUB_RECORD_FILE}`);
    graphs[graph] = {
      file: role.file,
      sha256,
      sidecars: role.external_data.map((file) => ({ file, sha256: files[file] })),
    };
  }
  return ok({
    graphs,
    source: `${HUB_RECORD_FILE}, the Hub's hashes`,
    silenceLatent: record.value.silence_latent,
    tokenizer: record.value.tokenizer,
    recorded: files,
    generatedAt: undefined,
  });
}

export async function importAcestepExport(options: ImportOptions): Promise<Result<Imported, ImportError>> {
  const dir = options.dir;
  const hub = existsSync(join(dir, HUB_RECORD_FILE));
  if (!hub && !existsSync(join(dir, EXPORT_MANIFEST_FILE)))
    return err(
      'MODEL_FILE_MISSING',
      `neither ${EXPORT_MANIFEST_FILE} (the exporter writes one beside the graphs) nor ${HUB_RECORD_FILE} (npm run model:fetch writes one) in ${dir}`,
    );
  const located = hub ? await locateHub(dir) : await locateExport(dir);
  if (!located.ok) return located;
  const { source } = located.value;

  // Every graph the backend runs: present, and byte for byte as its source hashed it.
  const graphs: Partial<Record<GraphName, AcestepManifest['graphs']['dit_decoder']>> = {};
  const metadata = new Map<
    GraphName,
    { inputs: readonly ort.InferenceSession.ValueMetadata[]; outputs: readonly ort.InferenceSession.ValueMetadata[] }
  >();
  const present = GRAPH_NAMES.filter((g) => located.value.graphs[g] !== undefined);
  for (const graph of present) {
    const where = located.value.graphs[graph];
    if (where === undefined) continue;
    const { file, sha256: recorded, sidecars } = where;
    const path = join(dir, file);
    if (!existsSync(path)) return err('MODEL_FILE_MISSING', `graph ${graph}: ${file} is missing from ${dir}`);
    const found = await sha256File(path);
    if (found !== recorded)
      return err('MODEL_CHECKSUM_MISMATCH', `graph ${graph}: ${file} sha256 expected ${recorded} (${source}), found ${found}`);
    const externalData: { file: string; sha256: string }[] = [];
    for (const sidecar of sidecars) {
      if (!existsSync(join(dir, sidecar.file)))
        return err('MODEL_FILE_MISSING', `graph ${graph}: external data ${sidecar.file} is missing from ${dir}`);
      const hash = await sha256File(join(dir, sidecar.file));
      if (sidecar.sha256 !== undefined && hash !== sidecar.sha256)
        return err(
          'MODEL_CHECKSUM_MISMATCH',
          `graph ${graph}: ${sidecar.file} sha256 expected ${sidecar.sha256} (${source}), found ${hash}`,
        );
      externalData.push({ file: sidecar.file, sha256: hash });
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
  const checkRecorded = async (file: string): Promise<Result<null, ImportError>> => {
    const recorded = located.value.recorded[file];
    if (recorded === undefined) return ok(null);
    const found = await sha256File(join(dir, file));
    return found === recorded
      ? ok(null)
      : err('MODEL_CHECKSUM_MISMATCH', `${file} sha256 expected ${recorded} (${source}), found ${found}`);
  };

  // The widths, as the graphs declare them.
  const dims = {} as Record<Width, number>;
  for (const [width, source] of Object.entries(WIDTH_SOURCES) as [Width, (typeof WIDTH_SOURCES)[Width]][]) {
    const values = metadata.get(source.graph)?.[source.kind === 'input' ? 'inputs' : 'outputs'] ?? [];
    let tensor = values.find((m) => source.names.includes(m.name));
    let dim = tensor?.isTensor === true ? tensor.shape[source.axis] : undefined;
    if (width === 'timbre_frames' && !metadata.has('condition_encoder')) {
      // The split timbre encoder names nothing: its reference latents are its float input of rank 3.
      // A dynamic frame axis is the host's choice, the reference's 750 (silence_latent[:, :750]).
      tensor = metadata.get('timbre_encoder')?.inputs.find((m) => m.isTensor && m.shape.length === 3 && m.type.startsWith('float'));
      dim = tensor?.isTensor === true ? tensor.shape[1] : undefined;
      if (tensor !== undefined && typeof dim !== 'number') dim = ACE_STEP_15_WIDTHS.timbre_frames;
    }
    if (typeof dim !== 'number' || dim <= 0)
      return err(
        'MODEL_LAYOUT_INVALID',
        `width ${width}: graph ${source.graph} ${source.kind} ${source.names.join(' or ')} declares dimension ${source.axis} as ${String(dim ?? 'nothing')}, not a number`,
      );
    dims[width] = dim;
  }

  // The silence latent: [1, channels, frames] in the checkpoint, [frames, channels] raw here.
  const ptPath = resolve(options.silenceLatent ?? join(dir, located.value.silenceLatent));
  // The checkpoint's files, where the source hashed them and no other file was named instead.
  for (const [file, named] of [
    [located.value.silenceLatent, options.silenceLatent],
    [located.value.tokenizer, options.tokenizer],
  ] as const) {
    const checked = named === undefined ? await checkRecorded(file) : ok(null);
    if (!checked.ok) return checked;
  }
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
  // The tokenizer: Qwen3-Embedding's tokenizer.json, which must load.
  const tokenizerSource = resolve(options.tokenizer ?? join(dir, located.value.tokenizer));
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

  await writeFile(join(dir, SILENCE_LATENT_BIN), new Uint8Array(transposed.buffer));

  const parsed = ManifestSchema.safeParse({
    format: 'songmint-acestep/1',
    name: options.name ?? 'ace-step-1.5-turbo',
    version: '1.5',
    description: `ACE-Step 1.5 turbo (DiT-only), imported by npm run model:import (${hub ? 'the Hub repositories' : `the export generated ${located.value.generatedAt ?? 'at an unrecorded time'}`}).`,
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
  // The widths and the silence latent must agree (e.g. enough frames for the timbre reference).
  if (!parsed.success) return err('MODEL_LAYOUT_INVALID', `the imported model does not hold together: ${z.prettifyError(parsed.error)}`);
  const manifest = parsed.data;
  await writeFile(join(dir, ACESTEP_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return ok({ manifest, verified: present.flatMap((g) => located.value.graphs[g]?.file ?? []), source });
}
