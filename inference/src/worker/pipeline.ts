/**
 * One generation, from prompt to MP3 bytes: lyrics step (when asked), text encoding, the music
 * model, MP3 encoding, tags and signed C2PA content credentials (finishMp3), hashing, and the
 * exact duration measured from the file. Beside the MP3 encode (its threads and encoder
 * processes), this thread reads the same PCM for what a song completes with besides its MP3: the
 * hash of its 24-bit PCM (`pcmHash`, the one-mint-per-sound key) and its Chromaprint fingerprint
 * (issue 44, core/src/fingerprint/chromaprint.ts, docs/fingerprints.md).
 * A song's lossless WAV and FLAC of the same PCM (lossless.ts) are not on the way to `completed`:
 * the song carries what makes them (`lossless.make`), which the worker runs once the job completed
 * (./masters.ts), and the job's `lossless` field follows. Publishing (upload + completion) is the
 * caller's, inside the job's transaction.
 */
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import type { EncoderBackend } from '../audio/encoder-backend.ts';
import type { EncoderPool } from '../audio/encoder-pool.ts';
import { finishMp3 } from '../audio/content-credentials.ts';
import type { SigningIdentity } from '../audio/signing-identity.ts';
import { encodeMp3 } from '../audio/mp3-encoder.ts';
import { PACK_FRAMES, createPcmHasher, encodeLossless } from '../audio/lossless.ts';
import { peaksToBytes } from '../../../core/src/fingerprint/landmarks.ts';
import { createSoundFingerprinter } from '../../../core/src/fingerprint/sound-fingerprints.ts';
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
import { fingerprintRecord } from '../../../core/src/fingerprint/encoding.ts';
import { outsideAudioRecord } from '../../../core/src/outside-audio.ts';
import type { OutsideAudio } from '../../../core/src/outside-audio.ts';

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
  /** The uploaded audio an edit keeps (core/src/outside-audio.ts), stated in its credentials; absent: none. */
  outside?: OutsideAudio;
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
  /**
   * The PCM hash and the fingerprint, read beside the MP3 encode (readBesideEncode): the time each
   * took on this thread (the PCM hash 0 for a preview, which has none), and when both were done
   * from the encode's start. The encode's window covers them unless they outlast it.
   */
  pcmHashMs: number;
  fingerprintMs: number;
  besideDoneMs: number;
  /** From the model's end until the MP3 and everything read beside it are done. */
  sideBySideMs: number;
}

/**
 * What makes a song's WAV and FLAC (lossless.ts) from its PCM, after the job completed: the
 * status shows the PCM's shape while they are made, then the files.
 */
export interface LosslessMasters {
  pcm: { sampleRate: number; channels: number; frames: number };
  make(signal: AbortSignal): Promise<LosslessFiles>;
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
  /** `0x` + SHA-256 of the song's PCM as 24-bit samples (what its WAV and FLAC hold); null for a preview. */
  pcmHash: string | null;
  /** The Chromaprint fingerprint of the PCM (core/src/fingerprint/chromaprint.ts): one 32-bit item per ~0.124 s. */
  fingerprint: Uint32Array;
  /** The landmark peaks of the PCM, raw (core/src/fingerprint/landmarks.ts), for the copy registry. */
  landmarks: Uint8Array;
  /** What makes a song's WAV and FLAC once it completed; null for a preview. */
  lossless: LosslessMasters | null;
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

/**
 * What a job completes with besides its MP3, read from the model's PCM on this thread while the
 * encoder pool encodes it: the song's PCM hash (songs only) and the fingerprints, Chromaprint and
 * landmarks (every song and preview). One pass, a second of audio at a time, with the event
 * loop's turn between seconds.
 */
async function readBesideEncode(
  pcm: PcmAudio,
  withPcmHash: boolean,
  signal: AbortSignal,
): Promise<{
  pcmHash: string | null;
  fingerprint: Uint32Array;
  landmarks: Uint8Array;
  pcmHashMs: number;
  fingerprintMs: number;
  doneMs: number;
}> {
  const started = performance.now();
  const frames = pcm.channels[0]?.length ?? 0;
  const hasher = withPcmHash ? createPcmHasher(pcm.channels.length) : null;
  const fingerprinter = createSoundFingerprinter(pcm.sampleRate, pcm.channels.length);
  let pcmHashMs = 0;
  let fingerprintMs = 0;
  for (let start = 0; start < frames; start += PACK_FRAMES) {
    signal.throwIfAborted();
    const end = Math.min(frames, start + PACK_FRAMES);
    let t = performance.now();
    hasher?.update(pcm.channels, start, end);
    const hashed = performance.now();
    pcmHashMs += hashed - t;
    const block = pcm.channels.map((channel) => channel.subarray(start, end));
    fingerprinter.feed(block);
    t = performance.now();
    fingerprintMs += t - hashed;
    if (end < frames) await yieldToEventLoop();
  }
  const t = performance.now();
  const both = fingerprinter.finish();
  const fingerprint = both.chromaprint;
  const landmarks = peaksToBytes(both.landmarks);
  fingerprintMs += performance.now() - t;
  return { pcmHash: hasher?.digest() ?? null, fingerprint, landmarks, pcmHashMs, fingerprintMs, doneMs: performance.now() - started };
}

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

  await checkpoint('encode');
  await deps.enterStage?.('encode', signal);
  t = performance.now();
  const song = request.kind === 'song';
  // The MP3 runs in the encoder pool; meanwhile this thread reads the same PCM. Each side's own
  // time is measured; the window ends when both are done.
  let encodeMs = 0;
  const [mp3, beside] = await Promise.all([
    encodeMp3(pcm.channels, pcm.sampleRate, { ...deps.encoder, signal }).finally(() => (encodeMs = performance.now() - t)),
    readBesideEncode(pcm, song, signal),
  ]);
  const sideBySideMs = performance.now() - t;
  if (!mp3.ok) throw new PipelineError(mp3.error.code, mp3.error.message);
  progress(85);

  // Tags and content credentials go in before hashing: audio_hash is the hash of the served bytes.
  t = performance.now();
  const provenance = {
    jobId: request.jobId,
    kind: request.kind,
    prompt: request.prompt,
    seed: request.seed,
    model: { name: model.name, version: model.version, licence: model.licence },
    // The fingerprint's compact form goes into the content credentials, its items onto the job's row.
    fingerprint: fingerprintRecord(beside.fingerprint),
    outsideAudio: outsideAudioRecord(request.outside?.spans ?? []),
    ...(request.edit === undefined ? {} : { editOf: request.edit.source }),
  };
  const finished = await finishMp3(mp3.value.bytes, provenance, deps.signingIdentity);
  const credentialsMs = performance.now() - t;

  // The masters: the PCM the MP3 was just encoded from, losslessly, with the same credentials,
  // made when the worker asks (after completion).
  const lossless: LosslessMasters | null = song
    ? {
        pcm: { sampleRate: pcm.sampleRate, channels: pcm.channels.length, frames: expectedSamples },
        make: (mastersSignal) => encodeLossless(pcm.channels, pcm.sampleRate, provenance, deps.signingIdentity, mastersSignal),
      }
    : null;

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
    pcmHash: beside.pcmHash,
    fingerprint: beside.fingerprint,
    landmarks: beside.landmarks,
    lossless,
    timings: {
      lyricsMs,
      modelMs,
      encodeMs,
      credentialsMs,
      hashMs,
      pcmHashMs: beside.pcmHashMs,
      fingerprintMs: beside.fingerprintMs,
      besideDoneMs: beside.doneMs,
      sideBySideMs,
    },
  };
}
