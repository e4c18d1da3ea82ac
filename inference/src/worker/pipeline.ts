/**
 * One generation, from prompt to MP3 bytes: lyrics step (when asked), text encoding, the music
 * model, MP3 encoding, hashing, and the exact duration measured from the file. Publishing (upload
 * + completion) is the caller's, inside the job's transaction.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EncoderBackend } from '../audio/encoder-backend.ts';
import type { EncoderPool } from '../audio/encoder-pool.ts';
import { encodeMp3 } from '../audio/mp3-encoder.ts';
import { measureMp3 } from '../audio/mp3-frames.ts';
import { lyricsRhythm } from '../lyrics/lyrics-rhythm.ts';
import type { LyricsGenerator } from '../lyrics/lyrics-generator.ts';
import { MAX_LYRICS_TOKENS } from '../lyrics/lyrics-generator.ts';
import type { MusicModel } from '../model/runtime.ts';
import { seedToModelInput } from '../model/seed.ts';
import { encodePrompt } from '../model/text-encoder.ts';

/** Spec: an audio file is at most 50 MB. */
export const MAX_AUDIO_BYTES = 50 * 1024 * 1024;

export interface SongRequest {
  prompt: string;
  durationSeconds: number;
  seed: bigint;
  steps: number;
  lyrics: string | null;
  withLyrics: boolean;
}

export interface PipelineDeps {
  model: MusicModel;
  lyrics: LyricsGenerator;
  encoder: { backend: EncoderBackend; pool: EncoderPool; parallelism: number };
  /** Test hook: an abortable delay before the model runs (a slow model). 0 in production. */
  slowModelMs: number;
}

export interface StageTimings {
  lyricsMs: number;
  modelMs: number;
  encodeMs: number;
  hashMs: number;
}

export interface Song {
  bytes: Uint8Array;
  audioHash: string;
  actualDuration: number;
  usedLyrics: string | null;
  lyricsTokens: number | null;
  conditioning: Readonly<Record<string, number>>;
  matchedWords: readonly string[];
  encoderBackend: EncoderBackend;
  timings: StageTimings;
}

export class PipelineError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'PipelineError';
  }
}

export function sha256Hex(bytes: Uint8Array): string {
  return `0x${createHash('sha256').update(bytes).digest('hex')}`;
}

export async function generateSong(
  request: SongRequest,
  deps: PipelineDeps,
  signal: AbortSignal,
  progress: (percent: number) => void,
): Promise<Song> {
  const manifest = deps.model.manifest;
  if (!manifest.steps.includes(request.steps)) {
    throw new PipelineError('INVALID_STEPS', `model ${manifest.name} supports steps ${manifest.steps.join(', ')}, not ${request.steps}`);
  }
  let t = performance.now();
  let usedLyrics = request.lyrics;
  let lyricsTokens: number | null = null;
  if (usedLyrics === null && request.withLyrics) {
    const generated = await deps.lyrics.generate({
      prompt: request.prompt,
      seed: request.seed,
      durationSeconds: request.durationSeconds,
      maxNewTokens: MAX_LYRICS_TOKENS,
      signal,
    });
    usedLyrics = generated.text;
    lyricsTokens = generated.tokens;
  }
  const lyricsMs = performance.now() - t;
  progress(5);

  // The music step's input: the prompt's words condition the model, the lyrics shape the rhythm.
  const encoded = encodePrompt(request.prompt, manifest.conditioning);
  const rhythm = usedLyrics === null ? Float32Array.from(manifest.conditioning.default_rhythm) : lyricsRhythm(usedLyrics, manifest.conditioning.default_rhythm);
  if (deps.slowModelMs > 0) await sleep(deps.slowModelMs, undefined, { signal });
  t = performance.now();
  progress(10);
  const pcm = await deps.model.generate(
    {
      conditioning: encoded.conditioning,
      seed: seedToModelInput(request.seed),
      rhythm,
      numSamples: request.durationSeconds * manifest.sample_rate,
      steps: request.steps,
    },
    signal,
  );
  const modelMs = performance.now() - t;
  progress(50);

  t = performance.now();
  const mp3 = await encodeMp3(pcm.channels, pcm.sampleRate, { ...deps.encoder, signal });
  if (!mp3.ok) throw new PipelineError(mp3.code, mp3.message);
  const encodeMs = performance.now() - t;
  progress(85);

  t = performance.now();
  if (mp3.bytes.length > MAX_AUDIO_BYTES) {
    throw new PipelineError('AUDIO_TOO_LARGE', `audio is ${mp3.bytes.length} bytes, the limit is ${MAX_AUDIO_BYTES}`);
  }
  const audioHash = sha256Hex(mp3.bytes);
  const hashMs = performance.now() - t;
  const measured = measureMp3(mp3.bytes);
  if (!measured.ok) throw new PipelineError(measured.code, measured.message);
  progress(90);
  return {
    bytes: mp3.bytes,
    audioHash,
    actualDuration: measured.seconds,
    usedLyrics,
    lyricsTokens,
    conditioning: encoded.values,
    matchedWords: encoded.matched,
    encoderBackend: mp3.backend,
    timings: { lyricsMs, modelMs, encodeMs, hashMs },
  };
}
