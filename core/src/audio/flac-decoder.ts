/**
 * FLAC uploads (./uploaded-audio.ts) through libFLAC (./libflac.ts): 16 or 24 bits per sample,
 * handed out frame by frame. Inside libFLAC's frame loop (its write callback, whose `false`
 * aborts the decoder) every frame is checked against the STREAMINFO block before its samples go
 * anywhere: the same channel count, rate and depth (a frame that disagrees is refused, never
 * padded), and the frames so far within the budget at the stream's rate. STREAMINFO's
 * `total_samples` is not trusted: 0 (unknown) decodes under the same budget, a declared length
 * over the budget is refused before the first frame, and libFLAC is given a copy of STREAMINFO
 * with the field cleared, so that it decodes every frame there is rather than stop at the declared
 * count: a stream whose frames carry another length than it declares is refused, never taken as
 * the declared length with the rest stored unseen. The budget's deadline and stop flag are
 * checked at each read and each frame. The samples are checked against the
 * stream's MD5 signature as they pass, so a stream decoded wrongly is refused, never edited.
 */
import { createHash } from 'node:crypto';
import { ok } from '../result.ts';
import { loadLibFlac } from './libflac.ts';
import type { FlacBlockInfo, FlacStreamInfo } from './libflac.ts';
import { DISCARD, checkShape, frameBudget, interrupted, refuse, tooLong } from './pcm-stream.ts';
import type { AudioDecodeError, DecodeBudget, DecodeResult, PcmSink } from './pcm-stream.ts';

/** Bytes handed to libFLAC per read (it decodes the frames they complete before the next read). */
const READ_BYTES = 16 * 1024;

/** Where STREAMINFO's 36-bit `total_samples` lies: the low nibble of byte 21 and bytes 22 to 25 (after `fLaC` and the block header). */
const TOTAL_SAMPLES_AT = 21;
const TOTAL_SAMPLES_END = 26;

/** The `total_samples` STREAMINFO declares (0: unknown, or no STREAMINFO first). */
function declaredTotalSamples(bytes: Uint8Array): number {
  if (bytes.length < TOTAL_SAMPLES_END || ((bytes[4] as number) & 0x7f) !== 0) return 0;
  const high = (bytes[TOTAL_SAMPLES_AT] as number) & 0x0f;
  const low = new DataView(bytes.buffer, bytes.byteOffset + TOTAL_SAMPLES_AT + 1, 4).getUint32(0);
  return high * 2 ** 32 + low;
}

/** `chunk` (read from `offset`) with STREAMINFO's `total_samples` cleared where it covers it: a copy, never the upload itself. */
function withoutTotalSamples(chunk: Uint8Array, offset: number): Uint8Array {
  if (offset >= TOTAL_SAMPLES_END || offset + chunk.length <= TOTAL_SAMPLES_AT) return chunk;
  const copy = chunk.slice();
  for (let at = Math.max(TOTAL_SAMPLES_AT, offset); at < Math.min(TOTAL_SAMPLES_END, offset + chunk.length); at += 1) {
    copy[at - offset] = at === TOTAL_SAMPLES_AT ? (copy[at - offset] as number) & 0xf0 : 0;
  }
  return copy;
}

/** Why a stream is refused, found inside a callback (which can only stop the decoder). */
type Refusal = { ok: false; error: AudioDecodeError };

/** Decodes a FLAC stream (`bytes` from its `fLaC` marker on). */
export async function decodeFlac(bytes: Uint8Array, budget: DecodeBudget, sink: PcmSink = DISCARD): Promise<DecodeResult> {
  const flac = await loadLibFlac();
  const decoder = flac.create_libflac_decoder(false);
  if (decoder === 0) throw new Error('libFLAC could not create a decoder');
  let info: FlacStreamInfo | undefined;
  let refusal: Refusal | undefined;
  let frames = 0;
  let limit = 0;
  let frameIndex = 0;
  let checkSignature = false;
  const md5 = createHash('md5');
  let channels: Float32Array[] = [];
  let read = 0;
  const declared = declaredTotalSamples(bytes);

  /** The first frame: STREAMINFO must be there and taken; the sink learns the stream's shape. */
  const begin = (stream: FlacStreamInfo | undefined): Refusal | undefined => {
    if (stream === undefined) return refuse('undecodable', 'FLAC: no STREAMINFO before the first frame');
    if (stream.bitsPerSample !== 16 && stream.bitsPerSample !== 24) {
      return refuse('unsupported', `FLAC: ${stream.bitsPerSample} bits per sample is not supported (16 or 24)`);
    }
    const shape = checkShape('FLAC', stream.sampleRate, stream.channels);
    if (shape !== null) return shape;
    limit = frameBudget(budget, stream.sampleRate);
    // An unset signature is all zeros; a set one must match what is decoded.
    checkSignature = !/^0+$/.test(stream.md5sum);
    if (declared > limit) return tooLong('FLAC', declared, stream.sampleRate, budget, 'declared');
    sink.start({ format: 'flac', sampleRate: stream.sampleRate, channels: stream.channels });
    return undefined;
  };

  /** One frame: checked against STREAMINFO and the budget, then hashed and handed out. */
  const frame = (data: Uint8Array[], block: FlacBlockInfo): Refusal | undefined => {
    if (frameIndex === 0) {
      const refused = begin(info);
      if (refused !== undefined) return refused;
    }
    const stream = info as FlacStreamInfo;
    frameIndex += 1;
    const stopped = interrupted('FLAC', budget);
    if (stopped !== null) return stopped;
    if (block.channels !== stream.channels || data.length !== stream.channels) {
      return refuse('undecodable', `FLAC: frame ${frameIndex} carries ${block.channels} channels, the stream ${stream.channels}`);
    }
    if (block.sampleRate !== stream.sampleRate) {
      return refuse('undecodable', `FLAC: frame ${frameIndex} is at ${block.sampleRate} Hz, the stream at ${stream.sampleRate} Hz`);
    }
    if (block.bitsPerSample !== stream.bitsPerSample) {
      return refuse(
        'undecodable',
        `FLAC: frame ${frameIndex} has ${block.bitsPerSample} bits per sample, the stream ${stream.bitsPerSample}`,
      );
    }
    frames += block.blocksize;
    if (frames > limit) return tooLong('FLAC', frames, stream.sampleRate, budget);
    if ((channels[0]?.length ?? 0) < block.blocksize) channels = data.map(() => new Float32Array(block.blocksize));
    const outs = channels.map((channel) => channel.subarray(0, block.blocksize));
    toFloat(data, block, outs);
    if (checkSignature) md5.update(signatureBytes(data, block));
    sink.block(outs, block.blocksize);
    return undefined;
  };

  try {
    const status = flac.init_decoder_stream(
      decoder,
      (wanted) => {
        // Metadata blocks are read without a frame callback: the budget is checked here too.
        refusal ??= interrupted('FLAC', budget) ?? undefined;
        if (refusal !== undefined) return { buffer: new Uint8Array(0), readDataLength: 0, error: true };
        const end = Math.min(bytes.length, read + Math.min(wanted, READ_BYTES));
        const buffer = withoutTotalSamples(bytes.subarray(read, end), read);
        read = end;
        return { buffer, readDataLength: buffer.length, error: false };
      },
      (data, block) => {
        refusal ??= frame(data, block);
        // false aborts libFLAC's frame loop.
        return refusal === undefined;
      },
      (_code, description) => {
        refusal ??= refuse('undecodable', `FLAC: ${description}`);
      },
      (metadata) => {
        if (metadata !== undefined) info = metadata;
      },
    );
    if (status !== 0) return refuse('undecodable', `FLAC: the decoder did not start (status ${status})`);
    const decoded = flac.FLAC__stream_decoder_process_until_end_of_stream(decoder);
    flac.FLAC__stream_decoder_finish(decoder);
    if (refusal !== undefined) return refusal;
    if (!decoded) return refuse('undecodable', 'FLAC: the stream does not decode');
    if (frameIndex === 0) {
      const refused = begin(info);
      if (refused !== undefined) return refused;
    }
  } finally {
    flac.FLAC__stream_decoder_delete(decoder);
  }
  const stream = info as FlacStreamInfo;
  if (declared !== 0 && declared !== frames) {
    return refuse('undecodable', `FLAC: ${frames} samples decoded, the stream declares ${declared}`);
  }
  if (checkSignature && md5.digest('hex') !== stream.md5sum) {
    return refuse('undecodable', 'FLAC: the decoded samples do not match the MD5 signature of the stream');
  }
  return ok({ format: 'flac', sampleRate: stream.sampleRate, channels: stream.channels, frames });
}

/**
 * One frame's samples as floats in `outs`. libflacjs hands 16-bit samples as int16 and 24-bit
 * ones as int32, little-endian, each channel in a fresh buffer (so the views are aligned).
 */
function toFloat(data: Uint8Array[], block: FlacBlockInfo, outs: Float32Array[]): void {
  const n = block.blocksize;
  for (const [c, bytes] of data.entries()) {
    const out = outs[c] as Float32Array;
    if (block.bitsPerSample === 16) {
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, n);
      for (let i = 0; i < n; i += 1) out[i] = (samples[i] as number) / 0x8000;
    } else {
      const samples = new Int32Array(bytes.buffer, bytes.byteOffset, n);
      for (let i = 0; i < n; i += 1) out[i] = (samples[i] as number) / 0x800000;
    }
  }
}

/**
 * One frame's part of FLAC's MD5 signature: the interleaved samples, little-endian, in whole
 * bytes of the stream's depth (2 or 3).
 */
function signatureBytes(data: Uint8Array[], block: FlacBlockInfo): Uint8Array {
  const n = block.blocksize;
  const count = data.length;
  const width = block.bitsPerSample === 16 ? 2 : 3;
  const signature = new Uint8Array(n * count * width);
  const step = count * width;
  for (const [c, bytes] of data.entries()) {
    if (width === 2) {
      // The int16 samples' own bytes, already little-endian.
      for (let i = 0, at = c * 2; i < n; i += 1, at += step) {
        signature[at] = bytes[i * 2] as number;
        signature[at + 1] = bytes[i * 2 + 1] as number;
      }
    } else {
      for (let i = 0, at = c * 3; i < n; i += 1, at += step) {
        signature[at] = bytes[i * 4] as number;
        signature[at + 1] = bytes[i * 4 + 1] as number;
        signature[at + 2] = bytes[i * 4 + 2] as number;
      }
    }
  }
  return signature;
}
