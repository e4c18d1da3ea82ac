/**
 * `npm run model:import`: turns a folder holding the files of a known layout (layouts.ts) into a
 * model directory the worker runs, however the files were downloaded: by `model:fetch` (its
 * `songmint-hub-files.json` holds the Hub's sha256 of each), by `huggingface-cli download
 * --local-dir` into one folder (its `.cache/huggingface/download/<path>.metadata` hold each file's
 * etag: the LFS sha256, or the git sha1 of a small file), or as the public exporter writes its 2B
 * directory (its `manifest.json` holds each graph's sha256), or with no record at all (then every
 * file is hashed and recorded here). The layout is recognised by its files; each graph is checked
 * byte for byte against the hash its source records (a changed byte is refused, naming the file),
 * opened on CPU and bound by exact names to the layout's table (a graph whose interface differs is
 * refused with the expected and found interface side by side); the widths are read from the graphs,
 * the silence latent converted from `.pt` in TypeScript (torch-pt.ts: nothing in it runs) to raw
 * float32 `[frames, channels]`, the tokenizer loaded. `songmint-acestep.json` (and the converted
 * silence latent) are written only after every check has passed; the downloaded files stay as they are.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import { PT_BUDGETS, readFloatTensor } from '../torch-pt.ts';
import { bindGraph, sessionValues } from './bind.ts';
import type { SessionValue } from './bind.ts';
import { HUB_PRESETS, HUB_RECORD_FILE, HubRecord } from './hub-presets.ts';
import type { GraphFile, GraphRole, KnownLayout, Precision, Quality, Width } from './layouts.ts';
import { ACE_STEP_15_WIDTHS, EXPORTER_2B, GRAPH_ROLES, graphFile, WIDTH_SOURCES, WIDTHS, XL_TURBO } from './layouts.ts';
import type { AcestepManifest, ManifestGraph, ManifestLicence } from './manifest.ts';
import { ACESTEP_MANIFEST_FILE, ACESTEP_MANIFEST_FORMAT, AcestepManifest as ManifestSchema, RelativePath } from './manifest.ts';

export const EXPORT_MANIFEST_FILE = 'manifest.json';
export const SILENCE_LATENT_BIN = 'silence_latent.bin';

export type ImportErrorCode =
  'MODEL_EXPORT_INVALID' | 'MODEL_FILE_MISSING' | 'MODEL_CHECKSUM_MISMATCH' | 'MODEL_PT_INVALID' | 'MODEL_LAYOUT_INVALID';
export interface ImportError {
  code: ImportErrorCode;
  message: string;
}

export interface ImportOptions {
  dir: string;
  /** The checkpoint's `silence_latent.pt` (default: the layout's path in the directory). */
  silenceLatent?: string | undefined;
  /** Qwen3-Embedding-0.6B's `tokenizer.json` (default: the layout's path in the directory). */
  tokenizer?: string | undefined;
  name?: string | undefined;
  /** XL: which graphs to take when the folder holds both (q4 standard, q8 high). */
  quality?: Quality | undefined;
}

export interface Imported {
  manifest: AcestepManifest;
  /** Files checked against a hash their source recorded, and where those hashes came from. */
  verified: string[];
  source: string;
  /** Files no source recorded a hash for: hashed here and recorded. */
  hashedOnly: string[];
  /** Widths a graph leaves undeclared, taken from ACE-Step 1.5's. */
  assumedWidths: Width[];
  /** Notes for the operator (files that are not the pinned preset's sizes, …). */
  notes: string[];
}

const err = (code: ImportErrorCode, message: string): Result<never, ImportError> => fail({ code, message });

async function fileHashes(path: string): Promise<{ sha256: string; gitSha1: string; size: number }> {
  const size = (await stat(path)).size;
  const sha256 = createHash('sha256');
  const sha1 = createHash('sha1');
  sha1.update(`blob ${size}\0`);
  for await (const chunk of createReadStream(path)) {
    sha256.update(chunk as Buffer);
    sha1.update(chunk as Buffer);
  }
  return { sha256: sha256.digest('hex'), gitSha1: sha1.digest('hex'), size };
}

/** The public exporter's `manifest.json` as `tools/onnx_export/common.py` `update_manifest` writes it. */
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

async function parseJson<T>(dir: string, file: string, schema: z.ZodType<T>): Promise<Result<T, ImportError>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(join(dir, file), 'utf8'));
  } catch (e) {
    return err('MODEL_EXPORT_INVALID', `${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? ok(parsed.data) : err('MODEL_EXPORT_INVALID', `${file}: ${z.prettifyError(parsed.error)}`);
}

/** How a file's hash is known: recorded by a source (one of its kinds), or not at all. */
type Recorded = { sha256: string } | { gitSha1: string };

/** What the folder is and what its source recorded. */
interface Recognised {
  layout: KnownLayout;
  quality: Quality | undefined;
  /** Each present graph: its file, sidecars and the precision its layout or export declares. */
  graphs: Partial<Record<GraphRole, { file: string; externalData: string[]; precision: GraphFile['precision'] }>>;
  recorded: (path: string) => Promise<Recorded | undefined>;
  source: string;
  sources: { repo: string; revision: string }[];
  generatedAt: string | undefined;
}

/** `huggingface-cli download --local-dir`'s record of a file: `.cache/huggingface/download/<path>.metadata` (commit, etag, time). */
async function hfCliEtag(dir: string, path: string): Promise<Recorded | undefined> {
  const metadata = join(dir, '.cache', 'huggingface', 'download', `${path}.metadata`);
  if (!existsSync(metadata)) return undefined;
  const etag = (await readFile(metadata, 'utf8')).split('\n')[1]?.trim().replace(/^"|"$/g, '') ?? '';
  if (/^[0-9a-f]{64}$/.test(etag)) return { sha256: etag };
  if (/^[0-9a-f]{40}$/.test(etag)) return { gitSha1: etag };
  return undefined;
}

async function recogniseXl(dir: string, options: ImportOptions): Promise<Result<Recognised, ImportError>> {
  const layout = XL_TURBO;
  let record: HubRecord | undefined;
  if (existsSync(join(dir, HUB_RECORD_FILE))) {
    const parsed = await parseJson(dir, HUB_RECORD_FILE, HubRecord);
    if (!parsed.ok) return parsed;
    record = parsed.value;
  }
  const has = (quality: Quality) => existsSync(join(dir, graphFile(layout, 'dit', quality)?.file ?? ''));
  const quality: Quality = options.quality ?? record?.quality ?? (has('standard') ? 'standard' : 'high');
  const graphs: Recognised['graphs'] = {};
  for (const role of GRAPH_ROLES) {
    const table = layout.graphs[role];
    const file = graphFile(layout, role, quality);
    if (table === undefined || file === undefined || file.externalData === 'exporter-manifest') continue;
    // An optional graph is taken where the folder has it.
    if (table.optionalFor !== null && !existsSync(join(dir, file.file))) continue;
    graphs[role] = { file: file.file, externalData: [...file.externalData], precision: file.precision };
  }
  const cli = existsSync(join(dir, '.cache', 'huggingface', 'download'));
  return ok({
    layout,
    quality,
    graphs,
    recorded: async (path) => {
      const entry = record?.files[path];
      if (entry !== undefined) return { sha256: entry.sha256 };
      return cli ? hfCliEtag(dir, path) : undefined;
    },
    source:
      record !== undefined
        ? `${HUB_RECORD_FILE}, the Hub's hashes`
        : cli
          ? "huggingface-cli's .cache/huggingface/download metadata, the Hub's etags"
          : 'no recorded hashes: every file hashed here',
    sources: record?.sources ?? [],
    generatedAt: undefined,
  });
}

async function recogniseExporter(dir: string): Promise<Result<Recognised, ImportError>> {
  const layout = EXPORTER_2B;
  const exported = await parseJson(dir, EXPORT_MANIFEST_FILE, ExportManifest);
  if (!exported.ok) return exported;
  const entries = Object.values(exported.value.models).flatMap((group) => Object.values(group));
  // The exporter's qwen contract may rename the Qwen graphs; its defaults are the table's names.
  const graphs: Recognised['graphs'] = {};
  for (const role of GRAPH_ROLES) {
    const table = layout.graphs[role];
    const file = table?.files[0];
    if (table === undefined || file === undefined) continue;
    const entry = entries.find((e) => e.path === file.file);
    // An optional role the export did not write (vae_encoder is never in the public exporter's set).
    if (entry === undefined && table.optionalFor !== null) continue;
    if (entry === undefined) return err('MODEL_EXPORT_INVALID', `graph ${role}: ${file.file} is not in ${EXPORT_MANIFEST_FILE}`);
    graphs[role] = { file: entry.path, externalData: entry.external_files, precision: file.precision };
  }
  return ok({
    layout,
    quality: undefined,
    graphs,
    recorded: (path) => {
      const entry = entries.find((e) => e.path === path);
      return Promise.resolve(entry === undefined ? undefined : { sha256: entry.sha256 });
    },
    source: EXPORT_MANIFEST_FILE,
    sources: [],
    generatedAt: exported.value.generated_at,
  });
}

/** The layout a folder holds, by its files. */
export async function recogniseLayout(dir: string, options: ImportOptions = { dir }): Promise<Result<Recognised, ImportError>> {
  const xlDit = (XL_TURBO.graphs.dit?.files ?? []).map((f) => f.file);
  if (xlDit.some((file) => existsSync(join(dir, file)))) return recogniseXl(dir, options);
  const exporterDit = EXPORTER_2B.graphs.dit?.files[0]?.file ?? 'dit_decoder.onnx';
  if (existsSync(join(dir, EXPORT_MANIFEST_FILE)) && existsSync(join(dir, exporterDit))) return recogniseExporter(dir);
  return err(
    'MODEL_FILE_MISSING',
    `${dir} holds neither ${XL_TURBO.title} (${xlDit.join(' or ')} at the folder's root, npm run model:fetch -- acestep-1.5-xl-turbo downloads them) nor ${EXPORTER_2B.title} (${EXPORT_MANIFEST_FILE} and ${exporterDit})`,
  );
}

/** The precision of a graph whose layout does not fix it: fp16 when it takes or gives float16. */
function declaredPrecision(values: readonly SessionValue[]): Precision {
  return values.some((v) => v.type === 'float16') ? 'fp16' : 'fp32';
}

/** The widths as the graphs declare them (ACE-Step 1.5's where a graph leaves one undeclared). */
function readWidths(
  layout: KnownLayout,
  declared: ReadonlyMap<GraphRole, { inputs: readonly SessionValue[]; outputs: readonly SessionValue[] }>,
): { dims: Record<Width, number>; assumed: Width[] } {
  const dims = {} as Record<Width, number>;
  const assumed: Width[] = [];
  for (const width of WIDTHS) {
    const source = WIDTH_SOURCES[width];
    const name = layout.graphs[source.graph]?.[source.kind].find((t) => t.role === source.role)?.name;
    const value = declared.get(source.graph)?.[source.kind].find((v) => v.name === name)?.shape?.[source.axis];
    if (typeof value === 'number' && value > 0) dims[width] = value;
    else {
      dims[width] = ACE_STEP_15_WIDTHS[width];
      assumed.push(width);
    }
  }
  return { dims, assumed };
}

export async function importAcestep(options: ImportOptions): Promise<Result<Imported, ImportError>> {
  const dir = options.dir;
  const recognised = await recogniseLayout(dir, options);
  if (!recognised.ok) return recognised;
  const { layout, source } = recognised.value;
  const verified: string[] = [];
  const hashedOnly: string[] = [];
  const notes: string[] = [];

  /** A file present, checked against the hash its source records; its sha256. */
  const check = async (what: string, file: string): Promise<Result<string, ImportError>> => {
    const path = join(dir, file);
    if (!existsSync(path)) return err('MODEL_FILE_MISSING', `${what}: ${file} is missing from ${dir}`);
    const found = await fileHashes(path);
    const recorded = await recognised.value.recorded(file);
    if (recorded === undefined) hashedOnly.push(file);
    else {
      const [kind, expected, have] =
        'sha256' in recorded ? ['sha256', recorded.sha256, found.sha256] : ['git sha1', recorded.gitSha1, found.gitSha1];
      if (expected !== have)
        return err('MODEL_CHECKSUM_MISMATCH', `${what}: ${file} ${kind} expected ${expected} (${source}), found ${have}`);
      verified.push(file);
    }
    return ok(found.sha256);
  };

  // Every graph: present, byte for byte as its source hashed it, and of the layout's interface.
  const graphs: Partial<Record<GraphRole, ManifestGraph>> = {};
  const declared = new Map<GraphRole, { inputs: SessionValue[]; outputs: SessionValue[] }>();
  for (const role of GRAPH_ROLES) {
    const where = recognised.value.graphs[role];
    if (where === undefined) continue;
    const sha256 = await check(`graph ${role}`, where.file);
    if (!sha256.ok) return sha256;
    const externalData: { file: string; sha256: string }[] = [];
    for (const sidecar of where.externalData) {
      const hash = await check(`graph ${role} external data`, sidecar);
      if (!hash.ok) return hash;
      externalData.push({ file: sidecar, sha256: hash.value });
    }
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(join(dir, where.file), { executionProviders: ['cpu'] });
    } catch (e) {
      return err('MODEL_LAYOUT_INVALID', `graph ${role}: ${where.file} does not load: ${e instanceof Error ? e.message : String(e)}`);
    }
    const own = { inputs: sessionValues(session.inputMetadata), outputs: sessionValues(session.outputMetadata) };
    await session.release();
    const bound = bindGraph(layout, role, where.file, undefined, own.inputs, own.outputs);
    if (!bound.ok) return bound;
    declared.set(role, own);
    const precision = where.precision === 'declared' ? declaredPrecision([...own.inputs, ...own.outputs]) : where.precision;
    graphs[role] = { file: where.file, sha256: sha256.value, precision, external_data: externalData };
  }
  const { dims, assumed } = readWidths(layout, declared);

  // The checkpoint's files: the tokenizer (and its config), the silence latent.
  // A tokenizer named elsewhere (--tokenizer) is read there and copied in only once every check passed.
  const tokenizerFile = layout.tokenizer.file;
  const tokenizerSource = options.tokenizer === undefined ? join(dir, tokenizerFile) : resolve(options.tokenizer);
  if (!existsSync(tokenizerSource))
    return err('MODEL_FILE_MISSING', `no tokenizer at ${tokenizerSource} (Qwen3-Embedding-0.6B/tokenizer.json; --tokenizer names it)`);
  let tokenizerHash: string;
  if (options.tokenizer === undefined) {
    const hash = await check('tokenizer', tokenizerFile);
    if (!hash.ok) return hash;
    tokenizerHash = hash.value;
  } else tokenizerHash = (await fileHashes(tokenizerSource)).sha256;
  try {
    new Tokenizer(JSON.parse(await readFile(tokenizerSource, 'utf8')) as object, {});
  } catch (e) {
    return err('MODEL_LAYOUT_INVALID', `tokenizer ${tokenizerFile}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let tokenizerConfig: { file: string; sha256: string } | undefined;
  if (layout.tokenizer.config !== null) {
    const hash = await check('tokenizer config', layout.tokenizer.config);
    if (!hash.ok) return hash;
    try {
      JSON.parse(await readFile(join(dir, layout.tokenizer.config), 'utf8'));
    } catch (e) {
      return err('MODEL_LAYOUT_INVALID', `tokenizer config ${layout.tokenizer.config}: ${e instanceof Error ? e.message : String(e)}`);
    }
    tokenizerConfig = { file: layout.tokenizer.config, sha256: hash.value };
  }

  const ptPath = options.silenceLatent === undefined ? join(dir, layout.silenceLatent.file) : resolve(options.silenceLatent);
  if (!existsSync(ptPath))
    return err(
      'MODEL_FILE_MISSING',
      `no silence latent at ${ptPath} (the checkpoint's acestep-v15-turbo/silence_latent.pt; --silence-latent names it)`,
    );
  if (options.silenceLatent === undefined) {
    const hash = await check('silence latent', layout.silenceLatent.file);
    if (!hash.ok) return hash;
  }
  const tensor = readFloatTensor(await readFile(ptPath), PT_BUDGETS);
  if (!tensor.ok) return err('MODEL_PT_INVALID', `${basename(ptPath)}: ${tensor.error.message}`);
  const [batch, channels, frames] = tensor.value.shape;
  if (tensor.value.shape.length !== 3 || batch !== 1 || channels !== dims.latent_channels || frames === undefined)
    return err(
      'MODEL_PT_INVALID',
      `${basename(ptPath)}: shape [${tensor.value.shape.join(', ')}], expected [1, latent_channels=${dims.latent_channels}, frames]`,
    );
  // [1, C, frames] channels first in the checkpoint; [frames, C] raw here.
  const transposed = new Float32Array(frames * channels);
  for (let c = 0; c < channels; c += 1)
    for (let f = 0; f < frames; f += 1) transposed[f * channels + c] = tensor.value.data[c * frames + f] ?? 0;
  const silenceBytes = new Uint8Array(transposed.buffer);

  // Every file the XL files should be, against the pinned preset's sizes (a note: another revision may be fine).
  if (layout.id === 'xl-turbo') {
    const pinned = HUB_PRESETS['acestep-1.5-xl-turbo']?.repositories.flatMap((r) => Object.entries(r.files)) ?? [];
    const differ: string[] = [];
    for (const [path, size] of pinned) {
      if (!existsSync(join(dir, path))) continue;
      const have = (await stat(join(dir, path))).size;
      if (have !== size) differ.push(`${path} (${have} bytes, pinned ${size})`);
    }
    if (differ.length > 0)
      notes.push(
        `${differ.length} file(s) differ from the acestep-1.5-xl-turbo preset's pinned revisions: ${differ.slice(0, 3).join(', ')}${differ.length > 3 ? ', …' : ''}`,
      );
  }

  const filesOf = (licence: string): string[] => [
    ...GRAPH_ROLES.flatMap((role) =>
      layout.graphs[role]?.licence === licence ? [graphs[role]?.file, ...(graphs[role]?.external_data.map((e) => e.file) ?? [])] : [],
    ).filter((file): file is string => file !== undefined),
    ...(layout.tokenizer.licence === licence ? [tokenizerFile, ...(tokenizerConfig === undefined ? [] : [tokenizerConfig.file])] : []),
    ...(layout.silenceLatent.licence === licence ? [layout.silenceLatent.file, SILENCE_LATENT_BIN] : []),
  ];
  const licences: ManifestLicence[] = Object.entries(layout.licences).flatMap(([key, licence]) => {
    const files = filesOf(key);
    return files.length === 0 ? [] : [{ ...licence, files }];
  });
  const xl = layout.id === 'xl-turbo';
  const described = xl
    ? `ACE-Step 1.5 XL Turbo (DiT-only, ${recognised.value.quality === 'high' ? 'q8 high quality' : 'q4 standard quality'}), imported by npm run model:import from ${source}.`
    : `ACE-Step 1.5 turbo (DiT-only), imported by npm run model:import (the export generated ${recognised.value.generatedAt ?? 'at an unrecorded time'}).`;
  const parsed = ManifestSchema.safeParse({
    format: ACESTEP_MANIFEST_FORMAT,
    layout: layout.id,
    name: options.name ?? (xl ? 'ace-step-1.5-xl-turbo' : 'ace-step-1.5-turbo'),
    version: '1.5',
    description: described,
    sources: recognised.value.sources,
    ...(recognised.value.quality === undefined ? {} : { quality: recognised.value.quality }),
    licences,
    sample_rate: 48_000,
    channels: 2,
    samples_per_frame: 1920,
    frames_per_second: 25,
    patch_size: 2,
    dims,
    tokenizer: {
      file: tokenizerFile,
      sha256: tokenizerHash,
      ...(tokenizerConfig === undefined ? {} : { config: tokenizerConfig }),
      max_caption_tokens: 256,
      max_lyric_tokens: 2048,
    },
    silence_latent: {
      file: SILENCE_LATENT_BIN,
      sha256: createHash('sha256').update(silenceBytes).digest('hex'),
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
  // Every check passed: copy a tokenizer named elsewhere, write the converted latent and the record.
  if (resolve(tokenizerSource) !== resolve(join(dir, tokenizerFile))) {
    await mkdir(dirname(join(dir, tokenizerFile)), { recursive: true });
    await copyFile(tokenizerSource, join(dir, tokenizerFile));
  }
  await writeFile(join(dir, SILENCE_LATENT_BIN), silenceBytes);
  await writeFile(join(dir, ACESTEP_MANIFEST_FILE), `${JSON.stringify(parsed.data, null, 2)}\n`);
  return ok({ manifest: parsed.data, verified, source, hashedOnly, assumedWidths: assumed, notes });
}
