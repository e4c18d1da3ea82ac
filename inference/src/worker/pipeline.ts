/**
 * One generation, from prompt to MP3 bytes: lyrics step (when asked), text encoding, the music
 * model, the sound's fingerprint (core/src/fingerprint/), MP3 encoding, tags and signed C2PA content credentials (finishMp3), hashing, and the exact duration measured from the file; for a
 * song also its lossless WAV and FLAC of the same PCM (lossless.ts). Publishing (upload +
 * completion) is the caller's, inside the job's transaction.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { EncoderBackend } from '../audio/encoder-backend.ts';
import type { EncoderPool } from '../audio/encoder-pool.ts';
import { finishMp3 } from '../audio/content-credentials.ts';
import type { SigningIdentity } from '../audio/signing-identity.ts';
import { encodeMp3 } from '../audio/mp3-encoder.ts';
import { encodeLossless } from '../audio/lossless.ts';
import type { LosslessFiles } from '../audio/lossless.ts';
import { measureMp3 } from '../audio/mp3-frames.ts';
import type { LyricsGenerator } from '../lyrics/lyrics-generator.ts';
import { MAX_LYRICS_TOKENS } from '../lyrics/lyrics-generator.ts';
import type { RenderedSong, SongModel } from '../model/song-model.ts';
import type { PcmAudio } from '../model/runtime.ts';
import type { EditProvenance } from '../audio/content-credentials.ts';
import type { EditParameters } from '../../../core/src/song-edits.ts';
import { contentHash } from '../../../core/src/content-hash.ts';
import { MAX_AUDIO_BYTES } from '../../../core/src/generation-queue.ts';
import { fingerprintPcm } from '../../../core/src/fingerprint/chromaprint.ts';
import { fingerprintRecord } from '../../../core/src/fingerprint/encoding.ts';

export interface SongRequest {
  prompt: string;
  durationSeconds: number;
  seed: bigint;
  steps: number;
  lyrics: string | null;
  withLyrics: boolean;
  /** The public id the song is published under (`gen_…`, a preview's session id), named in its content credentials. */
  jobId: string;
  kind: 'song' | 'preview';
  /**
   * An edit: its parameters, what names its source in provenance, and the source itself: a song's
   * kept latents, or the decoded PCM of an upload, which the model imports first.
   */
  edit?: EditInput;
}

export type EditInput = { parameters: EditParameters; source: EditProvenance } & ({ sourceKept: Uint8Array } | { sourceAudio: PcmAudio });

export interface PipelineDeps {
  model: SongModel;
  lyrics: LyricsGenerator;
  encoder: { backend: EncoderBackend; pool: EncoderPool; parallelism: number };
  /** Signs every song's C2PA manifest (the operator's certificate, checked at start). */
  signingIdentity: SigningIdentity;
  /** Test hook: an abortable delay before the model runs (a slow model). 0 in production. */
  slowModelMs: number;
  /**
   * Test hook (INFERENCE_TEST_HOLD_AT_STAGE): awaited on entering each stage, so a fault test can
   * kill the worker at a named stage. Absent in production.
   */
  enterStage?: StageHook;
}

/** The stages of one attempt a fault test can stop a worker at (docs/operations.md). */
export const PIPELINE_STAGES = ['model', 'encode', 'upload', 'completion'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];
export type StageHook = (stage: PipelineStage, signal: AbortSignal) => Promise<void>;

export interface StageTimings {
  lyricsMs: number;
  modelMs: number;
  encodeMs: number;
  /** ID3 tags and the signed C2PA manifest. */
  credentialsMs: number;
  hashMs: number;
  /** WAV and FLAC with their manifests (0 for a preview, which has none). */
  losslessMs: number;
  /** The Chromaprint fingerprint of the PCM (docs/fingerprints.md). */
  fingerprintMs: number;
}

export interface Song {
  bytes: Uint8Array;
  audioHash: string;
  actualDuration: number;
  usedLyrics: string | null;
  lyricsTokens: number | null;
  conditioning: Readonly<Record<string, number | string>>;
  matchedWords: readonly string[];
  /** Tokens the model generated (0 for a one-pass graph). */
  modelTokens: number;
  encoderBackend: EncoderBackend;
  /** What the tags and manifest add to the encoder's bytes. */
  credentials: { manifestBytes: number; tagBytes: number; manifestLabel: string };
  /** The model's kept-latents object (stored privately beside the audio), or null. */
  kept: Uint8Array | null;
  /** A song's WAV and FLAC and the hash of their PCM; null for a preview. */
  lossless: LosslessFiles | null;
  /** The sound's Chromaprint fingerprint (core/src/fingerprint/), from the PCM the MP3 was encoded from. */
  fingerprint: Uint32Array;
  timings: StageTimings;
}

export class PipelineError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PipelineError';
  }
}

/** The spec's cap on a generated file (`MAX_AUDIO_BYTES`): `AUDIO_TOO_LARGE` above it, nothing published. */
export function audioSizeRefusal(byteLength: number): PipelineError | null {
  if (byteLength <= MAX_AUDIO_BYTES) return null;
  return new PipelineError('AUDIO_TOO_LARGE', `audio is ${byteLength} bytes, the limit is ${MAX_AUDIO_BYTES}`);
}

/** The steps a job can be stopped before (the upload is the worker's, guarded by the job row). */
export type PipelineStep = 'lyrics' | 'model' | 'encode' | 'upload';

/**
 * Awaited before each step; it throws (e.g. `JobCancelledError`) to stop the job there. The
 * worker checks whether the owner cancelled the job.
 */
export type StepCheckpoint = (next: PipelineStep) => Promise<void>;

const noCheckpoint: StepCheckpoint = () => Promise.resolve();

export async function generateSong(
  request: SongRequest,
  deps: PipelineDeps,
  signal: AbortSignal,
  progress: (percent: number) => void,
  checkpoint: StepCheckpoint = noCheckpoint,
): Promise<Song> {
  const model = deps.model;
  if (!model.steps.includes(request.steps)) {
    throw new PipelineError('INVALID_STEPS', `model ${model.name} supports steps ${model.steps.join(', ')}, not ${request.steps}`);
  }
  let t = performance.now();
  let usedLyrics = request.lyrics;
  let lyricsTokens: number | null = null;
  await checkpoint('lyrics');
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

  // The music step: the model conditions on the prompt and the lyrics its own way.
  if (deps.slowModelMs > 0) await sleep(deps.slowModelMs, undefined, { signal });
  await checkpoint('model');
  await deps.enterStage?.('model', signal);
  t = performance.now();
  progress(10);
  const modelRequest = {
    prompt: request.prompt,
    lyrics: usedLyrics,
    seed: request.seed,
    durationSeconds: request.durationSeconds,
    steps: request.steps,
  };
  const modelProgress = (fraction: number): void => progress(10 + Math.floor(fraction * 40));
  const edit = request.edit;
  let rendered: RenderedSong;
  if (edit === undefined) rendered = await model.render(modelRequest, signal, modelProgress);
  else {
    // Uploaded audio becomes the model's own kept state first, as if the model had made it.
    const sourceKept = 'sourceKept' in edit ? edit.sourceKept : await model.importAudio(edit.sourceAudio, signal);
    rendered = await model.edit({ ...modelRequest, edit: edit.parameters, sourceKept }, signal, modelProgress);
  }
  const pcm = rendered.pcm;
  const expectedSamples = request.durationSeconds * pcm.sampleRate;
  if (pcm.channels.length === 0 || pcm.channels.some((channel) => channel.length !== expectedSamples)) {
    throw new PipelineError(
      'MODEL_OUTPUT_INVALID',
      `model ${model.name} rendered ${pcm.channels[0]?.length ?? 0} samples, expected ${expectedSamples}`,
    );
  }
  const modelMs = performance.now() - t;
  progress(50);

  // The sound's fingerprint (docs/fingerprints.md), from the PCM the MP3 is encoded from; its
  // compact form goes into the content credentials, the items onto the job's row.
  t = performance.now();
  const fingerprint = fingerprintPcm(pcm.channels, pcm.sampleRate);
  const fingerprintMs = performance.now() - t;

  await checkpoint('encode');
  await deps.enterStage?.('encode', signal);
  t = performance.now();
  const mp3 = await encodeMp3(pcm.channels, pcm.sampleRate, { ...deps.encoder, signal });
  if (!mp3.ok) throw new PipelineError(mp3.error.code, mp3.error.message);
  const encodeMs = performance.now() - t;
  progress(85);

  // Tags and content credentials go in before hashing: audio_hash is the hash of the served bytes.
  t = performance.now();
  const provenance = {
    jobId: request.jobId,
    kind: request.kind,
    prompt: request.prompt,
    seed: request.seed,
    model: { name: model.name, version: model.version, licence: model.licence },
    fingerprint: fingerprintRecord(fingerprint),
    ...(request.edit === undefined ? {} : { editOf: request.edit.source }),
  };
  const finished = await finishMp3(mp3.value.bytes, provenance, deps.signingIdentity);
  const credentialsMs = performance.now() - t;

  // The masters: the PCM the MP3 was just encoded from, losslessly, with the same credentials.
  t = performance.now();
  const lossless =
    request.kind === 'song' ? await encodeLossless(pcm.channels, pcm.sampleRate, provenance, deps.signingIdentity, signal) : null;
  const losslessMs = performance.now() - t;

  t = performance.now();
  const tooLarge = audioSizeRefusal(finished.bytes.length);
  if (tooLarge !== null) throw tooLarge;
  const audioHash = contentHash(finished.bytes);
  const hashMs = performance.now() - t;
  const measured = measureMp3(finished.bytes);
  if (!measured.ok) throw new PipelineError(measured.error.code, measured.error.message);
  progress(90);
  return {
    bytes: finished.bytes,
    audioHash,
    actualDuration: measured.value.seconds,
    usedLyrics,
    lyricsTokens,
    conditioning: rendered.conditioning,
    matchedWords: rendered.matchedWords,
    modelTokens: rendered.tokens,
    encoderBackend: mp3.value.backend,
    credentials: { manifestBytes: finished.manifestBytes, tagBytes: finished.tagBytes, manifestLabel: finished.manifestLabel },
    kept: rendered.kept,
    lossless,
    fingerprint,
    timings: { lyricsMs, modelMs, encodeMs, credentialsMs, hashMs, losslessMs, fingerprintMs },
  };
}
