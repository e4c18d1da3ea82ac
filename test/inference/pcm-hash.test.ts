/**
 * A song's PCM hash and its WAV's samples (inference/src/audio/lossless.ts) against a reference
 * written the plain way: `Math.round`, clipping, Node's `Buffer.writeIntLE` for each 24-bit sample.
 * The packing writes stereo as 32-bit words; these cases cover what that could get wrong: odd
 * frame counts, samples past full scale, negative values across the word boundaries, a block
 * boundary, and the byte-wise path for mono and three channels.
 */
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PACK_FRAMES, pcmHashOf, quantizePcm } from '../../inference/src/audio/lossless.ts';

const FULL_SCALE = 2 ** 23;

function referenceS24(channels: readonly Float32Array[]): Buffer {
  const frames = channels[0]?.length ?? 0;
  const out = Buffer.alloc(frames * channels.length * 3);
  for (let i = 0; i < frames; i += 1) {
    channels.forEach((channel, c) => {
      const v = Math.min(FULL_SCALE - 1, Math.max(-FULL_SCALE, Math.round((channel[i] as number) * FULL_SCALE)));
      out.writeIntLE(v, (i * channels.length + c) * 3, 3);
    });
  }
  return out;
}

/** Deterministic PCM with every awkward value: past full scale, exact halves, tiny negatives. */
function awkwardPcm(channelCount: number, frames: number): Float32Array[] {
  let state = 12345 + channelCount;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const specials = [1, -1, 1.5, -1.5, 0.5 / FULL_SCALE, -0.5 / FULL_SCALE, -1 / FULL_SCALE, 0, -0, 0.99999994];
  return Array.from({ length: channelCount }, (_, c) =>
    Float32Array.from({ length: frames }, (_, i) => (i % 7 === c ? (specials[(i + c) % specials.length] as number) : next() * 2.2 - 1.1)),
  );
}

describe('inference: the PCM hash and the masters pack 24-bit samples exactly', () => {
  for (const [channelCount, frames] of [
    [2, 1],
    [2, 7],
    [2, PACK_FRAMES + 3],
    [1, 1001],
    [3, 999],
  ] as const) {
    it(`${channelCount} channel(s), ${frames} frames`, async () => {
      const pcm = awkwardPcm(channelCount, frames);
      const reference = referenceS24(pcm);
      assert.equal(await pcmHashOf(pcm), `0x${createHash('sha256').update(reference).digest('hex')}`);
      const quantized = await quantizePcm(pcm, 48_000);
      const ints = Int32Array.from({ length: reference.length / 3 }, (_, k) => reference.readIntLE(k * 3, 3));
      assert.deepEqual(quantized.interleaved, ints, 'the integers libFLAC gets are the same samples');
    });
  }
});
