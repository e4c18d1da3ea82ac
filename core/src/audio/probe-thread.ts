/**
 * Worker thread body of ./audio-prober.ts: decodes one uploaded file at a time off the caller's
 * event loop. A probe posts back what the file is (format, rate, channels, length) and its
 * SHA-256, never the samples, with the bytes themselves transferred back; a decode posts back the
 * samples it kept, transferred. A probe also fingerprints the upload in the same pass, Chromaprint
 * and landmarks, the latter also in the upload's views (core/src/fingerprint/sound-fingerprints.ts),
 * with the contrast images of the upload and its views, all transferred back with the answer.
 */
import { parentPort } from 'node:worker_threads';
import { contentHash } from '../content-hash.ts';
import { peaksToBytes } from '../fingerprint/landmarks.ts';
import { soundFingerprintSink } from '../fingerprint/sound-fingerprints.ts';
import { decodeAudioStream, decodeUploadedAudio } from './uploaded-audio.ts';
import { decodeToWorkingFormat } from './working-format-sink.ts';
import type { DecodeReply, DecodeRequest, DecodeThreadMessage } from './audio-prober.ts';

async function answer(request: DecodeRequest): Promise<{ reply: DecodeReply; transfer: ArrayBuffer[] }> {
  if (request.op === 'probe') {
    const fingerprinting = soundFingerprintSink({ views: true });
    const result = await decodeAudioStream(request.bytes, request.budget, fingerprinting);
    const hash = contentHash(request.bytes);
    const both = result.ok ? fingerprinting.finish() : null;
    const fingerprint = both?.chromaprint;
    const landmarks = both === null ? undefined : peaksToBytes(both.landmarks);
    const landmarkImage = both?.image?.cells;
    const landmarkViews = both?.views.map(({ semitones, peaks, image }) => ({
      semitones,
      peaks: peaksToBytes(peaks),
      image: image?.cells,
    }));
    return {
      reply: {
        id: request.id,
        op: 'probe',
        result,
        bytes: request.bytes,
        contentHash: hash,
        fingerprint,
        landmarks,
        landmarkImage,
        landmarkViews,
      },
      transfer: [
        request.bytes.buffer as ArrayBuffer,
        ...(fingerprint === undefined ? [] : [fingerprint.buffer as ArrayBuffer]),
        ...(landmarks === undefined ? [] : [landmarks.buffer as ArrayBuffer]),
        ...(landmarkImage === undefined ? [] : [landmarkImage.buffer as ArrayBuffer]),
        ...(landmarkViews ?? []).flatMap(({ peaks, image }) => [
          peaks.buffer as ArrayBuffer,
          ...(image === undefined ? [] : [image.buffer as ArrayBuffer]),
        ]),
      ],
    };
  }
  const result =
    typeof request.keep === 'object'
      ? await decodeToWorkingFormat(request.bytes, request.budget, request.keep)
      : await decodeUploadedAudio(request.bytes, request.budget, request.keep);
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

// A request that arrived unreadable: Node 20 posts a detached buffer and this side gets
// `messageerror` (Node 22 refuses it at postMessage). It carries no id, but a thread has one
// request at a time: the caller fails that one rather than wait for it forever.
parentPort?.on('messageerror', (error: Error) => {
  parentPort?.postMessage({ undeliverable: error.message } satisfies DecodeThreadMessage);
});

// Loaded: the prober sends requests from now on (its deadlines do not count this thread's start).
parentPort?.postMessage({ ready: true } satisfies DecodeThreadMessage);
