/**
 * RIFF/WAVE uploads (./uploaded-audio.ts): integer PCM of 16, 24 or 32 bits and IEEE float of 32
 * bits, plain or WAVE_FORMAT_EXTENSIBLE; the `fmt ` chunk, then the `data` chunk's samples (a
 * streamed file's unset sizes read to the end). The data chunk's size says how long the stream is
 * before any sample is read, so a WAV over the budget is refused without decoding one; the rest is
 * handed out `BLOCK_FRAMES` at a time.
 */
import { ok } from '../result.ts';
import { DISCARD, checkShape, frameBudget, interrupted, refuse, tooLong } from './pcm-stream.ts';
import type { DecodeBudget, DecodeResult, PcmSink } from './pcm-stream.ts';

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** Frames per block handed to the sink. */
const BLOCK_FRAMES = 8192;

interface WavFormat {
  tag: number;
  channels: number;
  sampleRate: number;
  bits: number;
  blockAlign: number;
}

const ascii = (bytes: Uint8Array, at: number, length: number): string => Buffer.from(bytes.subarray(at, at + length)).toString('latin1');

/** Decodes a RIFF/WAVE file (`bytes` from its `RIFF` header on). */
export function decodeWav(bytes: Uint8Array, budget: DecodeBudget, sink: PcmSink = DISCARD): DecodeResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: WavFormat | null = null;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const declared = view.getUint32(at + 4, true);
    const size = Math.min(declared, bytes.length - at - 8);
    if (id === 'fmt ') {
      if (size < 16) return refuse('undecodable', 'WAV: the fmt chunk is too short');
      let tag = view.getUint16(at + 8, true);
      if (tag === WAVE_FORMAT_EXTENSIBLE && size >= 40) tag = view.getUint16(at + 8 + 24, true);
      fmt = {
        tag,
        channels: view.getUint16(at + 10, true),
        sampleRate: view.getUint32(at + 12, true),
        blockAlign: view.getUint16(at + 20, true),
        bits: view.getUint16(at + 22, true),
      };
    } else if (id === 'data') {
      if (fmt === null) return refuse('undecodable', 'WAV: the data chunk comes before the fmt chunk');
      return wavSamples(bytes, at + 8, size, fmt, budget, sink);
    }
    at += 8 + size + (size % 2);
  }
  return refuse('undecodable', fmt === null ? 'WAV: no fmt chunk' : 'WAV: no data chunk');
}

function wavSamples(bytes: Uint8Array, start: number, size: number, fmt: WavFormat, budget: DecodeBudget, sink: PcmSink): DecodeResult {
  const float = fmt.tag === WAVE_FORMAT_IEEE_FLOAT && fmt.bits === 32;
  const integer = fmt.tag === WAVE_FORMAT_PCM && (fmt.bits === 16 || fmt.bits === 24 || fmt.bits === 32);
  if (!float && !integer) {
    return refuse('unsupported', `WAV: format ${fmt.tag} with ${fmt.bits} bits is not supported (16, 24 or 32-bit PCM, 32-bit float)`);
  }
  const shape = checkShape('WAV', fmt.sampleRate, fmt.channels);
  if (shape !== null) return shape;
  const width = fmt.bits / 8;
  if (fmt.blockAlign !== width * fmt.channels) return refuse('undecodable', `WAV: block align ${fmt.blockAlign} does not fit the format`);
  const frames = Math.floor(size / fmt.blockAlign);
  if (frames > frameBudget(budget, fmt.sampleRate)) return tooLong('WAV', frames, fmt.sampleRate, budget, 'declared');

  sink.start({ format: 'wav', sampleRate: fmt.sampleRate, channels: fmt.channels });
  const channels = Array.from({ length: fmt.channels }, () => new Float32Array(Math.min(BLOCK_FRAMES, frames)));
  // Each block's bytes are copied to an aligned scratch buffer, read through a typed view.
  const scratch = new ArrayBuffer(Math.min(BLOCK_FRAMES, frames) * fmt.blockAlign + 4);
  const scratchBytes = new Uint8Array(scratch);
  const int16 = new Int16Array(scratch, 0, Math.floor(scratch.byteLength / 2));
  const int32 = new Int32Array(scratch, 0, Math.floor(scratch.byteLength / 4));
  const float32 = new Float32Array(scratch, 0, Math.floor(scratch.byteLength / 4));
  const stride = fmt.channels;
  for (let first = 0; first < frames; first += BLOCK_FRAMES) {
    const stopped = interrupted('WAV', budget);
    if (stopped !== null) return stopped;
    const count = Math.min(BLOCK_FRAMES, frames - first);
    const from = start + first * fmt.blockAlign;
    scratchBytes.set(bytes.subarray(from, from + count * fmt.blockAlign));
    for (let c = 0; c < stride; c += 1) {
      const out = channels[c] as Float32Array;
      if (float) {
        for (let i = 0; i < count; i += 1) {
          const value = float32[i * stride + c] as number;
          if (!Number.isFinite(value)) return refuse('undecodable', `WAV: sample ${first + i} is not a finite number`);
          out[i] = value;
        }
      } else if (width === 2) {
        for (let i = 0; i < count; i += 1) out[i] = (int16[i * stride + c] as number) / 0x8000;
      } else if (width === 4) {
        for (let i = 0; i < count; i += 1) out[i] = (int32[i * stride + c] as number) / 0x80000000;
      } else {
        for (let i = 0; i < count; i += 1) {
          const b = (i * stride + c) * 3;
          // The top byte shifted to bit 24 and back carries the sign.
          const high = ((scratchBytes[b + 2] as number) << 24) >> 8;
          out[i] = ((scratchBytes[b] as number) | ((scratchBytes[b + 1] as number) << 8) | high) / 0x800000;
        }
      }
    }
    sink.block(count === BLOCK_FRAMES ? channels : channels.map((channel) => channel.subarray(0, count)), count);
  }
  return ok({ format: 'wav', sampleRate: fmt.sampleRate, channels: fmt.channels, frames });
}
