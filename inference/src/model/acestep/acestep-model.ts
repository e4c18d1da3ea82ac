/**
 * The ACE-Step 1.5 backend (DiT-only mode): a directory with `songmint-acestep.json` as a song
 * model, in either known layout (layouts.ts: the public exporter's 2B directory, or the XL Turbo
 * files a working public pipeline runs), run by the project's own loop over onnxruntime-node. Per
 * song: the caption and lyric texts in the model's templates (prompt.ts), tokenized once; the
 * condition packed and encoded once (condition.ts); seeded noise integrated by the flow-matching
 * Euler sampler on at least 128 latent frames (sampling.ts); the VAE decoded in the reference's
 * windows (vae.ts); the song divided by its peak when that exceeds 1, as the reference does. Edits
 * from kept latents as current upstream runs them (edits.ts): repaint and extend with kept-frame
 * injection, a latent boundary blend and a waveform splice; remix as the reference's cover through
 * the 5 Hz round trip (optional graphs). One session per graph, created on the device the worker
 * chose (CUDA, or CPU as fallback), each bound to its layout's table by exact names (bind.ts),
 * after every file has matched its sha256.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { EditSupport } from '../../../../core/src/song-edits.ts';
import { resample } from '../../audio/resample.ts';
import type { Device, ExecutionProviders, SessionChoice } from '../device.ts';
import { createWithFallback, gpuPresent, providerPlan, systemGpuProbe } from '../device.ts';
import { decodeKeptLatents, encodeKeptLatents } from '../kept-latents.ts';
import type { LoadModelOptions, PcmAudio } from '../runtime.ts';
import { seededRandom } from '../seed.ts';
import type { RenderedSong, SongEditRequest, SongModel, SongModelRequest } from '../song-model.ts';
import { EditUnsupportedError } from '../song-model.ts';
import type { SessionValue } from './bind.ts';
import { bindGraph, sessionValues } from './bind.ts';
import type { Condition, SilenceLatent } from './condition.ts';
import { encodeCondition, padWithSilence, silenceFrames } from './condition.ts';
import { blendBoundaries, codesRoundTrip, injectionSteps, injectKeptFrames, planRepaint, repaintConfig, spliceWaveform } from './edits.ts';
import type { RepaintPlan } from './edits.ts';
import { BoundGraph } from './graph-session.ts';
import type { GraphRole, KnownLayout } from './layouts.ts';
import { importLack, remixLack } from './layouts.ts';
import type { AcestepManifest } from './manifest.ts';
import { combinedLicence, manifestGraphs, manifestLayout, readAcestepManifest, requestSteps } from './manifest.ts';
import { COVER_INSTRUCTION, DEFAULT_DIT_INSTRUCTION, REPAINT_INSTRUCTION, captionText, lyricText, promptMetadata } from './prompt.ts';
import { latentFrames, latentMask, runLoop } from './sampling.ts';
import { checkCodeWidth, checkIoContract, validateFiles } from './validate.ts';
import { decodeLatents, encodeAudio } from './vae.ts';
import type { Tiling } from './vae.ts';

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

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * Anti-clipping as the reference: a song whose peak exceeds 1 is divided by its peak (over both
 * channels); a quieter one is left as it is.
 */
export function normalisePeak(channels: Float32Array[]): Float32Array[] {
  const gain = peakGain(channels);
  return gain === 1 ? channels : channels.map((channel) => channel.map((x) => x * gain));
}

/** 1, or 1 / peak when the song would clip (the reference's anti-clipping). */
function peakGain(channels: Float32Array[]): number {
  let peak = 0;
  for (const channel of channels) for (const x of channel) peak = Math.max(peak, Math.abs(x));
  return peak > 1 ? 1 / peak : 1;
}

interface Sessions {
  text: BoundGraph;
  lyric: BoundGraph;
  condition: BoundGraph;
  dit: BoundGraph;
  vae: BoundGraph;
  /** The 5 Hz round trip remix needs; absent when the directory lacks either graph. */
  codes: { tokenizer: BoundGraph; detokenizer: BoundGraph } | undefined;
  /** Null with both round-trip graphs; else what remix lacks (EDIT_005 shows it). */
  remixLack: string | null;
  /** AutoencoderOobleck's encoder, for uploaded audio; absent when the directory has none. */
  vaeEncoder: BoundGraph | undefined;
}

interface LoadedParts {
  manifest: AcestepManifest;
  tokenizer: Tokenizer;
  silence: SilenceLatent;
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
  const [frames, channels] = manifest.silence_latent.shape;
  const silence = { data: await floats(manifest.silence_latent.file), frames, channels };
  const nullCondition = manifest.schedule.null_condition === undefined ? undefined : await floats(manifest.schedule.null_condition.file);
  return ok({ manifest, tokenizer, silence, nullCondition });
}

export async function loadAcestepModel(options: LoadModelOptions): Promise<Result<SongModel, AcestepLoadError>> {
  const parts = await readParts(options.modelDir);
  if (!parts.ok) return parts;
  const { manifest, tokenizer, silence, nullCondition } = parts.value;
  const layout = manifestLayout(manifest);
  const plan = providerPlan(options.device, gpuPresent(options.probe ?? systemGpuProbe));
  const create = options.createSession ?? defaultCreateSession;
  const opened: SessionChoice<ort.InferenceSession>[] = [];
  const releaseAll = () => Promise.all(opened.map((c) => c.session.release()));
  const byGraph = new Map<GraphRole, { choice: SessionChoice<ort.InferenceSession>; bound: BoundGraph }>();
  const declared = new Map<GraphRole, { inputs: SessionValue[]; outputs: SessionValue[] }>();
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
    const io = bindGraph(layout, graph, entry.file, manifest.dims, own.inputs, own.outputs);
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
  const session = (graph: GraphRole): BoundGraph => {
    const entry = byGraph.get(graph);
    if (entry === undefined) throw new Error(`no session for ${graph}`);
    return entry.bound;
  };
  const present = [...byGraph.keys()];
  const remix = remixLack(layout, present);
  const sessions: Sessions = {
    text: session('text_encoder'),
    lyric: session('lyric_embedding'),
    condition: session('condition_encoder'),
    dit: session('dit'),
    vae: session('vae_decoder'),
    codes: remix === null ? { tokenizer: session('audio_tokenizer'), detokenizer: session('audio_detokenizer') } : undefined,
    remixLack: remix,
    vaeEncoder: byGraph.get('vae_encoder')?.bound,
  };
  const editSupport: EditSupport = { extend: null, repaint: null, remix };
  // The DiT runs N times per song: its device is the model's.
  const device: Device = byGraph.get('dit')?.choice.device ?? 'cpu';
  const fallbackReason = opened.map((c) => c.fallbackReason).find((r) => r !== undefined);
  const renderer = new AcestepRenderer(manifest, layout, sessions, tokenizer, silence, nullCondition);
  return ok({
    format: 'acestep-onnx',
    name: manifest.name,
    version: manifest.version,
    licence: combinedLicence(manifest),
    // ACE-Step sings the lyrics it is given (the built-in and MusicGen backends do not).
    sings: true,
    device,
    fallbackReason,
    steps: requestSteps(manifest),
    sampleRate: ACESTEP_OUTPUT_RATE,
    render: (request, signal, progress) => renderer.render(request, signal, progress),
    editSupport,
    edit: (request, signal, progress) => renderer.edit(request, signal, progress),
    importSupport: sessions.vaeEncoder === undefined ? importLack(layout) : null,
    importAudio: (pcm, signal) => renderer.importAudio(pcm, signal),
    release: async () => {
      await releaseAll();
    },
  });
}

/** What a song's loop is conditioned on besides its texts: an edit's source and masks, a remix's hints. */
interface Conditioning {
  instruction: string;
  /** `[frames, C]` over the padded frames. */
  source: Float32Array;
  chunkMask: Float32Array;
  hints: Float32Array | undefined;
}

interface Sampled {
  /** `[songFrames, C]`: the loop's result cropped to the song. */
  latent: Float32Array;
  condition: Condition;
  diffusionSteps: number;
}

class AcestepRenderer {
  private readonly C: number;
  private readonly tiling: Tiling;

  constructor(
    private readonly manifest: AcestepManifest,
    private readonly layout: KnownLayout,
    private readonly sessions: Sessions,
    private readonly tokenizer: Tokenizer,
    private readonly silence: SilenceLatent,
    private readonly nullCondition: Float32Array | undefined,
  ) {
    this.C = manifest.dims.latent_channels;
    this.tiling = {
      channels: this.C,
      samplesPerFrame: manifest.samples_per_frame,
      chunk: manifest.vae_chunk_frames,
      overlap: manifest.vae_overlap_frames,
    };
  }

  private tokenize(text: string, max: number): number[] {
    const ids = this.tokenizer.encode(text).ids.slice(0, max);
    if (ids.length === 0) throw new Error('the tokenizer produced no tokens');
    return ids;
  }

  /** Plain text-to-music over `frames` padded frames: the silence latent as source, chunk mask 1. */
  private textToMusic(frames: number): Conditioning {
    const C = this.C;
    return {
      instruction: DEFAULT_DIT_INSTRUCTION,
      source: silenceFrames(this.silence, frames),
      chunkMask: new Float32Array(frames * C).fill(1),
      hints: undefined,
    };
  }

  private encode(request: SongModelRequest, songFrames: number, frames: number, conditioning: Conditioning): Promise<Condition> {
    const m = this.manifest;
    return encodeCondition(
      { text: this.sessions.text, lyric: this.sessions.lyric, condition: this.sessions.condition },
      {
        // Each task under the reference's own instruction (`generate_instruction`).
        caption: this.tokenize(
          captionText(request.prompt, promptMetadata(request.prompt, request.durationSeconds), conditioning.instruction),
          m.tokenizer.max_caption_tokens,
        ),
        lyrics: this.tokenize(lyricText(request.lyrics), m.tokenizer.max_lyric_tokens),
        frames,
        latentMask: latentMask(songFrames, frames),
        source: conditioning.source,
        chunkMask: conditioning.chunkMask,
        hints: conditioning.hints,
        silence: this.silence,
        timbreFrames: m.dims.timbre_frames,
        contextChannels: m.dims.context_channels,
      },
    );
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

  /**
   * Samples a song of `songFrames` latent frames from the job's seed on `latentFrames(songFrames)`
   * frames; `conditioning` for the first `coverSteps` steps (all by default), the plain text-to-music
   * condition after them; a repaint re-injects and blends its kept frames.
   */
  private async sample(
    request: SongModelRequest,
    songFrames: number,
    conditioning: Conditioning,
    signal: AbortSignal,
    progress: ((fraction: number) => void) | undefined,
    options: { coverStrength?: number; repaint?: RepaintPlan } = {},
  ): Promise<Sampled> {
    const m = this.manifest;
    const C = this.C;
    const diffusionSteps = m.schedule.steps_for_request[String(request.steps)];
    if (diffusionSteps === undefined) throw new Error(`model ${m.name} maps no diffusion schedule to steps ${request.steps}`);
    if (signal.aborted) throw abortError(signal);
    const frames = latentFrames(songFrames);
    const condition = await this.encode(request, songFrames, frames, conditioning);
    // A remix runs the cover condition for `audio_cover_strength` of the steps, then the plain
    // text-to-music one (the reference's non-cover condition: default instruction, silence source).
    const coverSteps = options.coverStrength === undefined ? diffusionSteps : Math.floor(diffusionSteps * options.coverStrength);
    const plain = coverSteps < diffusionSteps ? await this.encode(request, songFrames, frames, this.textToMusic(frames)) : condition;
    progress?.(PROGRESS_ENCODED);
    const repaint = options.repaint;
    const config = repaintConfig();
    const inject = injectionSteps(config, diffusionSteps);
    const latent = await runLoop({
      dit: this.sessions.dit,
      frames,
      songFrames,
      channels: C,
      contextChannels: m.dims.context_channels,
      diffusionSteps,
      shift: m.schedule.shift,
      random: seededRandom(request.seed, 'acestep-noise'),
      condition: (step) => (step < coverSteps ? condition : plain),
      guidance:
        m.schedule.guidance_scale > 1 ? { scale: m.schedule.guidance_scale, unconditioned: (c) => this.nullStates(c.hidden) } : undefined,
      adjust:
        repaint === undefined
          ? undefined
          : (x, t, step, noise) => {
              if (step < inject) injectKeptFrames(x, repaint, t, noise, C);
            },
      signal,
      onStep: (done, total) => progress?.(PROGRESS_ENCODED + ((PROGRESS_SAMPLED - PROGRESS_ENCODED) * done) / total),
    });
    if (repaint !== undefined) blendBoundaries(latent, repaint, config.crossfadeFrames, C);
    return { latent: latent.slice(0, songFrames * C), condition, diffusionSteps };
  }

  private decode(
    latent: Float32Array,
    frames: number,
    signal: AbortSignal,
    progress?: (fraction: number) => void,
  ): Promise<Float32Array[]> {
    return decodeLatents(this.sessions.vae, latent, frames, this.tiling, signal, (fraction) =>
      progress?.(PROGRESS_SAMPLED + (1 - PROGRESS_SAMPLED) * fraction),
    );
  }

  private rendered(
    request: SongModelRequest,
    latent: Float32Array,
    frames: number,
    audio: Float32Array[],
    gain: number,
    sampled: Sampled,
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

  async render(request: SongModelRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong> {
    const songFrames = request.durationSeconds * this.manifest.frames_per_second;
    const sampled = await this.sample(request, songFrames, this.textToMusic(latentFrames(songFrames)), signal, progress);
    const audio = await this.decode(sampled.latent, songFrames, signal, progress);
    // Anti-clipping as the reference (normalisePeak), kept as a gain so an edit plays its kept frames at the same level.
    return this.rendered(request, sampled.latent, songFrames, audio, peakGain(audio), sampled);
  }

  /**
   * Uploaded audio as a source for `edit`, as the reference prepares `src_audio`
   * (`_normalize_audio_to_stereo_48k`, then `tiled_encode`): mono doubled to stereo (a third
   * channel and beyond dropped), resampled to 48 kHz, clamped to [-1, 1], padded with silence to
   * whole latent frames, and encoded in the decoder's windows to the latent distribution's mean
   * (the reference samples it; the mean makes the same upload the same source).
   */
  async importAudio(pcm: PcmAudio, signal: AbortSignal): Promise<Uint8Array> {
    const m = this.manifest;
    const encoder = this.sessions.vaeEncoder;
    if (encoder === undefined) throw new EditUnsupportedError(importLack(this.layout));
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
    const latent = await encodeAudio(encoder, padded, frames, this.tiling, signal);
    return this.kept(latent, frames, { imported: true });
  }

  /** The source's kept latents, refused when another model made them. */
  private source(request: SongEditRequest): { data: Float32Array; frames: number; gain: number | undefined } {
    const m = this.manifest;
    const decoded = decodeKeptLatents(request.sourceKept);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const source = decoded.value;
    if (source.header.model.name !== m.name || !(source.data instanceof Float32Array) || source.header.shape[1] !== this.C) {
      throw new EditUnsupportedError(
        `the source song was made by ${source.header.model.name}@${source.header.model.version}; this worker runs ${m.name}@${m.version}`,
      );
    }
    const gain = source.header.extra.gain;
    return { data: source.data, frames: source.header.shape[0] ?? 0, gain: typeof gain === 'number' ? gain : undefined };
  }

  /**
   * Repaint and extend as current upstream (edits.ts): the range [start, end) repainted on the
   * source (an extend's range is the new tail), the kept frames re-injected and blended at the
   * range's edges, then the source's own waveform spliced back outside the range with a 0.025 s
   * crossfade. The source's gain keeps the kept audio at its level.
   */
  async edit(request: SongEditRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong> {
    const m = this.manifest;
    const source = this.source(request);
    const songFrames = request.durationSeconds * m.frames_per_second;
    if (request.edit.task === 'remix') return this.remix(request, request.edit.strength, source, signal, progress);
    const fps = m.frames_per_second;
    const rate = m.sample_rate;
    const extend = request.edit.task === 'extend';
    if (extend ? songFrames <= source.frames : songFrames !== source.frames) {
      throw new EditUnsupportedError(`the result's ${songFrames} frames do not fit a ${request.edit.task} of ${source.frames} frames`);
    }
    // Seconds to frames as the reference (`int(seconds * 48000 // 1920)`), and to samples (`int(seconds * 48000)`).
    const [start, end] =
      request.edit.task === 'repaint'
        ? [Math.floor(request.edit.start * fps), Math.min(songFrames, Math.floor(request.edit.end * fps))]
        : [source.frames, songFrames];
    const [startSample, endSample] =
      request.edit.task === 'repaint'
        ? [Math.floor(request.edit.start * rate), Math.floor(request.edit.end * rate)]
        : [source.frames * m.samples_per_frame, songFrames * m.samples_per_frame];
    const frames = latentFrames(songFrames);
    const plan = planRepaint(source.data, source.frames, start, end, frames, this.silence);
    const sampled = await this.sample(
      request,
      songFrames,
      { instruction: REPAINT_INSTRUCTION, source: plan.source, chunkMask: plan.chunkMask, hints: undefined },
      signal,
      progress,
      { repaint: plan },
    );
    const audio = await this.decode(sampled.latent, songFrames, signal, (f) =>
      progress?.(PROGRESS_SAMPLED + ((1 - PROGRESS_SAMPLED) * f) / 2),
    );
    // The kept audio is the source's own waveform (its decode, before its gain), crossfaded at the range.
    const original = await decodeLatents(this.sessions.vae, source.data, source.frames, this.tiling, signal, () => undefined);
    spliceWaveform(audio, original, startSample, endSample, Math.trunc(repaintConfig().waveformCrossfadeSeconds * rate));
    const gain = source.gain ?? peakGain(audio);
    return this.rendered(request, sampled.latent, songFrames, audio, gain, sampled);
  }

  /**
   * Remix as the reference's cover (`is_covers`): the source's latents (padded as the loop pads)
   * through the 5 Hz round trip become the LM hints, every frame is generated (chunk mask 1) from
   * the job's seed, and after `strength` of the steps the condition switches to the plain
   * text-to-music one. What survives is what the codes hold, melody and structure, not the exact
   * sound; the result is as long as the source and gets its own anti-clipping gain.
   */
  private async remix(
    request: SongEditRequest,
    strength: number,
    source: { data: Float32Array; frames: number },
    signal: AbortSignal,
    progress: ((fraction: number) => void) | undefined,
  ): Promise<RenderedSong> {
    const m = this.manifest;
    const { C } = this;
    const codes = this.sessions.codes;
    if (codes === undefined) throw new EditUnsupportedError(this.sessions.remixLack ?? 'remix needs the audio tokenizer graphs');
    const songFrames = request.durationSeconds * m.frames_per_second;
    if (songFrames !== source.frames)
      throw new EditUnsupportedError(`a remix is as long as its source: ${source.frames} frames, not ${songFrames}`);
    if (!(strength >= 0 && strength <= 1)) throw new EditUnsupportedError(`remix strength ${strength} is outside 0..1`);
    const frames = latentFrames(songFrames);
    const padded = padWithSilence(source.data, songFrames, frames, this.silence);
    const hints = await codesRoundTrip(this.layout, codes, padded, frames, this.silence);
    const sampled = await this.sample(
      request,
      songFrames,
      { instruction: COVER_INSTRUCTION, source: padded, chunkMask: new Float32Array(frames * C).fill(1), hints },
      signal,
      progress,
      { coverStrength: strength },
    );
    const audio = await this.decode(sampled.latent, songFrames, signal, progress);
    return this.rendered(request, sampled.latent, songFrames, audio, peakGain(audio), sampled);
  }
}
