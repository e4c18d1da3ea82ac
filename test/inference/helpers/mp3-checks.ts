/** Decoding and inspection helpers for the produced MP3s. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { runReference } from '../../support/reference-tools.ts';
import { join } from 'node:path';
import { makeTempDir } from '../../../core/src/testing/temp-dirs.ts';
import { MPEGDecoder } from 'mpg123-decoder';
import { contentHash } from '../../../core/src/content-hash.ts';
import { id3v2Length } from '../../../inference/src/audio/id3-tag.ts';
import { parseMp3 } from '../../../inference/src/audio/mp3-frames.ts';

export interface Decoded {
  channels: Float32Array[];
  samples: number;
  sampleRate: number;
  errors: number;
}

export async function decodeMp3(bytes: Uint8Array): Promise<Decoded> {
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  try {
    const out = decoder.decode(bytes);
    return { channels: out.channelData, samples: out.samplesDecoded, sampleRate: out.sampleRate, errors: out.errors.length };
  } finally {
    decoder.free();
  }
}

/** Every frame header (the Info frame included) says 320 kbps; sizes are those of CBR frames. */
export function assertCbr320(bytes: Uint8Array): number {
  const parsed = parseMp3(bytes);
  if (!parsed.ok) throw new Error(parsed.error.message);
  for (const frame of parsed.value.frames) {
    if (frame.bitrateKbps !== 320) throw new Error(`frame at ${frame.offset} is ${frame.bitrateKbps} kbps`);
    const expected = Math.floor((144 * 320000) / frame.sampleRate) + (frame.padding ? 1 : 0);
    if (frame.length !== expected) throw new Error(`frame at ${frame.offset} has length ${frame.length}`);
  }
  return parsed.value.frames.length;
}

/**
 * The published file and the hash of its audio: every MPEG frame after the ID3 tag. The audio is
 * reproducible for the same inputs; the file is not, because its content credentials name the job
 * and carry a fresh signature.
 */
export async function fetchPublishedMp3(url: string | null): Promise<{ bytes: Uint8Array; audioFramesHash: string }> {
  const response = await fetch(url ?? '');
  assert.equal(response.status, 200, `GET ${url}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, audioFramesHash: contentHash(bytes.subarray(id3v2Length(bytes))) };
}

/**
 * `bytes` decoded by ffmpeg (an implementation independent of the encoders) at the file's own
 * rate and channel count, as interleaved raw samples of `sampleFormat`. From a file, not a pipe:
 * ffmpeg trims an MP3's encoder padding (its Info tag) only where it can seek.
 */
export async function ffmpegDecode(bytes: Uint8Array, sampleFormat: 's32le' | 'f32le'): Promise<Buffer> {
  const dir = await makeTempDir('ffmpeg-decode');
  try {
    const input = join(dir.path, 'input');
    await writeFile(input, bytes);
    const { stdout } = await runReference('ffmpeg', ['-v', 'error', '-i', input, '-f', sampleFormat, 'pipe:1']);
    return stdout;
  } finally {
    await dir.remove();
  }
}
