/**
 * Worker thread body: encodes one PCM chunk to bare MP3 frames at 320 kbps CBR, with the wasm
 * LAME (instantiated once per thread) or a native encoder process.
 */
import { spawn } from 'node:child_process';
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

function interleave(task: EncodeTask, format: 's16le' | 'f32le'): Buffer {
  const nch = task.channels.length;
  const length = task.channels[0]?.length ?? 0;
  if (format === 'f32le') {
    const out = new Float32Array(length * nch);
    task.channels.forEach((c, ch) => {
      for (let i = 0; i < length; i += 1) out[i * nch + ch] = c[i] ?? 0;
    });
    return Buffer.from(out.buffer);
  }
  const out = new Int16Array(length * nch);
  task.channels.forEach((c, ch) => {
    for (let i = 0; i < length; i += 1) out[i * nch + ch] = roundClipped((c[i] ?? 0) * 32767, -32768, 32767);
  });
  return Buffer.from(out.buffer);
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
    child.stdin.end(interleave(task, sampleFormat));
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
