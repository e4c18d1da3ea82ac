/**
 * A `PcmSink` (./pcm-stream.ts) that turns an upload into an edit's working format while it is
 * decoded (issue 49 item 5): each block is down-mixed to the working channel count and resampled
 * to the working rate at once, so what is kept is the working format only, never the decoded
 * channels at the source rate. A 192 kHz 8-channel FLAC of 30 s kept as stereo at 48 kHz holds
 * 11.5 MB, where keeping what it decodes to held 184 MB.
 *
 * Memory: the output (`channels x rate x 4` bytes per second kept, `WORKING_BYTES_PER_SECOND` at
 * stereo 48 kHz) allocated once at `start`, plus one mixed block at the source rate per working
 * channel (the decoder's block size, reused). Down-mix: mono sources are copied to every working
 * channel; otherwise working channel `w` is the mean of the source channels `c` with
 * `c % workingChannels == w` (stereo: left from the even, right from the odd ones, so L/R of a
 * 5.1 or 7.1 layout stay left and right). Resampling: down, each output sample is the mean of the
 * source samples in its period (a box filter, which keeps aliasing below what an edit's model
 * hears at its own rate); up, linear between neighbours.
 */
import { ok } from '../result.ts';
import type { Result } from '../result.ts';
import type { DecodeBudget, PcmFormat, PcmSink } from './pcm-stream.ts';
import { decodeAudioStream } from './uploaded-audio.ts';
import type { AudioDecodeError, DecodedAudio } from './uploaded-audio.ts';

/** What an edit works at. */
export interface WorkingFormat {
  sampleRate: number;
  channels: number;
  /** Seconds kept from the start (an edit works on whole seconds); the rest is decoded and dropped. */
  keepSeconds: number;
}

/** Bytes kept per second of an edit's source at stereo 48 kHz, 32-bit float: the documented bound (docs/inference.md). */
export const WORKING_BYTES_PER_SECOND = 2 * 48_000 * 4;

export interface WorkingFormatSink extends PcmSink {
  /** The kept audio at the working rate and channel count (valid once the decode ended). */
  channels(): Float32Array[];
  /** The source's format, as the decoder started it (undefined before). */
  source(): PcmFormat | undefined;
  /** Bytes this sink allocated, output and scratch together (the test's and benchmark's measure). */
  allocatedBytes(): number;
}

export function workingFormatSink(target: WorkingFormat): WorkingFormatSink {
  const outFrames = Math.max(0, Math.floor(target.keepSeconds * target.sampleRate));
  const out = Array.from({ length: target.channels }, () => new Float32Array(outFrames));
  let allocated = out.length * outFrames * 4;
  let format: PcmFormat | undefined;
  let mixed: Float32Array[] = [];
  /** Source samples per output sample. */
  let ratio = 1;
  /** Source samples seen so far (per channel). */
  let seen = 0;
  /** Output samples written so far. */
  let written = 0;
  /** Downsampling: the running sum of the current output period, and its count. */
  const sums = new Float64Array(target.channels);
  let counted = 0;
  /** Upsampling: the previous source sample per working channel. */
  const previous = new Float32Array(target.channels);

  function mix(channels: readonly Float32Array[], frames: number): void {
    const sources = channels.length;
    for (let w = 0; w < target.channels; w += 1) {
      const into = mixed[w] as Float32Array;
      if (sources === 1) {
        into.set((channels[0] as Float32Array).subarray(0, frames));
        continue;
      }
      let members = 0;
      into.fill(0, 0, frames);
      for (let c = w % sources; c < sources; c += target.channels) {
        const channel = channels[c] as Float32Array;
        for (let i = 0; i < frames; i += 1) into[i] = (into[i] as number) + (channel[i] as number);
        members += 1;
      }
      if (members > 1) for (let i = 0; i < frames; i += 1) into[i] = (into[i] as number) / members;
    }
  }

  return {
    start(started) {
      format = started;
      ratio = started.sampleRate / target.sampleRate;
    },
    block(channels, frames) {
      if (written >= outFrames) return;
      if (mixed.length === 0 || (mixed[0] as Float32Array).length < frames) {
        mixed = Array.from({ length: target.channels }, () => new Float32Array(frames));
        allocated += target.channels * frames * 4;
      }
      mix(channels, frames);
      if (ratio >= 1) {
        // Each output sample k averages the source samples n with floor(n / ratio) == k.
        for (let i = 0; i < frames && written < outFrames; i += 1) {
          const k = Math.floor((seen + i) / ratio);
          if (k > written && counted > 0) {
            for (let w = 0; w < target.channels; w += 1) {
              (out[w] as Float32Array)[written] = (sums[w] as number) / counted;
              sums[w] = 0;
            }
            counted = 0;
            written += 1;
            if (written >= outFrames) break;
          }
          for (let w = 0; w < target.channels; w += 1) sums[w] = (sums[w] as number) + ((mixed[w] as Float32Array)[i] as number);
          counted += 1;
        }
      } else {
        // Output sample k sits at source position k x ratio, between samples floor and floor + 1.
        for (let i = 0; i < frames; i += 1) {
          const n = seen + i;
          for (; written < outFrames; written += 1) {
            const position = written * ratio;
            if (position > n) break;
            const fraction = position - (n - 1);
            for (let w = 0; w < target.channels; w += 1) {
              const current = (mixed[w] as Float32Array)[i] as number;
              const before = n === 0 ? current : (previous[w] as number);
              (out[w] as Float32Array)[written] = before + (current - before) * Math.max(0, fraction);
            }
          }
          for (let w = 0; w < target.channels; w += 1) previous[w] = (mixed[w] as Float32Array)[i] as number;
        }
      }
      seen += frames;
    },
    channels() {
      // The last period of a downsampled stream ends with the stream.
      if (ratio >= 1 && counted > 0 && written < outFrames) {
        for (let w = 0; w < target.channels; w += 1) (out[w] as Float32Array)[written] = (sums[w] as number) / counted;
        counted = 0;
        written += 1;
      }
      // The last output samples of an upsampled stream sit past its last source sample: they hold it.
      for (const end = Math.min(outFrames, Math.round(seen / ratio)); ratio < 1 && written < end; written += 1) {
        for (let w = 0; w < target.channels; w += 1) (out[w] as Float32Array)[written] = previous[w] as number;
      }
      return out.map((channel) => channel.subarray(0, written));
    },
    source: () => format,
    allocatedBytes: () => allocated,
  };
}

/**
 * Decodes an upload under `budget` straight into `target`'s rate and channels (the edit's working
 * format): the samples at the source rate are never kept. `sampleRate` of the answer is the
 * working rate.
 */
export async function decodeToWorkingFormat(
  bytes: Uint8Array,
  budget: DecodeBudget,
  target: WorkingFormat,
): Promise<Result<DecodedAudio, AudioDecodeError>> {
  const sink = workingFormatSink(target);
  const decoded = await decodeAudioStream(bytes, budget, sink);
  if (!decoded.ok) return decoded;
  const channels = sink.channels();
  return ok({ format: decoded.value.format, sampleRate: target.sampleRate, channels, frames: channels[0]?.length ?? 0 });
}
