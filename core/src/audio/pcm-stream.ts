/**
 * The streaming shape of the upload decoders (./uploaded-audio.ts and the decoder of each format):
 * a decoder hands its PCM out block by block to a `PcmSink` and keeps none of it, under a
 * `DecodeBudget` it checks inside its frame loop, so a stream that would decode to more than the
 * budget is refused after at most one block past it, whatever its headers claim.
 *
 * The budget is the caller's longest allowed duration (an upload: the caller's tier maximum) at
 * the stream's own rate, per channel; the rate must lie in `MIN_UPLOAD_RATE`..`MAX_UPLOAD_RATE`
 * and the channels in 1..`MAX_UPLOAD_CHANNELS`, as the frames carry them (a frame that disagrees
 * with the stream's header is refused, never padded or resampled).
 */
import { fail } from '../result.ts';
import type { Result } from '../result.ts';

export const UPLOAD_FORMATS = ['wav', 'flac', 'mp3'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** At most this many channels (7.1); the models down-mix to their own. */
export const MAX_UPLOAD_CHANNELS = 8;
/** Sample rates taken, in Hz, for every format. */
export const MIN_UPLOAD_RATE = 8000;
export const MAX_UPLOAD_RATE = 192_000;

/** What a stream is, as its frames carry it. */
export interface PcmFormat {
  format: UploadFormat;
  sampleRate: number;
  channels: number;
}

/**
 * Where a decoder hands its PCM: `start` once, before the first block, then `block` for each
 * decoded block in order. The arrays of a block are the decoder's and are reused for the next
 * one: a sink copies what it keeps.
 */
export interface PcmSink {
  start(format: PcmFormat): void;
  /** One Float32Array per channel, `frames` samples each, in [-1, 1]. */
  block(channels: readonly Float32Array[], frames: number): void;
}

/** A sink that keeps nothing (a probe: what the stream is and how long). */
export const DISCARD: PcmSink = { start: () => {}, block: () => {} };

/**
 * What a decode may cost: its longest duration, in seconds (per channel, at the stream's rate),
 * and, checked between blocks while it runs, a wall-clock deadline and a stop flag.
 */
export interface DecodeBudget {
  maxSeconds: number;
  /**
   * Epoch milliseconds by which the decode must have ended (`timed_out` past it). The prober
   * (./audio-prober.ts) sets it when a thread starts the decode, and ends a thread that goes on
   * well past it.
   */
  deadline?: number;
  /** Set to non-zero (element 0) by the caller to stop the decode (`cancelled`): the thread is told through shared memory. */
  stop?: Int32Array;
}

/** What a whole stream decoded to. */
export interface AudioSummary extends PcmFormat {
  /** Samples per channel. */
  frames: number;
}

/**
 * - `not_audio`: none of the formats; `unsupported`: one of them, in an encoding, rate, channel
 *   count or shape not taken; `undecodable`: one of them but broken (a frame that contradicts
 *   the stream's header included);
 * - `too_long`: longer than the budget (`seconds`: how much decoded before it stopped, or what
 *   the header declared), decoding stopped there;
 * - `exhausted`: the decode thread ran out of its memory limit (./audio-prober.ts);
 * - `timed_out`: the decode went past its budget's `deadline`;
 * - `cancelled`: the caller stopped it (`stop`, or its AbortSignal: the client left);
 * - `busy`: the prober's queue (or the caller's share of it) is full; nothing was decoded.
 */
export type AudioDecodeErrorCode =
  'not_audio' | 'unsupported' | 'undecodable' | 'too_long' | 'exhausted' | 'timed_out' | 'cancelled' | 'busy';

export interface AudioDecodeError {
  code: AudioDecodeErrorCode;
  message: string;
  /** `too_long`: at least this many seconds. */
  seconds?: number;
}

export type DecodeResult = Result<AudioSummary, AudioDecodeError>;

export const refuse = (code: Exclude<AudioDecodeErrorCode, 'too_long'>, message: string): { ok: false; error: AudioDecodeError } =>
  fail({ code, message });

/** The most frames per channel `budget` allows at `sampleRate` (a stream of exactly that many is taken). */
export function frameBudget(budget: DecodeBudget, sampleRate: number): number {
  return Math.floor(budget.maxSeconds * sampleRate);
}

/** `too_long`: `frames` (or more) at `sampleRate` were decoded, or the stream's header declares them. */
export function tooLong(
  what: string,
  frames: number,
  sampleRate: number,
  budget: DecodeBudget,
  how: 'decoded' | 'declared' = 'decoded',
): { ok: false; error: AudioDecodeError } {
  const seconds = frames / sampleRate;
  const rounded = Math.round(seconds * 1000) / 1000;
  return fail({
    code: 'too_long',
    message: `${what}: longer than ${budget.maxSeconds} s (${how === 'declared' ? `it declares ${rounded} s` : `decoding stopped after ${rounded} s`})`,
    seconds,
  });
}

/**
 * Null while the decode may go on, else why it stops: its caller set `stop`, or it went past its
 * `deadline`. Every decoder calls it between blocks (and while it reads), so a decode stops
 * within one block of either.
 */
export function interrupted(what: string, budget: DecodeBudget): { ok: false; error: AudioDecodeError } | null {
  if (budget.stop !== undefined && Atomics.load(budget.stop, 0) !== 0) return refuse('cancelled', `${what}: the decode was cancelled`);
  if (budget.deadline !== undefined && Date.now() > budget.deadline) {
    return refuse('timed_out', `${what}: decoding took longer than its time budget`);
  }
  return null;
}

/** Null when `rate` and `channels` are taken, else why not (`unsupported`). */
export function checkShape(what: string, sampleRate: number, channels: number): { ok: false; error: AudioDecodeError } | null {
  if (!Number.isInteger(sampleRate) || sampleRate < MIN_UPLOAD_RATE || sampleRate > MAX_UPLOAD_RATE) {
    return refuse('unsupported', `${what}: a sample rate of ${sampleRate} Hz (taken: ${MIN_UPLOAD_RATE} to ${MAX_UPLOAD_RATE} Hz)`);
  }
  if (channels < 1 || channels > MAX_UPLOAD_CHANNELS)
    return refuse('unsupported', `${what}: ${channels} channels (taken: 1 to ${MAX_UPLOAD_CHANNELS})`);
  return null;
}

/** One sink that hands every block to each of `sinks` in turn (a probe and an analysis of the same pass). */
export function teeSinks(...sinks: PcmSink[]): PcmSink {
  return {
    start: (format) => sinks.forEach((sink) => sink.start(format)),
    block: (channels, frames) => sinks.forEach((sink) => sink.block(channels, frames)),
  };
}
