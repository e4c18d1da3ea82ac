/**
 * What the pipeline runs: a song model turns prompt, lyrics, seed and duration into PCM. Three
 * model directory layouts implement it (see ./load-song-model.ts): a Songmint manifest over one
 * ONNX graph (the built-in model), the public MusicGen ONNX export, and an ACE-Step 1.5 export
 * with `songmint-acestep.json`.
 */
import type { Result } from '../../../core/src/result.ts';
import type { EditParameters, EditSupport } from '../../../core/src/song-edits.ts';
import type { Device } from './device.ts';
import type { ModelLicence } from './licence.ts';
import type { PcmAudio } from './runtime.ts';

export interface SongModelRequest {
  prompt: string;
  /** The lyrics the song is about (given or generated), or null. */
  lyrics: string | null;
  seed: bigint;
  durationSeconds: number;
  steps: number;
}

export interface RenderedSong {
  pcm: PcmAudio;
  /** What the prompt set, for logs: conditioning fields, or the text the model was conditioned on. */
  conditioning: Readonly<Record<string, number | string>>;
  matchedWords: readonly string[];
  /** Model time spent on tokens, for the benchmark: tokens generated (0 for a one-pass graph). */
  tokens: number;
  /**
   * The song's final latents as a kept-latents object (./kept-latents.ts), stored privately
   * beside the audio so an edit can start from them; null for a model that cannot edit.
   */
  kept: Uint8Array | null;
}

/** An edit: the new material's request (prompt, lyrics, the edit job's seed, the result's seconds) and its source. */
export interface SongEditRequest extends SongModelRequest {
  edit: EditParameters;
  /** The source song's kept-latents object (what its `render` or `edit` returned as `kept`). */
  sourceKept: Uint8Array;
}

export type ModelFormat = 'songmint-onnx' | 'musicgen-onnx' | 'acestep-onnx';

export interface SongModel {
  readonly format: ModelFormat;
  readonly name: string;
  readonly version: string;
  readonly licence: ModelLicence;
  readonly device: Device;
  readonly fallbackReason: string | undefined;
  /** The `steps` values jobs may ask for. */
  readonly steps: readonly number[];
  /** Sample rate of the PCM `render` returns. */
  readonly sampleRate: number;
  /**
   * Whether the model sings the lyrics it is given (a voice with the words), or makes an
   * instrumental that only follows them. Reported in the worker's heartbeat; the API and the app
   * promise sung lyrics only when every live worker's model sings. ACE-Step: true; the built-in
   * model and MusicGen: false.
   */
  readonly sings: boolean;
  /** Renders exactly `durationSeconds x sampleRate` samples per channel; `progress` gets 0..1. */
  render(request: SongModelRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong>;
  /** Per edit task: null when `edit` can run it, else what the model lacks. */
  readonly editSupport: EditSupport;
  /**
   * Renders an edit of a song this model made, `durationSeconds x sampleRate` samples: outside
   * the edited range the source's samples (blended over a few frames at the edges where the model
   * works in latents), inside it new material from `seed`. Throws `EditUnsupportedError` for a
   * task `editSupport` names a lack for, or a source another model made.
   */
  edit(request: SongEditRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong>;
  /**
   * Null when `importAudio` can turn audio a person uploaded into a source for `edit`; else what
   * the model lacks (ACE-Step: a VAE encoder graph), shown in the refusal.
   */
  readonly importSupport: string | null;
  /**
   * The kept-latents object of uploaded audio (any rate, one or two channels: the model resamples
   * and encodes it), which `edit` then takes as `sourceKept` as if the model had made the song.
   * Throws `EditUnsupportedError` when `importSupport` names a lack.
   */
  importAudio(pcm: PcmAudio, signal: AbortSignal): Promise<Uint8Array>;
  release(): Promise<void>;
}

export type LoadSongModelResult = Result<SongModel>;

/** An edit the loaded model cannot run; the message says what it lacks. */
export class EditUnsupportedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditUnsupportedError';
  }
}

/** `editSupport` of a model that keeps no latents (MusicGen): every task names `lack`. */
export function noEdits(lack: string): EditSupport {
  return { extend: lack, repaint: lack, remix: lack };
}
