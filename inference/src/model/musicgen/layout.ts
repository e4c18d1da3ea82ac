/**
 * The public MusicGen ONNX export's directory layout (the one transformers.js runs, e.g.
 * `musicgen-small`): `config.json`, `generation_config.json`, `tokenizer.json` (+
 * `tokenizer_config.json`), and `onnx/text_encoder.onnx`, `onnx/decoder_model_merged.onnx`,
 * `onnx/encodec_decode.onnx`. Songmint adds one file the export lacks, `songmint.json`, naming
 * the model and its licence; without it the licence is read from the model card (README.md).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { DomainError, Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import { ModelLicence, licenceFromSpdx, modelCardLicence } from '../licence.ts';

export const MUSICGEN_CONFIG_FILE = 'config.json';
export const GENERATION_CONFIG_FILE = 'generation_config.json';
export const TOKENIZER_FILE = 'tokenizer.json';
export const TOKENIZER_CONFIG_FILE = 'tokenizer_config.json';
export const SONGMINT_FILE = 'songmint.json';
export const MODEL_CARD_FILE = 'README.md';
export const GRAPH_FILES = {
  textEncoder: join('onnx', 'text_encoder.onnx'),
  decoder: join('onnx', 'decoder_model_merged.onnx'),
  codec: join('onnx', 'encodec_decode.onnx'),
} as const;

const count = z.number().int().positive();

/** The parts of config.json the generation loop needs; everything else is ignored. */
const MusicgenConfig = z.object({
  model_type: z.literal('musicgen'),
  decoder: z.object({
    vocab_size: count,
    num_codebooks: count,
    num_hidden_layers: count,
    num_attention_heads: count,
    hidden_size: count,
    max_position_embeddings: count,
    pad_token_id: z.number().int().nonnegative().optional(),
    bos_token_id: z.number().int().nonnegative().optional(),
    audio_channels: z.literal(1, 'only mono MusicGen models are supported (musicgen-stereo interleaves two channels)').optional(),
  }),
  audio_encoder: z.object({
    sampling_rate: count,
    upsampling_ratios: z.array(count).min(1),
  }),
});

const GenerationConfig = z.object({
  decoder_start_token_id: z.number().int().nonnegative().optional(),
  pad_token_id: z.number().int().nonnegative().optional(),
  max_length: count.optional(),
  guidance_scale: z.number().min(1).max(20).optional(),
  temperature: z.number().positive().max(10).optional(),
  top_k: z.number().int().min(0).optional(),
});

const SongmintFile = z.object({
  format: z.literal('songmint-musicgen/1'),
  name: z.string().min(1).max(200),
  version: z.string().min(1).max(100),
  licence: ModelLicence,
});

/** Everything the backend needs to know about a MusicGen export, validated. */
export interface MusicgenSpec {
  dir: string;
  name: string;
  version: string;
  licence: ModelLicence;
  numCodebooks: number;
  /** Codes per codebook (2048 for musicgen-small); logits have this many entries. */
  codebookSize: number;
  /** The token that starts the sequence and fills the delay pattern's gaps. */
  bosTokenId: number;
  padTokenId: number;
  layers: number;
  heads: number;
  headDim: number;
  /** Decoder positions one window may use (sinusoidal positions beyond are not trained). */
  maxPositions: number;
  /** Codec frames per second (sampling_rate / product of upsampling ratios: 50 for MusicGen). */
  frameRate: number;
  /** Audio samples per codec frame. */
  samplesPerFrame: number;
  sampleRate: number;
  guidanceScale: number;
  temperature: number;
  topK: number;
  files: { textEncoder: string; decoder: string; codec: string; tokenizer: string; tokenizerConfig: string | undefined };
}

export type MusicgenLayoutError = DomainError<'MODEL_LAYOUT_INVALID' | 'MODEL_LICENCE_MISSING'>;
export type MusicgenSpecResult = Result<MusicgenSpec, MusicgenLayoutError>;

/** Reads and validates one JSON file of the export; a failure is a layout error naming the file. */
async function readJson<T>(path: string, schema: z.ZodType<T>): Promise<Result<T, MusicgenLayoutError>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    return fail({ code: 'MODEL_LAYOUT_INVALID', message: `${basename(path)}: ${err instanceof Error ? err.message : String(err)}` });
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? ok(parsed.data)
    : fail({ code: 'MODEL_LAYOUT_INVALID', message: `${basename(path)}: ${z.prettifyError(parsed.error)}` });
}

interface ModelIdentity {
  name: string;
  version: string;
  licence: ModelLicence;
}

async function readIdentity(dir: string): Promise<Result<ModelIdentity, MusicgenLayoutError>> {
  const songmintPath = join(dir, SONGMINT_FILE);
  if (existsSync(songmintPath)) {
    const read = await readJson(songmintPath, SongmintFile);
    if (!read.ok) return read;
    return ok({ name: read.value.name, version: read.value.version, licence: read.value.licence });
  }
  const cardPath = join(dir, MODEL_CARD_FILE);
  const spdx = existsSync(cardPath) ? modelCardLicence(await readFile(cardPath, 'utf8')) : undefined;
  const licence = spdx === undefined ? undefined : licenceFromSpdx(spdx);
  if (licence === undefined) {
    return fail({
      code: 'MODEL_LICENCE_MISSING',
      message:
        `${dir}: the model's licence is unknown${spdx === undefined ? '' : ` (model card says "${spdx}")`}: write ${SONGMINT_FILE} ` +
        `{"format":"songmint-musicgen/1","name":…,"version":…,"licence":{"spdx":…,"commercial_use":true|false}}`,
    });
  }
  return ok({ name: `musicgen:${basename(dir)}`, version: 'unversioned', licence });
}

export async function readMusicgenSpec(dir: string): Promise<MusicgenSpecResult> {
  const config = await readJson(join(dir, MUSICGEN_CONFIG_FILE), MusicgenConfig);
  if (!config.ok) return config;
  const generationPath = join(dir, GENERATION_CONFIG_FILE);
  const generation = existsSync(generationPath)
    ? await readJson(generationPath, GenerationConfig)
    : ok<z.infer<typeof GenerationConfig>>({});
  if (!generation.ok) return generation;
  const files = {
    textEncoder: join(dir, GRAPH_FILES.textEncoder),
    decoder: join(dir, GRAPH_FILES.decoder),
    codec: join(dir, GRAPH_FILES.codec),
    tokenizer: join(dir, TOKENIZER_FILE),
  };
  const missing = Object.values(files).filter((path) => !existsSync(path));
  if (missing.length > 0) return fail({ code: 'MODEL_LAYOUT_INVALID', message: `missing ${missing.join(', ')}` });
  const identity = await readIdentity(dir);
  if (!identity.ok) return identity;

  const { decoder, audio_encoder: codec } = config.value;
  const gen = generation.value;
  if (decoder.hidden_size % decoder.num_attention_heads !== 0) {
    return fail({ code: 'MODEL_LAYOUT_INVALID', message: 'decoder.hidden_size is not a multiple of num_attention_heads' });
  }
  const samplesPerFrame = codec.upsampling_ratios.reduce((a, b) => a * b, 1);
  if (codec.sampling_rate % samplesPerFrame !== 0) {
    return fail({
      code: 'MODEL_LAYOUT_INVALID',
      message: `sampling_rate ${codec.sampling_rate} is not a whole number of ${samplesPerFrame}-sample frames a second`,
    });
  }
  const maxPositions = Math.min(decoder.max_position_embeddings, gen.max_length ?? decoder.max_position_embeddings);
  if (maxPositions <= 4 * decoder.num_codebooks) {
    return fail({
      code: 'MODEL_LAYOUT_INVALID',
      message: `a window of ${maxPositions} positions leaves no room for ${decoder.num_codebooks} codebooks`,
    });
  }
  const tokenizerConfig = join(dir, TOKENIZER_CONFIG_FILE);
  return ok({
    dir,
    name: identity.value.name,
    version: identity.value.version,
    licence: identity.value.licence,
    numCodebooks: decoder.num_codebooks,
    codebookSize: decoder.vocab_size,
    bosTokenId: gen.decoder_start_token_id ?? decoder.bos_token_id ?? decoder.vocab_size,
    padTokenId: gen.pad_token_id ?? decoder.pad_token_id ?? decoder.vocab_size,
    layers: decoder.num_hidden_layers,
    heads: decoder.num_attention_heads,
    headDim: decoder.hidden_size / decoder.num_attention_heads,
    maxPositions,
    frameRate: codec.sampling_rate / samplesPerFrame,
    samplesPerFrame,
    sampleRate: codec.sampling_rate,
    // transformers' defaults where the generation config is silent.
    guidanceScale: gen.guidance_scale ?? 3,
    temperature: gen.temperature ?? 1,
    topK: gen.top_k ?? 50,
    files: { ...files, tokenizerConfig: existsSync(tokenizerConfig) ? tokenizerConfig : undefined },
  });
}
