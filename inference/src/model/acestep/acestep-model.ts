/**
 * The ACE-Step 1.5 backend (DiT-only mode): a directory with `songmint-acestep.json` as a song
 * model, run by the project's own loop over onnxruntime-node. Per song: the caption and lyric
 * texts in the model's templates, tokenized once; the caption through the Qwen3 embedding model,
 * the lyrics through its token table; the condition encoder once (one graph, or its three parts
 * with the reference's packing on the host, condition-packing.ts); seeded noise integrated by the
 * flow-matching Euler sampler (one DiT call per step, two with guidance; the latent padded to the
 * DiT's patch size); the VAE decoded in overlapping windows as the reference's `tiled_decode`;
 * the song divided by its peak when that exceeds 1, as the reference does (ace-step/ACE-Step-1.5,
 * acestep/handler.py). Edits from kept latents: repaint and extend as the reference's
 * inpainting/outpainting, remix as its cover (the 5 Hz FSQ round trip, optional graphs); uploaded
 * audio through the optional VAE encoder. One session per graph (five, or seven with a split
 * encoder, plus the optional ones present), created on the device the worker chose (CUDA, or CPU
 * as fallback). Each graph is fed exactly the inputs it declares, in the dtypes it declares
 * (validate.ts binds them to roles; fp16 graphs get and give float16, converted at the
 * boundary), after every file has matched its sha256.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import { resample } from '../../audio/resample.ts';
import type { Device, ExecutionProviders, SessionChoice } from '../device.ts';
import { createWithFallback, gpuPresent, providerPlan, systemGpuProbe } from '../device.ts';
import { seededRandom } from '../seed.ts';
import type { LoadModelOptions, PcmAudio } from '../runtime.ts';
import type { RenderedSong, SongEditRequest, SongModel, SongModelRequest } from '../song-model.ts';
import { EditUnsupportedError } from '../song-model.ts';
import type { EditSupport } from '../../../../core/src/song-edits.ts';
import { decodeKeptLatents, encodeKeptLatents } from '../kept-latents.ts';
import type { GraphName, TensorType } from './contract.ts';
import { FRAMES_PER_CODE, PATCH_SIZE, REMIX_GRAPHS } from './contract.ts';
import type { AcestepManifest } from './manifest.ts';
import { combinedLicence, manifestGraphs, readAcestepManifest, requestSteps } from './manifest.ts';
import { flowTimesteps, gaussianNoise, guidedVelocity, sampleFlow } from './flow-sampler.ts';
import { COVER_INSTRUCTION, DEFAULT_DIT_INSTRUCTION, REPAINT_INSTRUCTION, captionText, lyricText, promptMetadata } from './prompt.ts';
import { contextLatents, packCondition } from './condition-packing.ts';
import { fromFloat16, toFloat16 } from './float16.ts';
import type { GraphIo, SessionValue } from './validate.ts';
import { bindGraph, checkCodeWidth, checkIoContract, validateFiles } from './validate.ts';

/** The MP3 encoder's rate; the VAE's 48 kHz is one, so the resampler passes it through. */
export const ACESTEP_OUTPUT_RATE = 48_000;

/** Shares of the render's progress: text and condition encoders, the diffusion steps, the VAE. */
export const PROGRESS_ENCODED = 0.08;
export const PROGRESS_SAMPLED = 0.9;

export interface AcestepLoadError {
  code: string;
  message: string;
}

const defaultCreateSession = (modelPath: string, providers: ExecutionProviders): Promise<ort.InferenceSession> =>
  ort.InferenceSession.create(modelPath, { executionProviders: [...providers], graphOptimizationLevel: 'all' });

function sessionValues(metadata: readonly ort.InferenceSession.ValueMetadata[]): SessionValue[] {
  return metadata.map((m) =>
    m.isTensor ? { name: m.name, type: m.type, shape: m.shape } : { name: m.name, type: undefined, shape: undefined },
  );
}

/** A 0/1 mask in whichever dtype the graph takes it. */
function maskTensor(type: TensorType, values: ArrayLike<number>, dims: readonly number[]): ort.Tensor {
  if (type === 'float16') return new ort.Tensor('float16', toFloat16(Array.from(values, (x) => (x === 0 ? 0 : 1))), dims);
  if (type === 'int64') return new ort.Tensor('int64', BigInt64Array.from(Array.from(values, (x) => BigInt(x === 0 ? 0 : 1))), dims);
  if (type === 'bool') return new ort.Tensor('bool', Uint8Array.from(Array.from(values, (x) => (x === 0 ? 0 : 1))), dims);
  return new ort.Tensor(
    'float32',
    Float32Array.from(values, (x) => (x === 0 ? 0 : 1)),
    dims,
  );
}

/** A mask output (float, int64 or bool) as 0/1 numbers. */
function maskValues(tensor: ort.Tensor): number[] {
  return Array.from(tensor.data as ArrayLike<number | bigint | boolean>, (x) => (Number(x) === 0 ? 0 : 1));
}

/** A 0/1 mask as the graph declares it: `{mask}` in a feed becomes float32, int64 or bool. */
interface MaskValue {
  mask: ArrayLike<number>;
  dims: readonly number[];
}
type FeedValue = ort.Tensor | MaskValue;

/** A float32 value as an fp16 graph declares it (the backend computes in float32; outputs come back the same way). */
function atBoundary(value: ort.Tensor, type: TensorType): ort.Tensor {
  if (type === 'float16' && value.type === 'float32') return new ort.Tensor('float16', toFloat16(value.data as Float32Array), value.dims);
  return value;
}

/** One graph: its session and its own inputs and outputs bound to roles. */
class BoundGraph {
  constructor(
    readonly graph: GraphName,
    readonly session: ort.InferenceSession,
    private readonly io: GraphIo,
  ) {}

  /** Runs the graph on exactly the inputs it declares; returns its outputs by role. */
  async run(values: Readonly<Record<string, FeedValue>>): Promise<Map<string, ort.Tensor>> {
    const feeds: Record<string, ort.Tensor> = {};
    for (const [role, bound] of this.io.inputs) {
      const value = values[role];
      if (value === undefined) throw new Error(`graph ${this.graph} takes ${bound.name} (${role}), which the backend did not provide`);
      feeds[bound.name] = 'mask' in value ? maskTensor(bound.type, value.mask, value.dims) : atBoundary(value, bound.type);
    }
    const names = [...this.io.outputs.values()].map((b) => b.name);
    const out = await this.session.run(feeds, names);
    const byRole = new Map<string, ort.Tensor>();
    for (const [role, bound] of this.io.outputs) {
      const tensor = out[bound.name];
      if (tensor === undefined) throw new Error(`graph ${this.graph} returned no ${bound.name}`);
      byRole.set(
        role,
        tensor.type === 'float16' ? new ort.Tensor('float32', fromFloat16(tensor.data as Uint16Array), tensor.dims) : tensor,
      );
    }
    return byRole;
  }
}

function floatOutput(outputs: ReadonlyMap<string, ort.Tensor>, role: string, graph: GraphName): ort.Tensor {
  const tensor = outputs.get(role);
  if (tensor === undefined || tensor.type !== 'float32') throw new Error(`${graph} returned no float32 ${role}`);
  return tensor;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** The first `frames` frames of the silence latent, repeated when the song is longer than it. */
function silenceFrames(silence: Float32Array, silenceFramesCount: number, channels: number, frames: number): Float32Array {
  const out = new Float32Array(frames * channels);
  for (let f = 0; f < frames; f += 1)
    out.set(silence.subarray((f % silenceFramesCount) * channels, ((f % silenceFramesCount) + 1) * channels), f * channels);
  return out;
}

/** `[frames, channels]` padded with zero frames to `padded` frames. */
function padFrames(values: Float32Array, frames: number, padded: number, channels: number): Float32Array {
  if (padded === frames) return values;
  const out = new Float32Array(padded * channels);
  out.set(values.subarray(0, frames * channels));
  return out;
}

/**
 * Anti-clipping as the reference: a song whose peak exceeds 1 is divided by its peak (over both
 * channels); a quieter one is left as it is.
 */
export function normalisePeak(channels: Float32Array[]): Float32Array[] {
  let peak = 0;
  for (const channel of channels) for (const x of channel) peak = Math.max(peak, Math.abs(x));
  if (peak <= 1) return channels;
  return channels.map((channel) => channel.map((x) => x / peak));
}

/** The condition encoder: one graph, or its three parts with the packing on the host. */
type ConditionGraphs = { combined: BoundGraph } | { textProjector: BoundGraph; lyricEncoder: BoundGraph; timbreEncoder: BoundGraph };

interface Sessions {
  embed: BoundGraph;
  tokens: BoundGraph;
  condition: ConditionGraphs;
  dit: BoundGraph;
  vae: BoundGraph;
  /** The 5 Hz FSQ round trip remix needs; absent when the directory lacks either graph. */
  codes: { tokenizer: BoundGraph; detokenizer: BoundGraph } | undefined;
  /** Null with both FSQ graphs; else what remix lacks. */
  remixLack: string | null;
  /** AutoencoderOobleck's encoder, for uploaded audio; absent when the directory has none. */
  vaeEncoder: BoundGraph | undefined;
}

interface LoadedParts {
  manifest: AcestepManifest;
  tokenizer: Tokenizer;
  silence: Float32Array;
  nullCondition: Float32Array | undefined;
}

async function readParts(dir: string): Promise<Result<LoadedParts, AcestepLoadError>> {
  const read = await readAcestepManifest(dir);
  if (!read.ok) return read;
  const manifest = read.value;
  const valid = await validateFiles(dir, manifest);
  if (!valid.ok) return valid;
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(JSON.parse(await readFile(join(dir, manifest.tokenizer.file), 'utf8')) as object, {});
  } catch (err) {
    return fail({
      code: 'MODEL_LAYOUT_INVALID',
      message: `tokenizer ${manifest.tokenizer.file}: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  const floats = async (file: string): Promise<Float32Array> => {
    const bytes = await readFile(join(dir, file));
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  };
  const silence = await floats(manifest.silence_latent.file);
  const nullCondition = manifest.schedule.null_condition === undefined ? undefined : await floats(manifest.schedule.null_condition.file);
  return ok({ manifest, tokenizer, silence, nullCondition });
}

export async function loadAcestepModel(options: LoadModelOptions): Promise<Result<SongModel, AcestepLoadError>> {
  const parts = await readParts(options.modelDir);
  if (!parts.ok) return parts;
  const { manifest, tokenizer, silence, nullCondition } = parts.value;
  const plan = providerPlan(options.device, gpuPresent(options.probe ?? systemGpuProbe));
  const create = options.createSession ?? defaultCreateSession;
  const opened: SessionChoice<ort.InferenceSession>[] = [];
  const releaseAll = () => Promise.all(opened.map((c) => c.session.release()));
  const byGraph = new Map<GraphName, { choice: SessionChoice<ort.InferenceSession>; bound: BoundGraph }>();
  const declared = new Map<GraphName, { inputs: SessionValue[]; outputs: SessionValue[] }>();
  for (const { graph, entry } of manifestGraphs(manifest)) {
    let choice: SessionChoice<ort.InferenceSession>;
    try {
      choice = await createWithFallback(plan, (providers) => create(join(options.modelDir, entry.file), providers));
    } catch (err) {
      await releaseAll();
      return fail({ code: 'MODEL_LOAD_FAILED', message: `graph ${graph}: ${err instanceof Error ? err.message : String(err)}` });
    }
    opened.push(choice);
    const own = { inputs: sessionValues(choice.session.inputMetadata), outputs: sessionValues(choice.session.outputMetadata) };
    declared.set(graph, own);
    const io = bindGraph(graph, manifest.dims, own.inputs, own.outputs);
    if (!io.ok) {
      await releaseAll();
      return io;
    }
    byGraph.set(graph, { choice, bound: new BoundGraph(graph, choice.session, io.value) });
  }
  const contract = await checkIoContract(options.modelDir, declared);
  const checked = contract.ok ? checkCodeWidth(declared) : contract;
  if (!checked.ok) {
    await releaseAll();
    return checked;
  }
  const session = (graph: GraphName): BoundGraph => {
    const entry = byGraph.get(graph);
    if (entry === undefined) throw new Error(`no session for ${graph}`);
    return entry.bound;
  };
  const sessions: Sessions = {
    embed: session('qwen3_embedding_0p6'),
    tokens: session('qwen3_token_embeddings'),
    condition: byGraph.has('condition_encoder')
      ? { combined: session('condition_encoder') }
      : { textProjector: session('text_projector'), lyricEncoder: session('lyric_encoder'), timbreEncoder: session('timbre_encoder') },
    dit: session('dit_decoder'),
    vae: session('vae_decoder'),
    codes: remixLack(byGraph) === null ? { tokenizer: session('audio_tokenizer'), detokenizer: session('audio_detokenizer') } : undefined,
    remixLack: remixLack(byGraph),
    vaeEncoder: byGraph.get('vae_encoder')?.bound,
  };
  const editSupport: EditSupport = { extend: null, repaint: null, remix: sessions.remixLack };
  // The DiT runs N times per song: its device is the model's.
  const dit = byGraph.get('dit_decoder');
  const device: Device = dit?.choice.device ?? 'cpu';
  const fallbackReason = opened.map((c) => c.fallbackReason).find((r) => r !== undefined);
  const renderer = new AcestepRenderer(manifest, sessions, tokenizer, silence, nullCondition);
  return ok({
    format: 'acestep-onnx',
    name: manifest.name,
    version: manifest.version,
    licence: combinedLicence(manifest),
    device,
    fallbackReason,
    steps: requestSteps(manifest),
    sampleRate: ACESTEP_OUTPUT_RATE,
    // ACE-Step conditions on the lyrics' tokens and sings them.
    sings: true,
    render: (request, signal, progress) => renderer.render(request, signal, progress),
    editSupport,
    edit: (request, signal, progress) => renderer.edit(request, signal, progress),
    importSupport: sessions.vaeEncoder === undefined ? ACESTEP_IMPORT_LACK : null,
    importAudio: (pcm, signal) => renderer.importAudio(pcm, signal),
    release: async () => {
      await releaseAll();
    },
  });
}

interface Condition {
  hidden: ort.Tensor;
  mask: number[];
  context: Float32Array;
  captionTokens: number;
  lyricTokens: number;
}

class AcestepRenderer {
  private readonly C: number;
  private readonly Cc: number;

  constructor(
    private readonly manifest: AcestepManifest,
    private readonly sessions: Sessions,
    private readonly tokenizer: Tokenizer,
    private readonly silence: Float32Array,
    private readonly nullCondition: Float32Array | undefined,
  ) {
    this.C = manifest.dims.latent_channels;
    this.Cc = manifest.dims.context_channels;
  }

  private tokenize(text: string, max: number): number[] {
    const ids = this.tokenizer.encode(text).ids.slice(0, max);
    if (ids.length === 0) throw new Error('the tokenizer produced no tokens');
    return ids;
  }

  private async encode(request: SongModelRequest, frames: number, edit?: EditContext): Promise<Condition> {
    const m = this.manifest;
    const { C } = this;
    const cover = edit?.lmHints;
    const caption = this.tokenize(
      captionText(
        request.prompt,
        promptMetadata(request.prompt, request.durationSeconds),
        // Each task under the reference's own instruction (`generate_instruction`).
        edit === undefined ? DEFAULT_DIT_INSTRUCTION : cover === undefined ? REPAINT_INSTRUCTION : COVER_INSTRUCTION,
      ),
      m.tokenizer.max_caption_tokens,
    );
    const lyrics = this.tokenize(lyricText(request.lyrics), m.tokenizer.max_lyric_tokens);
    const ids = (list: number[]) =>
      new ort.Tensor(
        'int64',
        BigInt64Array.from(list, (id) => BigInt(id)),
        [1, list.length],
      );

    const ones = (n: number): MaskValue => ({ mask: new Array<number>(n).fill(1), dims: [1, n] });
    const embedded = await this.sessions.embed.run({ input_ids: ids(caption), attention_mask: ones(caption.length) });
    const text = floatOutput(embedded, 'last_hidden_state', 'qwen3_embedding_0p6');
    const lyricOut = await this.sessions.tokens.run({ input_ids: ids(lyrics) });
    const lyric = floatOutput(lyricOut, 'token_embeddings', 'qwen3_token_embeddings');

    // Plain text-to-music: the source is the checkpoint's silence, the timbre reference its first
    // timbre_frames frames, every frame to be generated (chunk mask 1), no cover, no LM hints.
    // The graph takes whichever of these it declares (an export drops the ones it never reads).
    // An edit (repaint, extend) passes the source's latents with its range silenced, and a chunk
    // mask of 1 over the range only: the reference's context for "outpainting" and "inpainting".
    // A remix (the reference's cover) passes the source whole, chunk mask 1, `is_covers` and the
    // source's 5 Hz round trip as the LM hints, which the encoder puts in the context instead.
    const source = edit?.source ?? silenceFrames(this.silence, m.silence_latent.shape[0], C, frames);
    const reference = this.silence.subarray(0, m.dims.timbre_frames * C);
    const latent = (values: Float32Array) => new ort.Tensor('float32', values, [1, frames, C]);
    const chunkMask = edit?.chunkMask ?? new Float32Array(frames * C).fill(1);
    const referencePacked = new ort.Tensor('float32', Float32Array.from(reference), [1, m.dims.timbre_frames, C]);
    const referenceOrder = new ort.Tensor('int64', BigInt64Array.from([0n]), [1]);
    const graphs = this.sessions.condition;
    if (!('combined' in graphs)) {
      // The split encoder: each part on its own, then the reference's packing and context on the host.
      const H = m.dims.encoder_hidden;
      const projected = floatOutput(await graphs.textProjector.run({ text_hidden_states: text }), 'text_states', 'text_projector');
      const encoded = floatOutput(
        await graphs.lyricEncoder.run({ inputs_embeds: lyric, attention_mask: ones(lyrics.length) }),
        'last_hidden_state',
        'lyric_encoder',
      );
      const timbreOut = await graphs.timbreEncoder.run({
        refer_audio_acoustic_hidden_states_packed: referencePacked,
        refer_audio_order_mask: referenceOrder,
      });
      const timbre = floatOutput(timbreOut, 'timbre_embs_unpack', 'timbre_encoder');
      const timbreTokens = timbre.dims[1] ?? 0;
      const timbreMask = timbreOut.get('timbre_embs_mask');
      const part = (tensor: ort.Tensor, graph: string, mask: number[]) => {
        if (tensor.dims.length !== 3 || tensor.dims[0] !== 1 || tensor.dims[2] !== H)
          throw new Error(`${graph} returned [${tensor.dims.join(', ')}], expected [1, tokens, ${H}]`);
        return { states: tensor.data as Float32Array, mask: Uint8Array.from(mask), batch: 1, tokens: tensor.dims[1] ?? 0, width: H };
      };
      const packed = packCondition({
        lyric: part(encoded, 'lyric_encoder', new Array<number>(lyrics.length).fill(1)),
        timbre: part(timbre, 'timbre_encoder', timbreMask === undefined ? new Array<number>(timbreTokens).fill(1) : maskValues(timbreMask)),
        text: part(projected, 'text_projector', new Array<number>(caption.length).fill(1)),
      });
      return {
        hidden: new ort.Tensor('float32', packed.states, [1, packed.tokens, H]),
        mask: Array.from(packed.mask),
        context: contextLatents(cover ?? source, chunkMask, frames, C),
        captionTokens: caption.length,
        lyricTokens: lyrics.length,
      };
    }
    const out = await graphs.combined.run({
      text_hidden_states: text,
      text_attention_mask: ones(caption.length),
      lyric_hidden_states: lyric,
      lyric_attention_mask: ones(lyrics.length),
      refer_audio_acoustic_hidden_states_packed: referencePacked,
      refer_audio_order_mask: referenceOrder,
      hidden_states: latent(source),
      attention_mask: ones(frames),
      silence_latent: latent(silenceFrames(this.silence, m.silence_latent.shape[0], C, frames)),
      src_latents: latent(source),
      chunk_masks: latent(chunkMask),
      is_covers: new ort.Tensor('bool', Uint8Array.from([cover === undefined ? 0 : 1]), [1]),
      precomputed_lm_hints_25hz: latent(cover ?? source),
    });
    const hidden = floatOutput(out, 'encoder_hidden_states', 'condition_encoder');
    const maskOut = out.get('encoder_attention_mask');
    if (maskOut === undefined) throw new Error('condition_encoder returned no encoder_attention_mask');
    const context = floatOutput(out, 'context_latents', 'condition_encoder');
    if (context.dims[1] !== frames || context.dims[2] !== this.Cc)
      throw new Error(`condition_encoder context_latents is [${context.dims.join(', ')}], expected [1, ${frames}, ${this.Cc}]`);
    return {
      hidden,
      mask: maskValues(maskOut),
      context: context.data as Float32Array,
      captionTokens: caption.length,
      lyricTokens: lyrics.length,
    };
  }

  /** The unconditioned encoder states: the learned null condition repeated over the condition's tokens. */
  private nullStates(like: ort.Tensor): ort.Tensor {
    const nullCondition = this.nullCondition;
    const rows = this.manifest.schedule.null_condition?.shape[0];
    if (nullCondition === undefined || rows === undefined) throw new Error('guidance needs the null condition');
    const tokens = Number(like.dims[1]);
    const width = this.manifest.dims.encoder_hidden;
    const out = new Float32Array(tokens * width);
    for (let s = 0; s < tokens; s += 1) out.set(nullCondition.subarray((s % rows) * width, ((s % rows) + 1) * width), s * width);
    return new ort.Tensor('float32', out, like.dims);
  }

  private async velocity(
    x: Float32Array,
    t: number,
    frames: number,
    padded: number,
    condition: Condition,
    states: ort.Tensor,
  ): Promise<Float32Array> {
    const { C } = this;
    const mask = new Array<number>(padded).fill(0).fill(1, 0, frames);
    const out = await this.sessions.dit.run({
      hidden_states: new ort.Tensor('float32', padFrames(x, frames, padded, C), [1, padded, C]),
      timestep: new ort.Tensor('float32', Float32Array.from([t]), [1]),
      timestep_r: new ort.Tensor('float32', Float32Array.from([t]), [1]),
      attention_mask: { mask, dims: [1, padded] },
      encoder_hidden_states: states,
      encoder_attention_mask: { mask: condition.mask, dims: [1, condition.mask.length] },
      context_latents: new ort.Tensor('float32', padFrames(condition.context, frames, padded, this.Cc), [1, padded, this.Cc]),
    });
    const vt = floatOutput(out, 'vt', 'dit_decoder');
    if (vt.dims[1] !== padded || vt.dims[2] !== C)
      throw new Error(`dit_decoder vt is [${vt.dims.join(', ')}], expected [1, ${padded}, ${C}]`);
    // Batch 1, frames-major: the first `frames` frames are the song, the rest the patch padding.
    return (vt.data as Float32Array).slice(0, frames * C);
  }

  /**
   * The VAE as the reference's `tiled_decode`: one call when the song fits a window, otherwise
   * windows of `vae_chunk_frames` frames stepping by their core (`vae_chunk_frames - 2 x
   * vae_overlap_frames`), each core kept and the overlap each side decoded as context and dropped.
   */
  private async decode(
    latent: Float32Array,
    frames: number,
    signal: AbortSignal,
    progress: (fraction: number) => void,
  ): Promise<Float32Array[]> {
    const m = this.manifest;
    const { C } = this;
    const spf = m.samples_per_frame;
    const channels = [new Float32Array(frames * spf), new Float32Array(frames * spf)];
    for (const { from, to, start, end } of vaeWindows(frames, m.vae_chunk_frames, m.vae_overlap_frames)) {
      if (signal.aborted) throw abortError(signal);
      const width = to - from;
      // [frames, C] -> [1, C, width]
      const input = new Float32Array(C * width);
      for (let f = 0; f < width; f += 1) for (let c = 0; c < C; c += 1) input[c * width + f] = latent[(from + f) * C + c] ?? 0;
      const out = await this.sessions.vae.run({ latents: new ort.Tensor('float32', input, [1, C, width]) });
      const wave = floatOutput(out, 'audio', 'vae_decoder');
      if (wave.dims.length !== 3 || wave.dims[1] !== 2 || wave.dims[2] !== width * spf) {
        throw new Error(`vae_decoder audio is [${wave.dims.join(', ')}], expected [1, 2, ${width * spf}]`);
      }
      const data = wave.data as Float32Array;
      const skip = (start - from) * spf;
      const take = (end - start) * spf;
      for (const [ch, target] of channels.entries())
        target.set(data.subarray(ch * width * spf + skip, ch * width * spf + skip + take), start * spf);
      progress(end / frames);
    }
    return channels;
  }

  /** Samples `frames` latent frames from the job's seed; an edit conditions on its source and re-injects its kept frames. */
  private async sample(
    request: SongModelRequest,
    frames: number,
    signal: AbortSignal,
    progress: ((fraction: number) => void) | undefined,
    edit?: EditContext,
  ): Promise<{ latent: Float32Array; condition: Condition; diffusionSteps: number }> {
    const m = this.manifest;
    const diffusionSteps = m.schedule.steps_for_request[String(request.steps)];
    if (diffusionSteps === undefined) throw new Error(`model ${m.name} maps no diffusion schedule to steps ${request.steps}`);
    const padded = Math.ceil(frames / PATCH_SIZE) * PATCH_SIZE;
    if (signal.aborted) throw abortError(signal);
    const condition = await this.encode(request, frames, edit);
    // A remix runs the cover condition for `audio_cover_strength` of the steps, then the plain
    // text-to-music one (the reference's non-cover condition: default instruction, silence source).
    const coverSteps = edit?.coverStrength === undefined ? diffusionSteps : Math.floor(diffusionSteps * edit.coverStrength);
    const plain = coverSteps < diffusionSteps ? await this.encode(request, frames) : condition;
    progress?.(PROGRESS_ENCODED);
    const guided = m.schedule.guidance_scale > 1;
    const noise = gaussianNoise(frames * this.C, seededRandom(request.seed, 'acestep-noise'));
    const injectSteps = Math.floor(diffusionSteps * REPAINT_INJECTION_RATIO);
    const latent = await sampleFlow(noise, {
      timesteps: flowTimesteps(diffusionSteps, m.schedule.shift),
      signal,
      velocity: async (x, t, step) => {
        const active = step < coverSteps ? condition : plain;
        const cond = await this.velocity(x, t, frames, padded, active, active.hidden);
        if (!guided) return cond;
        const unconditioned = await this.velocity(x, t, frames, padded, active, this.nullStates(active.hidden));
        return guidedVelocity(cond, unconditioned, m.schedule.guidance_scale);
      },
      // The reference's repaint injection: for the first half of the steps the kept frames are put
      // back on the path from this noise to the clean source (x_t = t noise + (1 - t) source).
      ...(edit?.kept === undefined || edit.generate === undefined
        ? {}
        : {
            adjust: (x: Float32Array, t: number, step: number) => {
              const { kept, generate } = edit;
              if (step >= injectSteps || kept === undefined || generate === undefined) return;
              for (let f = 0; f < frames; f += 1) {
                if (generate[f] === 1 || f >= kept.length / this.C) continue;
                for (let c = 0; c < this.C; c += 1) {
                  const k = f * this.C + c;
                  x[k] = t * (noise[k] ?? 0) + (1 - t) * (kept[k] ?? 0);
                }
              }
            },
          }),
      onStep: (done, total) => progress?.(PROGRESS_ENCODED + ((PROGRESS_SAMPLED - PROGRESS_ENCODED) * done) / total),
    });
    return { latent, condition, diffusionSteps };
  }

  private rendered(
    request: SongModelRequest,
    latent: Float32Array,
    frames: number,
    audio: Float32Array[],
    gain: number,
    sampled: { condition: Condition; diffusionSteps: number },
  ): RenderedSong {
    const m = this.manifest;
    const meta = promptMetadata(request.prompt, request.durationSeconds);
    const scaled = audio.map((channel) => channel.map((x) => Math.max(-1, Math.min(1, x * gain))));
    return {
      pcm: { sampleRate: ACESTEP_OUTPUT_RATE, channels: scaled.map((channel) => resample(channel, m.sample_rate, ACESTEP_OUTPUT_RATE)) },
      conditioning: {
        caption_tokens: sampled.condition.captionTokens,
        lyric_tokens: sampled.condition.lyricTokens,
        latent_frames: frames,
        diffusion_steps: sampled.diffusionSteps,
        shift: m.schedule.shift,
        guidance_scale: m.schedule.guidance_scale,
        bpm: meta.bpm ?? 'N/A',
        keyscale: meta.keyscale ?? 'N/A',
      },
      matchedWords: [],
      tokens: 0,
      kept: this.kept(latent, frames, { gain }),
    };
  }

  /** The kept-latents object of `frames` latent frames: what `edit` starts from. */
  private kept(latent: Float32Array, frames: number, extra: Record<string, unknown>): Uint8Array {
    const m = this.manifest;
    return encodeKeptLatents(
      {
        model: { name: m.name, version: m.version },
        dtype: 'float32',
        shape: [frames, this.C],
        extra: { framesPerSecond: m.frames_per_second, ...extra },
      },
      latent,
    );
  }

  /**
   * Uploaded audio as a source for `edit`, as the reference prepares `src_audio`
   * (`_normalize_audio_to_stereo_48k`, then `tiled_encode`): mono doubled to stereo (a third
   * channel and beyond dropped), resampled to 48 kHz, clamped to [-1, 1], padded with silence to
   * whole latent frames, and encoded in the VAE decoder's windows (`vae_chunk_frames`, the
   * overlap each side encoded as context and dropped) to the latent distribution's mean (the
   * reference samples it; the mean makes the same upload the same source). The kept object is the
   * one `render` keeps, without a gain: an edit of it normalises its own peak as the reference does.
   */
  async importAudio(pcm: PcmAudio, signal: AbortSignal): Promise<Uint8Array> {
    const m = this.manifest;
    const { C } = this;
    const encoder = this.sessions.vaeEncoder;
    if (encoder === undefined) throw new EditUnsupportedError(ACESTEP_IMPORT_LACK);
    const [first, second] = pcm.channels;
    if (first === undefined || first.length === 0) throw new EditUnsupportedError('the uploaded audio holds no samples');
    if (!(pcm.sampleRate > 0)) throw new EditUnsupportedError(`the uploaded audio's sample rate ${pcm.sampleRate} is not a rate`);
    const spf = m.samples_per_frame;
    const stereo = [first, second ?? first].map((channel) => resample(channel, pcm.sampleRate, m.sample_rate));
    const frames = Math.ceil((stereo[0]?.length ?? 0) / spf);
    const padded = stereo.map((channel) => {
      const out = new Float32Array(frames * spf);
      for (let i = 0; i < channel.length; i += 1) out[i] = Math.max(-1, Math.min(1, channel[i] ?? 0));
      return out;
    });
    const latent = new Float32Array(frames * C);
    for (const window of vaeWindows(frames, m.vae_chunk_frames, m.vae_overlap_frames)) {
      if (signal.aborted) throw abortError(signal);
      const { from, to, start, end } = window;
      const width = to - from;
      const input = new Float32Array(2 * width * spf);
      for (const [ch, channel] of padded.entries()) input.set(channel.subarray(from * spf, to * spf), ch * width * spf);
      const out = await encoder.run({ audio: new ort.Tensor('float32', input, [1, 2, width * spf]) });
      const mean = floatOutput(out, 'latents', 'vae_encoder');
      if (mean.dims.length !== 3 || mean.dims[1] !== C || mean.dims[2] !== width)
        throw new Error(`vae_encoder latents is [${mean.dims.join(', ')}], expected [1, ${C}, ${width}]`);
      const data = mean.data as Float32Array;
      // [1, C, width] -> the kept [frames, C], the window's core only.
      for (let f = start; f < end; f += 1) for (let c = 0; c < C; c += 1) latent[f * C + c] = data[c * width + (f - from)] ?? 0;
    }
    return this.kept(latent, frames, { imported: true });
  }

  async render(request: SongModelRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong> {
    const frames = request.durationSeconds * this.manifest.frames_per_second;
    const sampled = await this.sample(request, frames, signal, progress);
    const audio = await this.decode(sampled.latent, frames, signal, (fraction) =>
      progress?.(PROGRESS_SAMPLED + (1 - PROGRESS_SAMPLED) * fraction),
    );
    // Anti-clipping as the reference (normalisePeak), kept as a gain so an edit plays its kept frames at the same level.
    const gain = peakGain(audio);
    return this.rendered(request, sampled.latent, frames, audio, gain, sampled);
  }

  /**
   * Repaint and extend as the reference: the source's latents with the edited frames replaced
   * by silence, a chunk mask of 1 over them, the kept frames re-injected for the first half of
   * the steps; afterwards the kept frames are the source's and `EDGE_BLEND_FRAMES` frames at each
   * edge blend the two. The source's gain keeps the kept frames at their level.
   */
  async edit(request: SongEditRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong> {
    const m = this.manifest;
    const { C } = this;
    const decoded = decodeKeptLatents(request.sourceKept);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const source = decoded.value;
    if (source.header.model.name !== m.name || !(source.data instanceof Float32Array) || source.header.shape[1] !== C) {
      throw new EditUnsupportedError(
        `the source song was made by ${source.header.model.name}@${source.header.model.version}; this worker runs ${m.name}@${m.version}`,
      );
    }
    const sourceFrames = source.header.shape[0] ?? 0;
    const frames = request.durationSeconds * m.frames_per_second;
    if (request.edit.task === 'remix') return this.remix(request, request.edit.strength, source.data, sourceFrames, signal, progress);
    const fps = m.frames_per_second;
    const [from, to] =
      request.edit.task === 'extend'
        ? [sourceFrames, frames]
        : [Math.round(request.edit.start * fps), Math.min(frames, Math.round(request.edit.end * fps))];
    if (request.edit.task === 'extend' ? frames <= sourceFrames : frames !== sourceFrames) {
      throw new EditUnsupportedError(`the result's ${frames} frames do not fit a ${request.edit.task} of ${sourceFrames} frames`);
    }
    const generate = new Uint8Array(frames);
    generate.fill(1, from, to);
    const silence = silenceFrames(this.silence, m.silence_latent.shape[0], C, frames);
    const context = Float32Array.from(silence);
    const chunkMask = new Float32Array(frames * C);
    for (let f = 0; f < frames; f += 1) {
      if (generate[f] === 1) chunkMask.fill(1, f * C, (f + 1) * C);
      else if (f < sourceFrames) context.set(source.data.subarray(f * C, (f + 1) * C), f * C);
    }
    const edit: EditContext = { source: context, chunkMask, kept: source.data, generate, lmHints: undefined, coverStrength: undefined };
    const sampled = await this.sample(request, frames, signal, progress, edit);
    const latent = sampled.latent;
    for (let f = 0; f < Math.min(frames, sourceFrames); f += 1) {
      // Kept frames are the source's; frames near an edge blend toward it (a crossfade in latents).
      const distance = generate[f] === 1 ? Math.min(f - from + 1, to < sourceFrames ? to - f : Number.POSITIVE_INFINITY) : 0;
      const w =
        request.edit.task === 'extend' && f >= from - EDGE_BLEND_FRAMES
          ? (from - f) / (EDGE_BLEND_FRAMES + 1)
          : distance >= EDGE_BLEND_FRAMES + 1
            ? 0
            : 1 - distance / (EDGE_BLEND_FRAMES + 1);
      if (w <= 0) continue;
      for (let c = 0; c < C; c += 1) {
        const k = f * C + c;
        latent[k] = w * (source.data[k] ?? 0) + (1 - w) * (latent[k] ?? 0);
      }
    }
    const audio = await this.decode(latent, frames, signal, (fraction) => progress?.(PROGRESS_SAMPLED + (1 - PROGRESS_SAMPLED) * fraction));
    const gain = typeof source.header.extra.gain === 'number' ? source.header.extra.gain : peakGain(audio);
    return this.rendered(request, latent, frames, audio, gain, sampled);
  }

  /**
   * Remix as the reference's cover (`is_covers`): the source's latents through the 5 Hz FSQ round
   * trip (audio_tokenizer, audio_detokenizer) become the context, every frame is generated (chunk
   * mask 1) from the job's seed, and after `strength` of the steps the condition switches to the
   * plain text-to-music one. What survives is what the codes hold, melody and structure, not the
   * exact sound; the result is as long as the source and gets its own anti-clipping gain.
   */
  private async remix(
    request: SongEditRequest,
    strength: number,
    sourceLatents: Float32Array,
    sourceFrames: number,
    signal: AbortSignal,
    progress: ((fraction: number) => void) | undefined,
  ): Promise<RenderedSong> {
    const m = this.manifest;
    const { C } = this;
    const codes = this.sessions.codes;
    if (codes === undefined) throw new EditUnsupportedError(this.sessions.remixLack ?? 'remix needs the FSQ graphs');
    const frames = request.durationSeconds * m.frames_per_second;
    if (frames !== sourceFrames) throw new EditUnsupportedError(`a remix is as long as its source: ${sourceFrames} frames, not ${frames}`);
    if (!(strength >= 0 && strength <= 1)) throw new EditUnsupportedError(`remix strength ${strength} is outside 0..1`);
    const lmHints = await this.codesRoundTrip(codes, sourceLatents, frames);
    const edit: EditContext = {
      source: sourceLatents.slice(0, frames * C),
      chunkMask: new Float32Array(frames * C).fill(1),
      kept: undefined,
      generate: undefined,
      lmHints,
      coverStrength: strength,
    };
    const sampled = await this.sample(request, frames, signal, progress, edit);
    const audio = await this.decode(sampled.latent, frames, signal, (fraction) =>
      progress?.(PROGRESS_SAMPLED + (1 - PROGRESS_SAMPLED) * fraction),
    );
    return this.rendered(request, sampled.latent, frames, audio, peakGain(audio), sampled);
  }

  /**
   * The source's 25 Hz latents to 5 Hz codes and back (the reference's `tokenize` then
   * `detokenize`): padded with silence-latent frames to whole codes as the reference pads, the
   * hints cropped back to the song's frames.
   */
  private async codesRoundTrip(
    codes: { tokenizer: BoundGraph; detokenizer: BoundGraph },
    latents: Float32Array,
    frames: number,
  ): Promise<Float32Array> {
    const m = this.manifest;
    const { C } = this;
    const padded = Math.ceil(frames / FRAMES_PER_CODE) * FRAMES_PER_CODE;
    const input = silenceFrames(this.silence, m.silence_latent.shape[0], C, padded);
    input.set(latents.subarray(0, frames * C));
    const tokenized = await codes.tokenizer.run({ hidden_states: new ort.Tensor('float32', input, [1, padded, C]) });
    const quantized = floatOutput(tokenized, 'quantized', 'audio_tokenizer');
    if (quantized.dims.length !== 3 || quantized.dims[1] !== padded / FRAMES_PER_CODE)
      throw new Error(`audio_tokenizer quantized is [${quantized.dims.join(', ')}], expected [1, ${padded / FRAMES_PER_CODE}, width]`);
    const hints = floatOutput(await codes.detokenizer.run({ quantized }), 'lm_hints_25hz', 'audio_detokenizer');
    if (hints.dims[1] !== padded || hints.dims[2] !== C)
      throw new Error(`audio_detokenizer lm_hints_25hz is [${hints.dims.join(', ')}], expected [1, ${padded}, ${C}]`);
    return (hints.data as Float32Array).slice(0, frames * C);
  }
}

/** The reference's `repaint_injection_ratio`: kept frames are re-injected for this fraction of the steps. */
export const REPAINT_INJECTION_RATIO = 0.5;
/** Frames blended at each edge of an edit (the reference crossfades about 10 latent frames, 0.4 s). */
export const EDGE_BLEND_FRAMES = 10;

/**
 * An edit's conditioning: the source latents (a repaint's with its range silenced), the chunk
 * mask; a repaint's or extend's kept source and frames to generate (re-injected); a remix's 25 Hz
 * hints from the source's codes and the fraction of the steps conditioned on them.
 */
interface EditContext {
  source: Float32Array;
  chunkMask: Float32Array;
  kept: Float32Array | undefined;
  /** 1 per frame to generate. */
  generate: Uint8Array | undefined;
  lmHints: Float32Array | undefined;
  coverStrength: number | undefined;
}

/**
 * The reference's tiling (`tiled_decode`, and `tiled_encode` alike): the whole song when it fits
 * one window of `chunk` frames, else windows whose core [start, end) is kept and whose
 * `overlap` frames each side ([from, start) and [end, to)) are computed as context and dropped.
 */
function vaeWindows(frames: number, chunk: number, overlapFrames: number): { from: number; to: number; start: number; end: number }[] {
  const overlap = frames <= chunk ? 0 : overlapFrames;
  const core = frames <= chunk ? frames : chunk - 2 * overlap;
  const windows: { from: number; to: number; start: number; end: number }[] = [];
  for (let start = 0; start < frames; start += core) {
    const end = Math.min(frames, start + core);
    windows.push({ from: Math.max(0, start - overlap), to: Math.min(frames, end + overlap), start, end });
  }
  return windows;
}

/** 1, or 1 / peak when the song would clip (the reference's anti-clipping). */
function peakGain(channels: Float32Array[]): number {
  let peak = 0;
  for (const channel of channels) for (const x of channel) peak = Math.max(peak, Math.abs(x));
  return peak > 1 ? 1 / peak : 1;
}
/** What a remix lacks when the directory has only `present` of its graphs (docs/inference.md "Song edits"). */
function remixLackFor(present: readonly GraphName[]): string {
  const missing = REMIX_GRAPHS.filter((g) => !present.includes(g));
  return `remix needs the ${REMIX_GRAPHS.join(' and ')} graphs (the 5 Hz FSQ round trip of the public export); the model directory has no ${missing.join(' or ')}`;
}

/** Null when the loaded graphs include both of remix's; else what is lacking. */
function remixLack(loaded: ReadonlyMap<GraphName, unknown>): string | null {
  const present = REMIX_GRAPHS.filter((g) => loaded.has(g));
  return present.length === REMIX_GRAPHS.length ? null : remixLackFor(present);
}
/** What uploads lack without the encoder (scripts/export_acestep_vae_encoder.py exports it; docs/inference.md). */
const ACESTEP_IMPORT_LACK =
  'uploaded audio needs a vae_encoder graph (the AutoencoderOobleck encoder, scripts/export_acestep_vae_encoder.py): the model directory has no vae_encoder graph';
