/**
 * Worker thread body of ./audio-prober.ts: decodes an uploaded file off the caller's event loop
 * and posts back what it is (format, rate, channels, length), never the samples.
 */
import { parentPort } from 'node:worker_threads';
import { decodeUploadedAudio } from './uploaded-audio.ts';
import type { ProbeReply, ProbeRequest } from './audio-prober.ts';

parentPort?.on('message', (request: ProbeRequest) => {
  const reply = (message: ProbeReply): void => parentPort?.postMessage(message);
  decodeUploadedAudio(request.bytes).then(
    (decoded) =>
      reply({
        id: request.id,
        result: decoded.ok
          ? {
              ok: true,
              value: {
                format: decoded.value.format,
                sampleRate: decoded.value.sampleRate,
                channels: decoded.value.channels.length,
                frames: decoded.value.frames,
              },
            }
          : decoded,
      }),
    (error: unknown) => reply({ id: request.id, crash: error instanceof Error ? error.message : String(error) }),
  );
});
