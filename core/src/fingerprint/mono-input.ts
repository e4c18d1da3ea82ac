/**
 * What every fingerprint reads: the channels' mean (Chromaprint's rule: AcoustID's `fpcalc`
 * averages them) resampled to the fingerprint's rate (./resample.ts), streaming. One home for the
 * blocks' checks, the down-mix and the resampling, so that Chromaprint (./chromaprint.ts), the
 * landmark peaks (./landmarks.ts) and both at once (./sound-fingerprints.ts) read the same
 * samples.
 */
import { createResampler } from './resample.ts';

export interface MonoInput {
  /** Takes the next block: one array per channel, equal lengths. */
  feed(block: readonly Float32Array[]): void;
  /** Ends the stream: hands over the samples the resampler still owes. */
  flush(): void;
}

/**
 * A stream of `channels` channels at `sampleRate` mixed down and resampled to `rate`; each run of
 * output samples goes to `take` (a view valid only during the call).
 */
export function createMonoInput(sampleRate: number, channels: number, rate: number, take: (samples: Float32Array) => void): MonoInput {
  if (!Number.isInteger(channels) || channels < 1) throw new RangeError(`${channels} channels`);
  const resampler = createResampler(sampleRate, rate);
  let mono = new Float32Array(0);
  const hand = (samples: Float32Array): void => {
    if (samples.length > 0) take(samples);
  };
  return {
    feed(block) {
      if (block.length !== channels) throw new RangeError(`expected ${channels} channels, got ${block.length}`);
      const length = block[0]?.length ?? 0;
      if (block.some((channel) => channel.length !== length)) throw new RangeError('channels of unequal length');
      if (length === 0) return;
      if (channels === 1) {
        hand(resampler.push(block[0] as Float32Array));
        return;
      }
      if (mono.length < length) mono = new Float32Array(length);
      hand(resampler.push(mixDown(block, mono)));
    },
    flush() {
      hand(resampler.flush());
    },
  };
}

/**
 * Whole PCM (`channels`, equal lengths) handed to `feed` in blocks of `blockFrames`, as a stream
 * would hand it: the fingerprints of whole sounds (benches and tests) read what a decoder's blocks
 * would give them.
 */
export function feedInBlocks(feed: (block: Float32Array[]) => void, channels: readonly Float32Array[], blockFrames: number): void {
  const frames = channels[0]?.length ?? 0;
  for (let start = 0; start < frames; start += blockFrames)
    feed(channels.map((channel) => channel.subarray(start, Math.min(frames, start + blockFrames))));
}

/** The mean of `block`'s channels (equal lengths) written into `out` (at least as long); the view written. */
function mixDown(block: readonly Float32Array[], out: Float32Array): Float32Array {
  const length = block[0]?.length ?? 0;
  const mono = out.subarray(0, length);
  if (block.length === 2) {
    const left = block[0] as Float32Array;
    const right = block[1] as Float32Array;
    for (let i = 0; i < length; i += 1) mono[i] = ((left[i] as number) + (right[i] as number)) * 0.5;
    return mono;
  }
  const scale = 1 / block.length;
  for (let i = 0; i < length; i += 1) {
    let sum = 0;
    for (const channel of block) sum += channel[i] as number;
    mono[i] = sum * scale;
  }
  return mono;
}
