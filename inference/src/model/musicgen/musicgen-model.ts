/**
 * The MusicGen backend: a model directory in the public ONNX export's layout as a song model.
 * Prompt and lyrics -> T5 states -> codes (50 frames a second, seeded sampling with
 * classifier-free guidance, windowed continuation for long songs) -> EnCodec audio at 32 kHz
 * mono -> resampled to 48 kHz for the MP3 encoder. Three onnxruntime sessions, created once per
 * process on the device the worker chose (CUDA, or CPU as fallback).
 */
import * as ort from 'onnxruntime-node';
import { fail, ok } from '../../../../core/src/result.ts';
import { resample } from '../../audio/resample.ts';
import type { Device, ExecutionProviders } from '../device.ts';
import { createWithFallback, gpuPresent, providerPlan, systemGpuProbe } from '../device.ts';
import type { LoadModelOptions } from '../runtime.ts';
import type { LoadSongModelResult, SongModel } from '../song-model.ts';
import { EditUnsupportedError, noEdits } from '../song-model.ts';
import { DEFAULT_CHUNKING, decodeCodes } from './codec.ts';
import { generateCodes } from './generate-codes.ts';
import type { MusicgenSpec } from './layout.ts';
import { readMusicgenSpec } from './layout.ts';
import { seededRandom } from '../seed.ts';
import { conditioningText, encodeText, loadTokenizer } from './text-conditioning.ts';
import type { TextTokenizer } from './text-conditioning.ts';

/** The MP3 encoder's rate for MusicGen's audio: 48 kHz is 32 kHz x 3/2, an exact ratio. */
export const MUSICGEN_OUTPUT_RATE = 48_000;

/** Steps do not apply to an autoregressive model; the spec's values are accepted and recorded. */
const ACCEPTED_STEPS = [27, 60] as const;

const defaultCreateSession = (modelPath: string, providers: ExecutionProviders): Promise<ort.InferenceSession> =>
  ort.InferenceSession.create(modelPath, { executionProviders: [...providers], graphOptimizationLevel: 'all' });

export interface MusicgenTuning {
  /** Frames per decoder window (default: the decoder's trained positions less the codebooks). */
  windowFrames?: number;
}

export async function loadMusicgenModel(options: LoadModelOptions & MusicgenTuning): Promise<LoadSongModelResult> {
  const read = await readMusicgenSpec(options.modelDir);
  if (!read.ok) return read;
  const spec: MusicgenSpec = read.value;
  let tokenizer: TextTokenizer;
  try {
    tokenizer = await loadTokenizer(spec.files.tokenizer, spec.files.tokenizerConfig);
  } catch (err) {
    return fail({ code: 'MODEL_LAYOUT_INVALID', message: `tokenizer.json: ${err instanceof Error ? err.message : String(err)}` });
  }
  const plan = providerPlan(options.device, gpuPresent(options.probe ?? systemGpuProbe));
  const create = options.createSession ?? defaultCreateSession;
  const sessions: ort.InferenceSession[] = [];
  const open = async (path: string) => {
    const choice = await createWithFallback(plan, (providers) => create(path, providers));
    sessions.push(choice.session);
    return choice;
  };
  let textEncoder, decoder, codec;
  try {
    textEncoder = await open(spec.files.textEncoder);
    decoder = await open(spec.files.decoder);
    codec = await open(spec.files.codec);
  } catch (err) {
    await Promise.all(sessions.map((s) => s.release()));
    return fail({ code: 'MODEL_LOAD_FAILED', message: err instanceof Error ? err.message : String(err) });
  }
  const missing = [
    'input_ids',
    'encoder_hidden_states',
    'encoder_attention_mask',
    'use_cache_branch',
    'past_key_values.0.decoder.key',
  ].filter((name) => !decoder.session.inputNames.includes(name));
  if (missing.length > 0) {
    await Promise.all(sessions.map((s) => s.release()));
    return fail({ code: 'MODEL_LAYOUT_INVALID', message: `decoder_model_merged.onnx lacks inputs ${missing.join(', ')}` });
  }
  // The decoder dominates the time: its device is the model's.
  const device: Device = decoder.device;
  const fallbackReason = [textEncoder, decoder, codec].map((c) => c.fallbackReason).find((r) => r !== undefined);
  const outputRate = spec.sampleRate === 44_100 || spec.sampleRate === 48_000 ? spec.sampleRate : MUSICGEN_OUTPUT_RATE;

  const MUSICGEN_EDIT_LACK = 'the MusicGen backend keeps no latents and has no continuation or inpainting path';
  const model: SongModel = {
    format: 'musicgen-onnx',
    name: spec.name,
    version: spec.version,
    licence: spec.licence,
    device,
    fallbackReason,
    steps: ACCEPTED_STEPS,
    sampleRate: outputRate,
    // MusicGen makes instrumentals: the lyrics are text conditioning, never sung.
    sings: false,
    async render(request, signal, progress) {
      const text = conditioningText(request.prompt, request.lyrics);
      const encoded = await encodeText(textEncoder.session, tokenizer.encode(text));
      const frames = request.durationSeconds * spec.frameRate;
      const generated = await generateCodes(decoder.session, spec, encoded, {
        frames,
        sampling: { guidanceScale: spec.guidanceScale, temperature: spec.temperature, topK: spec.topK },
        random: seededRandom(request.seed, 'codes'),
        signal,
        progress: (fraction) => progress?.(fraction * 0.9),
        ...(options.windowFrames === undefined ? {} : { windowFrames: options.windowFrames }),
      });
      const audio = await decodeCodes(codec.session, generated.codes, spec.samplesPerFrame, DEFAULT_CHUNKING, signal);
      progress?.(1);
      return {
        pcm: { sampleRate: outputRate, channels: [resample(audio, spec.sampleRate, outputRate)] },
        conditioning: { text, text_tokens: encoded.length, windows: generated.windows, guidance_scale: spec.guidanceScale },
        matchedWords: [],
        tokens: frames,
        kept: null,
      };
    },
    editSupport: noEdits(MUSICGEN_EDIT_LACK),
    edit: () => Promise.reject(new EditUnsupportedError(MUSICGEN_EDIT_LACK)),
    importSupport: MUSICGEN_EDIT_LACK,
    importAudio: () => Promise.reject(new EditUnsupportedError(MUSICGEN_EDIT_LACK)),
    async release() {
      await Promise.all(sessions.map((s) => s.release()));
    },
  };
  return ok(model);
}
