/**
 * A song's lossless masters: WAV and FLAC of the exact PCM its MP3 was encoded from, at the
 * model's own sample rate (48 kHz for ACE-Step), 24-bit integer. Both files hold the same
 * samples, so they decode to identical PCM; `pcmHash` is the SHA-256 of those samples, the
 * fingerprint of the sound that one mint is allowed for (docs/minting.md, "Same sound, one mint").
 *
 * Both carry the song's signed C2PA manifest where the reference reader (c2pa-rs) looks for it:
 * WAV in a top-level `C2PA` RIFF chunk after the audio (the C2PA specification's RIFF embedding),
 * FLAC in an ID3v2 tag with a GEOB `application/c2pa` frame before the `fLaC` marker (c2pa-rs's
 * FLAC handler). The hard binding covers every other byte of each file.
 *
 * FLAC is encoded by libFLAC (libflacjs: libFLAC compiled to WebAssembly, MIT/BSD-3-Clause),
 * fed in blocks between which the event loop runs, so a worker's heartbeat and progress go on.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { loadLibFlac } from '../../../core/src/audio/libflac.ts';
import { contentHash } from '../../../core/src/content-hash.ts';
import type { SongProvenance } from './content-credentials.ts';
import { embedInId3Tag, embedManifest } from './content-credentials.ts';
import type { SigningIdentity } from './signing-identity.ts';
import { concatBytes } from './bytes.ts';
import { roundClipped } from '../../../core/src/audio/round-sample.ts';

export const LOSSLESS_BITS_PER_SAMPLE = 24;
const FULL_SCALE = 2 ** (LOSSLESS_BITS_PER_SAMPLE - 1);
const BYTES_PER_SAMPLE = LOSSLESS_BITS_PER_SAMPLE / 8;
/** libFLAC's default preset (5): about 55-60 % of the WAV's size on music. */
const FLAC_COMPRESSION_LEVEL = 5;
/** Frames handed to libFLAC at a time before the event loop gets a turn (about one second). */
const FLAC_FEED_FRAMES = 48_000;

/** The PCM of both lossless files: interleaved signed 24-bit integers. */
export interface LosslessPcm {
  sampleRate: number;
  channels: number;
  /** Samples per channel. */
  frames: number;
  interleaved: Int32Array;
}

export interface LosslessFiles {
  pcm: Pick<LosslessPcm, 'sampleRate' | 'channels' | 'frames'>;
  /** `0x` + SHA-256 of the PCM as signed 24-bit little-endian interleaved samples (the WAV's `data` chunk). */
  pcmHash: string;
  wav: Uint8Array;
  flac: Uint8Array;
}

/** Frames quantized, packed and hashed at a time before the event loop gets a turn (about one second). */
export const PACK_FRAMES = 48_000;

/**
 * Frames `[start, end)` of `channels` (float, nominally -1..1) as signed 24-bit integers, rounded
 * half up and clipped: the one rounding the hash, the WAV and the FLAC share. Written interleaved
 * as little-endian bytes into `bytes` at `offset` and, when given, as integers into `ints` (the
 * same frames' slots).
 */
function pack24(channels: readonly Float32Array[], start: number, end: number, bytes: Uint8Array, offset: number, ints?: Int32Array): void {
  const [left, right] = channels;
  if (channels.length === 2 && left !== undefined && right !== undefined && LITTLE_ENDIAN && (bytes.byteOffset + offset) % 4 === 0) {
    packStereo24(left, right, start, end, bytes, offset, ints);
    return;
  }
  const count = channels.length;
  for (let c = 0; c < count; c += 1) {
    const channel = channels[c] as Float32Array;
    let at = offset + c * BYTES_PER_SAMPLE;
    let slot = start * count + c;
    for (let i = start; i < end; i += 1, at += count * BYTES_PER_SAMPLE, slot += count) {
      const v = to24(channel[i] as number);
      bytes[at] = v;
      bytes[at + 1] = v >> 8;
      bytes[at + 2] = v >> 16;
      if (ints !== undefined) ints[slot] = v;
    }
  }
}

/** One sample to signed 24-bit: rounded half up, clipped. */
function to24(sample: number): number {
  return roundClipped(sample * FULL_SCALE, -FULL_SCALE, FULL_SCALE - 1);
}

/** Typed arrays use the host's byte order; the word stores below assume little-endian (x64, arm64). */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LOW_24 = 0xffffff;

/**
 * `pack24` for stereo into a 4-byte-aligned place: two frames (four 24-bit samples, 12 bytes) go
 * out as three 32-bit words, which V8 stores about three times faster than twelve single bytes
 * (the PCM hash of a 240 s song: about 270 -> 85 ms).
 */
function packStereo24(
  left: Float32Array,
  right: Float32Array,
  start: number,
  end: number,
  bytes: Uint8Array,
  offset: number,
  ints: Int32Array | undefined,
): void {
  const pairs = (end - start) >> 1;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + offset, pairs * 3);
  let i = start;
  for (let w = 0; w < words.length; w += 3, i += 2) {
    const a = to24(left[i] as number);
    const b = to24(right[i] as number);
    const c = to24(left[i + 1] as number);
    const d = to24(right[i + 1] as number);
    words[w] = (a & LOW_24) | (b << 24);
    words[w + 1] = ((b & LOW_24) >>> 8) | (c << 16);
    words[w + 2] = ((c & LOW_24) >>> 16) | (d << 8);
    if (ints !== undefined) {
      ints[2 * i] = a;
      ints[2 * i + 1] = b;
      ints[2 * i + 2] = c;
      ints[2 * i + 3] = d;
    }
  }
  if (i < end) {
    const at = offset + pairs * 12;
    const l = to24(left[i] as number);
    const r = to24(right[i] as number);
    bytes[at] = l;
    bytes[at + 1] = l >> 8;
    bytes[at + 2] = l >> 16;
    bytes[at + 3] = r;
    bytes[at + 4] = r >> 8;
    bytes[at + 5] = r >> 16;
    if (ints !== undefined) {
      ints[2 * i] = l;
      ints[2 * i + 1] = r;
    }
  }
}

/**
 * The `pcmHash` of a song's masters, fed a range of frames at a time: `0x` + SHA-256 of the
 * samples as signed 24-bit little-endian interleaved (the WAV's `data` chunk), without making
 * either file. It is what a song completes with (the mint check's key), read beside the MP3
 * encode (inference/src/worker/pipeline.ts), while the masters are made after completion.
 */
export interface PcmHasher {
  /** Frames `[start, end)` of `channels`, in order, at most `PACK_FRAMES` at a time. */
  update(channels: readonly Float32Array[], start: number, end: number): void;
  digest(): string;
}

export function createPcmHasher(channelCount: number): PcmHasher {
  const block = new Uint8Array(PACK_FRAMES * channelCount * BYTES_PER_SAMPLE);
  const hash = createHash('sha256');
  return {
    update(channels, start, end) {
      for (let from = start; from < end; from += PACK_FRAMES) {
        const to = Math.min(end, from + PACK_FRAMES);
        pack24(channels, from, to, block, 0);
        hash.update(block.subarray(0, (to - from) * channelCount * BYTES_PER_SAMPLE));
      }
    },
    digest: () => `0x${hash.digest('hex')}`,
  };
}

/** The `pcmHash` of `channels` in one pass, a second of audio at a time between which the event loop runs. */
export async function pcmHashOf(channels: readonly Float32Array[], signal?: AbortSignal): Promise<string> {
  const frames = channels[0]?.length ?? 0;
  const hasher = createPcmHasher(channels.length);
  for (let start = 0; start < frames; start += PACK_FRAMES) {
    signal?.throwIfAborted();
    hasher.update(channels, start, Math.min(frames, start + PACK_FRAMES));
    if (start + PACK_FRAMES < frames) await yieldToEventLoop();
  }
  return hasher.digest();
}

/**
 * Quantizes `channels` once for both files: the integers libFLAC takes, and the same samples as
 * the WAV's `data` payload, written straight into `bytes` at `offset` (the WAV's buffer).
 */
async function quantizeInto(
  channels: readonly Float32Array[],
  sampleRate: number,
  bytes: Uint8Array,
  offset: number,
  signal?: AbortSignal,
): Promise<LosslessPcm> {
  const frames = channels[0]?.length ?? 0;
  const interleaved = new Int32Array(frames * channels.length);
  const frameBytes = channels.length * BYTES_PER_SAMPLE;
  for (let start = 0; start < frames; start += PACK_FRAMES) {
    signal?.throwIfAborted();
    const end = Math.min(frames, start + PACK_FRAMES);
    pack24(channels, start, end, bytes, offset + start * frameBytes, interleaved);
    if (end < frames) await yieldToEventLoop();
  }
  return { sampleRate, channels: channels.length, frames, interleaved };
}

/** Float PCM to the 24-bit integers libFLAC takes (as `pack24` rounds): for benches and tests. */
export async function quantizePcm(channels: readonly Float32Array[], sampleRate: number): Promise<LosslessPcm> {
  const frames = channels[0]?.length ?? 0;
  return quantizeInto(channels, sampleRate, new Uint8Array(frames * channels.length * BYTES_PER_SAMPLE), 0);
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

function u32le(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

/** `fmt ` chunk of integer PCM (format tag 1). */
function fmtChunk(channels: number, sampleRate: number): Uint8Array {
  const body = new Uint8Array(16);
  const view = new DataView(body.buffer);
  view.setUint16(0, 1, true);
  view.setUint16(2, channels, true);
  view.setUint32(4, sampleRate, true);
  view.setUint32(8, sampleRate * channels * BYTES_PER_SAMPLE, true);
  view.setUint16(12, channels * BYTES_PER_SAMPLE, true);
  view.setUint16(14, LOSSLESS_BITS_PER_SAMPLE, true);
  return concatBytes([ascii('fmt '), u32le(16), body]);
}

/** `RIFF` size `WAVE`, the 24-byte `fmt ` chunk and the `data` chunk's header. */
const WAV_HEAD_BYTES = 12 + 24 + 8;
/** The `C2PA` chunk's header (id and size), the hash exclusion's extra bytes. */
const CHUNK_HEAD_BYTES = 8;

/**
 * The WAV's bytes up to its manifest store: `RIFF`/`WAVE`, `fmt `, `data` (its payload left for
 * `quantizeInto` to write at `WAV_HEAD_BYTES`, then RIFF's pad byte when odd) and the `C2PA`
 * chunk's header, whose sizes `signedWav` fills in.
 */
function wavBuffer(channels: number, sampleRate: number, frames: number): Uint8Array {
  const dataLength = frames * channels * BYTES_PER_SAMPLE;
  const buffer = new Uint8Array(WAV_HEAD_BYTES + dataLength + (dataLength % 2) + CHUNK_HEAD_BYTES);
  buffer.set(ascii('RIFF'), 0);
  buffer.set(ascii('WAVE'), 8);
  buffer.set(fmtChunk(channels, sampleRate), 12);
  buffer.set(ascii('data'), 36);
  buffer.set(u32le(dataLength), 40);
  buffer.set(ascii('C2PA'), buffer.length - CHUNK_HEAD_BYTES);
  return buffer;
}

/**
 * RIFF/WAVE: `fmt `, `data`, then the `C2PA` chunk holding the manifest store (odd chunks get
 * RIFF's pad byte). The exclusion is the `C2PA` chunk with its 8-byte header, as c2pa-rs hashes
 * RIFF. `buffer` is `wavBuffer`'s, its samples written.
 */
async function signedWav(buffer: Uint8Array, provenance: SongProvenance, identity: SigningIdentity): Promise<Uint8Array> {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const embedded = await embedManifest('audio/wav', provenance, identity, {
    exclusionExtra: CHUNK_HEAD_BYTES,
    around: (storeLength) => {
      // Everything after `RIFF` and its size: `WAVE`, the chunks, the store and its pad byte.
      view.setUint32(4, buffer.length - 8 + storeLength + (storeLength % 2), true);
      view.setUint32(buffer.length - 4, storeLength, true);
      return { before: buffer, after: [new Uint8Array(storeLength % 2)] };
    },
  });
  return embedded.bytes;
}

/** STREAMINFO offsets in a `fLaC` stream: the frame sizes and the MD5 libFLAC learns only at the end. */
const STREAMINFO_MIN_FRAME = 4 + 4 + 4;
const STREAMINFO_MD5 = 4 + 4 + 18;

/** A FLAC stream of `pcm` whose STREAMINFO states the MD5 of the samples (`flac -t` checks it). */
export async function encodeFlac(pcm: LosslessPcm, signal?: AbortSignal): Promise<Uint8Array> {
  const flac = await loadLibFlac();
  const encoder = flac.create_libflac_encoder(
    pcm.sampleRate,
    pcm.channels,
    LOSSLESS_BITS_PER_SAMPLE,
    FLAC_COMPRESSION_LEVEL,
    pcm.frames,
    false,
    0,
  );
  if (encoder === 0) throw new Error('libFLAC could not create an encoder');
  const parts: Uint8Array[] = [];
  let info: { md5sum: string; min_framesize: number; max_framesize: number } | undefined;
  try {
    const status = flac.init_encoder_stream(
      encoder,
      (data) => parts.push(data.slice()),
      (metadata) => (info = metadata),
    );
    if (status !== 0) throw new Error(`libFLAC init failed with status ${status}`);
    for (let start = 0; start < pcm.frames; start += FLAC_FEED_FRAMES) {
      signal?.throwIfAborted();
      const end = Math.min(pcm.frames, start + FLAC_FEED_FRAMES);
      const block = pcm.interleaved.subarray(start * pcm.channels, end * pcm.channels);
      if (!flac.FLAC__stream_encoder_process_interleaved(encoder, block, end - start)) {
        throw new Error(`libFLAC failed in state ${flac.FLAC__stream_encoder_get_state(encoder)}`);
      }
      await yieldToEventLoop();
    }
    if (!flac.FLAC__stream_encoder_finish(encoder))
      throw new Error(`libFLAC finish failed in state ${flac.FLAC__stream_encoder_get_state(encoder)}`);
  } finally {
    flac.FLAC__stream_encoder_delete(encoder);
  }
  const stream = concatBytes(parts);
  // A write-only stream cannot seek back: the header is written before the MD5 and frame sizes are known.
  if (info !== undefined) {
    const view = new DataView(stream.buffer);
    view.setUint16(STREAMINFO_MIN_FRAME, info.min_framesize >>> 8);
    view.setUint8(STREAMINFO_MIN_FRAME + 2, info.min_framesize & 0xff);
    view.setUint16(STREAMINFO_MIN_FRAME + 3, info.max_framesize >>> 8);
    view.setUint8(STREAMINFO_MIN_FRAME + 5, info.max_framesize & 0xff);
    stream.set(Buffer.from(info.md5sum, 'hex'), STREAMINFO_MD5);
  }
  return stream;
}

/**
 * The WAV and the FLAC of a song's PCM (the same float channels its MP3 was encoded from), each
 * with the song's content credentials, and the hash of their samples.
 */
export async function encodeLossless(
  channels: readonly Float32Array[],
  sampleRate: number,
  provenance: SongProvenance,
  identity: SigningIdentity,
  signal?: AbortSignal,
): Promise<LosslessFiles> {
  const frames = channels[0]?.length ?? 0;
  const buffer = wavBuffer(channels.length, sampleRate, frames);
  const pcm = await quantizeInto(channels, sampleRate, buffer, WAV_HEAD_BYTES, signal);
  const pcmHash = contentHash(buffer.subarray(WAV_HEAD_BYTES, WAV_HEAD_BYTES + frames * channels.length * BYTES_PER_SAMPLE));
  const wav = await signedWav(buffer, provenance, identity);
  const flacStream = await encodeFlac(pcm, signal);
  const flac = await embedInId3Tag(flacStream, 'audio/flac', provenance, identity);
  return { pcm: { sampleRate, channels: pcm.channels, frames: pcm.frames }, pcmHash, wav, flac: flac.bytes };
}
