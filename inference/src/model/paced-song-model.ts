/**
 * A song model made slow on purpose, for tests of what a worker takes (issue 49 item 7): every
 * render and edit first waits `msPerAudioSecond` per second of audio it is asked for, then runs the
 * wrapped model. The worker's calibration measures it like any model, so its published limit and
 * its jobs' run times follow the pace. Set by `INFERENCE_TEST_MODEL_MS_PER_AUDIO_SECOND`; never in
 * production.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SongModel } from './song-model.ts';

export function pacedSongModel(model: SongModel, msPerAudioSecond: number): SongModel {
  const pace = (seconds: number, signal: AbortSignal): Promise<void> => sleep(seconds * msPerAudioSecond, undefined, { signal });
  return {
    format: model.format,
    name: model.name,
    version: model.version,
    licence: model.licence,
    device: model.device,
    fallbackReason: model.fallbackReason,
    steps: model.steps,
    sampleRate: model.sampleRate,
    sings: model.sings,
    editSupport: model.editSupport,
    importSupport: model.importSupport,
    async render(request, signal, progress) {
      await pace(request.durationSeconds, signal);
      return model.render(request, signal, progress);
    },
    async edit(request, signal, progress) {
      await pace(request.durationSeconds, signal);
      return model.edit(request, signal, progress);
    },
    importAudio: (pcm, signal) => model.importAudio(pcm, signal),
    release: () => model.release(),
  };
}
