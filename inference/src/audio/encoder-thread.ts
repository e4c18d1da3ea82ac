/**
 * Worker thread body: encodes one PCM chunk to bare MP3 frames at 320 kbps CBR, with the wasm
 * LAME (instantiated once per thread) or a native encoder process.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { createMp3Encoder } from 'wasm-media-encoders';
import type { DomainError, Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import type { EncoderBackend } from './encoder-backend.ts';
import { nativeCommand } from './encoder-backend.ts';
import { concatBytes } from './bytes.ts';
import { roundClipped } from '../../../core/src/audio/round-sample.ts';

export interface EncodeTask {
  backend: EncoderBackend;
  sampleRate: number;
  channels: Float32Array[];
}

/** Posted back to the pool: a plain object of a typed array and strings, so structured-cloneable. */
export type EncodeReply = Result<Uint8Array, DomainError<'MP3_ENCODE_FAILED'>>;

const BLOCK = 1152 * 128;
let wasmEncoder: Awaited<ReturnType<typeof createMp3Encoder>> | undefined;

async function encodeWasm(task: EncodeTask): Promise<Uint8Array> {
  wasmEncoder ??= await createMp3Encoder();
  const encoder = wasmEncoder;
  encoder.configure({ sampleRate: task.sampleRate, channels: task.channels.length === 1 ? 1 : 2, bitrate: 320 });
  const length = task.channels[0]?.length ?? 0;
  const parts: Uint8Array[] = [];
  for (let at = 0; at < length; at += BLOCK) {
    parts.push(encoder.encode(task.channels.map((c) => c.subarray(at, at + BLOCK))).slice());
  }
  parts.push(encoder.finalize().slice());
  return concatBytes(parts);
}

/** Frames per block written to a native encoder's stdin (1152 x 64: about 1.7 s at 44.1 kHz). */
const STDIN_BLOCK_FRAMES = 1152 * 64;

/**
 * Frames [from, to) of the planar channels as one interleaved block in the encoder's input
 * format. One loop per layout: the closure-per-channel form this replaced cost about 60 ms per
 * chunk of a 240 s song, all of it before the encoder read its first byte.
 */
export function interleaveBlock(channels: readonly Float32Array[], from: number, to: number, format: 's16le' | 'f32le'): Buffer {
  const frames = to - from;
  const nch = channels.length;
  const left = channels[0] as Float32Array;
  const right = channels[1];
  if (format === 'f32le') {
    const out = new Float32Array(frames * nch);
    if (right === undefined) out.set(left.subarray(from, to));
    else {
      for (let i = 0, j = 0; i < frames; i += 1, j += 2) {
        out[j] = left[from + i] as number;
        out[j + 1] = right[from + i] as number;
      }
    }
    return Buffer.from(out.buffer);
  }
  const out = new Int16Array(frames * nch);
  for (let i = 0, j = 0; i < frames; i += 1, j += nch) {
    out[j] = roundClipped((left[from + i] as number) * 32767, -32768, 32767);
    if (right !== undefined) out[j + 1] = roundClipped((right[from + i] as number) * 32767, -32768, 32767);
  }
  return Buffer.from(out.buffer);
}

/**
 * Writes the chunk to the encoder's stdin a block at a time, waiting for the pipe to drain, so
 * the encoder starts on the first block while the rest is converted and no second copy of the
 * whole chunk is held.
 */
async function writeInterleaved(stdin: Writable, channels: readonly Float32Array[], format: 's16le' | 'f32le'): Promise<void> {
  const length = channels[0]?.length ?? 0;
  for (let from = 0; from < length; from += STDIN_BLOCK_FRAMES) {
    // A pipe already closed would never drain: the encoder has failed and says why on its own.
    if (stdin.destroyed) throw new Error('the encoder closed its input');
    const block = interleaveBlock(channels, from, Math.min(length, from + STDIN_BLOCK_FRAMES), format);
    if (!stdin.write(block)) {
      await new Promise<void>((resolve, reject) => {
        const onDrain = (): void => {
          stdin.off('close', onClose);
          resolve();
        };
        const onClose = (): void => {
          stdin.off('drain', onDrain);
          reject(new Error('the encoder closed its input'));
        };
        stdin.once('drain', onDrain);
        stdin.once('close', onClose);
      });
    }
  }
  stdin.end();
}

function encodeNative(task: EncodeTask, backend: 'lame' | 'ffmpeg'): Promise<Uint8Array> {
  const { cmd, args, sampleFormat } = nativeCommand(backend, task.sampleRate, task.channels.length);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`${cmd} exited with ${code}: ${Buffer.concat(err).toString('utf8').slice(0, 500)}`));
    });
    child.stdin.on('error', reject);
    writeInterleaved(child.stdin, task.channels, sampleFormat).catch(reject);
  });
}

export async function encodeChunk(task: EncodeTask): Promise<Uint8Array> {
  return task.backend === 'wasm' ? encodeWasm(task) : encodeNative(task, task.backend);
}

parentPort?.on('message', (task: EncodeTask) => {
  encodeChunk(task).then(
    (bytes) => parentPort?.postMessage(ok(bytes) satisfies EncodeReply, [bytes.buffer as ArrayBuffer]),
    (err: unknown) =>
      parentPort?.postMessage(
        fail({ code: 'MP3_ENCODE_FAILED', message: err instanceof Error ? err.message : String(err) }) satisfies EncodeReply,
      ),
  );
});
