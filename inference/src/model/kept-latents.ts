/**
 * The kept-latents object: a song's final model state, stored privately beside its audio
 * (`latents/<job_id>.bin`, core/src/song-edits.ts) so an edit starts from it instead of from the
 * MP3. Layout: the 4 bytes `SMLT`, a little-endian uint32 header length, the UTF-8 JSON header
 * (model name and version, the data's `dtype` and `shape`, and what the model needs to continue
 * the song: conditioning, seed), then the data, little-endian.
 *
 * Sizes per minute of audio (docs/inference.md "Song edits"): the built-in model keeps its
 * 16-bit stereo PCM at 44.1 kHz (10.6 MB per minute: its PCM is its final state); ACE-Step keeps
 * its DiT latents, 64 float32 channels at 25 frames per second (384 kB per minute).
 */
import { z } from 'zod';
import { fail, ok } from '../../../core/src/result.ts';
import type { Result } from '../../../core/src/result.ts';

const MAGIC = Buffer.from('SMLT', 'ascii');

const headerSchema = z.object({
  model: z.object({ name: z.string(), version: z.string() }),
  dtype: z.enum(['float32', 'int16']),
  shape: z.array(z.number().int().nonnegative()).min(1),
  /** What the model needs besides the data (conditioning values, seed, frame rate). */
  extra: z.record(z.string(), z.unknown()),
});

export type KeptHeader = z.infer<typeof headerSchema>;

export interface KeptLatents {
  header: KeptHeader;
  data: Float32Array | Int16Array;
}

function elementCount(shape: readonly number[]): number {
  return shape.reduce((n, d) => n * d, 1);
}

export function encodeKeptLatents(header: KeptHeader, data: Float32Array | Int16Array): Uint8Array {
  if (elementCount(header.shape) !== data.length)
    throw new Error(`kept latents: shape ${header.shape.join('x')} holds ${data.length} values`);
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  // Typed arrays are little-endian on every platform Node supports.
  return Buffer.concat([MAGIC, length, json, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

export function decodeKeptLatents(bytes: Uint8Array): Result<KeptLatents> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 4).equals(MAGIC))
    return fail({ code: 'KEPT_LATENTS_INVALID', message: 'not a kept-latents object' });
  const headerLength = buf.readUInt32LE(4);
  let parsed: unknown;
  try {
    parsed = JSON.parse(buf.subarray(8, 8 + headerLength).toString('utf8'));
  } catch {
    return fail({ code: 'KEPT_LATENTS_INVALID', message: 'kept-latents header is not JSON' });
  }
  const header = headerSchema.safeParse(parsed);
  if (!header.success) return fail({ code: 'KEPT_LATENTS_INVALID', message: `kept-latents header: ${header.error.message}` });
  const body = buf.subarray(8 + headerLength);
  const width = header.data.dtype === 'float32' ? 4 : 2;
  const count = elementCount(header.data.shape);
  if (body.length !== count * width)
    return fail({ code: 'KEPT_LATENTS_INVALID', message: `kept latents hold ${body.length} bytes, expected ${count * width}` });
  const copy = new Uint8Array(body);
  const data = header.data.dtype === 'float32' ? new Float32Array(copy.buffer, 0, count) : new Int16Array(copy.buffer, 0, count);
  return ok({ header: header.data, data });
}
