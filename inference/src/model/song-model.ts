/**
 * What the pipeline runs: a song model turns prompt, lyrics, seed and duration into PCM. Three
 * model directory layouts implement it (see ./load-song-model.ts): a Songmint manifest over one
 * ONNX graph (the built-in model), the public MusicGen ONNX export, and an ACE-Step 1.5 export
 * with `songmint-acestep.json`.
 */
import type { Result } from '../../../core/src/result.ts';
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
  /** Renders exactly `durationSeconds x sampleRate` samples per channel; `progress` gets 0..1. */
  render(request: SongModelRequest, signal: AbortSignal, progress?: (fraction: number) => void): Promise<RenderedSong>;
  release(): Promise<void>;
}

export type LoadSongModelResult = Result<SongModel>;
