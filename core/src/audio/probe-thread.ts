/**
 * Worker thread body of ./audio-prober.ts: decodes one uploaded file at a time off the caller's
 * event loop. A probe posts back what the file is (format, rate, channels, length) and its
 * SHA-256, never the samples, with the bytes themselves transferred back; a decode posts back the
 * samples it kept, transferred. An analysis of an upload's PCM made in the same pass joins the
 * probe's sink here (./pcm-stream.ts `teeSinks`).
 */
import { parentPort } from 'node:worker_threads';
import { contentHash } from '../content-hash.ts';
import { DISCARD } from './pcm-stream.ts';
import { decodeAudioStream, decodeUploadedAudio } from './uploaded-audio.ts';
import type { DecodeReply, DecodeRequest } from './audio-prober.ts';

async function answer(request: DecodeRequest): Promise<{ reply: DecodeReply; transfer: ArrayBuffer[] }> {
  if (request.op === 'probe') {
    const result = await decodeAudioStream(request.bytes, request.budget, DISCARD);
    const hash = contentHash(request.bytes);
    return {
      reply: { id: request.id, op: 'probe', result, bytes: request.bytes, contentHash: hash },
      transfer: [request.bytes.buffer as ArrayBuffer],
    };
  }
  const result = await decodeUploadedAudio(request.bytes, request.budget, request.keepSeconds);
  return {
    reply: { id: request.id, op: 'decode', result },
    transfer: result.ok ? result.value.channels.map((channel) => channel.buffer as ArrayBuffer) : [],
  };
}

parentPort?.on('message', (request: DecodeRequest) => {
  answer(request).then(
    ({ reply, transfer }) => parentPort?.postMessage(reply, transfer),
    (error: unknown) =>
      parentPort?.postMessage({ id: request.id, crash: error instanceof Error ? error.message : String(error) } satisfies DecodeReply),
  );
});
