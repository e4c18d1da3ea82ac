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
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { loadLibFlac } from '../../../core/src/audio/libflac.ts';
import { contentHash } from '../../../core/src/content-hash.ts';
import type { SongProvenance } from './content-credentials.ts';
import { embedInId3Tag, embedManifest } from './content-credentials.ts';
import type { SigningIdentity } from './signing-identity.ts';
import { concatBytes } from './bytes.ts';

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

/** Float PCM (nominally -1..1) to 24-bit integers, clipped: the one rounding both files share. */
export function quantizePcm(channels: readonly Float32Array[], sampleRate: number): LosslessPcm {
  const frames = channels[0]?.length ?? 0;
  const interleaved = new Int32Array(frames * channels.length);
  for (let c = 0; c < channels.length; c += 1) {
    const channel = channels[c] as Float32Array;
    for (let i = 0; i < frames; i += 1) {
      const scaled = Math.round((channel[i] ?? 0) * FULL_SCALE);
      interleaved[i * channels.length + c] = scaled >= FULL_SCALE ? FULL_SCALE - 1 : scaled < -FULL_SCALE ? -FULL_SCALE : scaled;
    }
  }
  return { sampleRate, channels: channels.length, frames, interleaved };
}

/** The samples as a WAV `data` chunk's payload: signed 24-bit little-endian, interleaved. */
function pcm24le(pcm: LosslessPcm): Uint8Array {
  const out = new Uint8Array(pcm.interleaved.length * BYTES_PER_SAMPLE);
  for (let i = 0; i < pcm.interleaved.length; i += 1) {
    const v = pcm.interleaved[i] ?? 0;
    out[i * 3] = v & 0xff;
    out[i * 3 + 1] = (v >> 8) & 0xff;
    out[i * 3 + 2] = (v >> 16) & 0xff;
  }
  return out;
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
function fmtChunk(pcm: LosslessPcm): Uint8Array {
  const body = new Uint8Array(16);
  const view = new DataView(body.buffer);
  view.setUint16(0, 1, true);
  view.setUint16(2, pcm.channels, true);
  view.setUint32(4, pcm.sampleRate, true);
  view.setUint32(8, pcm.sampleRate * pcm.channels * BYTES_PER_SAMPLE, true);
  view.setUint16(12, pcm.channels * BYTES_PER_SAMPLE, true);
  view.setUint16(14, LOSSLESS_BITS_PER_SAMPLE, true);
  return concatBytes([ascii('fmt '), u32le(16), body]);
}

/**
 * RIFF/WAVE: `fmt `, `data`, then the `C2PA` chunk holding the manifest store (odd chunks get
 * RIFF's pad byte). The exclusion is the `C2PA` chunk with its 8-byte header, as c2pa-rs hashes RIFF.
 */
async function signedWav(pcm: LosslessPcm, data: Uint8Array, provenance: SongProvenance, identity: SigningIdentity): Promise<Uint8Array> {
  const pad = (length: number) => new Uint8Array(length % 2);
  const fmt = fmtChunk(pcm);
  const dataChunk = concatBytes([ascii('data'), u32le(data.length), data, pad(data.length)]);
  const embedded = await embedManifest('audio/wav', provenance, identity, {
    exclusionExtra: 8,
    around: (storeLength) => {
      const riffSize = 4 + fmt.length + dataChunk.length + 8 + storeLength + (storeLength % 2);
      return {
        before: concatBytes([ascii('RIFF'), u32le(riffSize), ascii('WAVE'), fmt, dataChunk, ascii('C2PA'), u32le(storeLength)]),
        after: [pad(storeLength)],
      };
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
  const pcm = quantizePcm(channels, sampleRate);
  const data = pcm24le(pcm);
  const pcmHash = contentHash(data);
  const wav = await signedWav(pcm, data, provenance, identity);
  const flacStream = await encodeFlac(pcm, signal);
  const flac = await embedInId3Tag(flacStream, 'audio/flac', provenance, identity);
  return { pcm: { sampleRate, channels: pcm.channels, frames: pcm.frames }, pcmHash, wav, flac: flac.bytes };
}
