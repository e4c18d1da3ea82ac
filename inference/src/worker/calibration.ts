/**
 * At start, before it takes any job, the worker measures its loaded model on its device: for each
 * `steps` value the model allows, one calibration render of `CALIBRATION_SECONDS` through the song
 * model interface (the same `render` a job calls) and the MP3 encode of its PCM with the worker's
 * encoder. What a second of audio cost (render and encode together, fixed costs included, which
 * overstates a long song's rate: the safe side) gives the longest song it can finish within one
 * attempt's limit (core/src/model-speed.ts `maxDurationWithin`), published in its heartbeat.
 *
 * A calibration render that outlasts the measured share of the job limit is stopped there: the
 * model cannot make even the shortest song in time, so the worker publishes a limit of 0 for
 * those steps and takes none (the oracle answers GEN_002 while no live worker can).
 */
import { performance } from 'node:perf_hooks';
import { MEASURED_WORK_SHARE, SHORTEST_SONG_SECONDS, maxDurationWithin } from '../../../core/src/model-speed.ts';
import type { ModelSpeed, StepsSpeed } from '../../../core/src/model-speed.ts';
import { encodeMp3 } from '../audio/mp3-encoder.ts';
import type { SongModel } from '../model/song-model.ts';
import type { PipelineDeps } from './pipeline.ts';

/** The calibration clip: the spec's shortest song, so the figure is one a user could ask for. */
export const CALIBRATION_SECONDS = SHORTEST_SONG_SECONDS;

/** What the calibration renders: fixed, so two starts of one model on one device render the same clip. */
const CALIBRATION_REQUEST = { prompt: 'calibration: steady instrumental, 120 bpm', lyrics: null, seed: 1n } as const;

export interface CalibrationSettings {
  jobTimeLimitMs: number;
  /** Jobs the worker runs at once on its device. */
  concurrency: number;
}

export interface CalibrationReport {
  speed: ModelSpeed;
  /** Wall milliseconds each `steps` value's render and encode took. */
  measuredMs: Readonly<Record<string, number>>;
}

export async function calibrateModel(
  model: SongModel,
  encoder: PipelineDeps['encoder'],
  settings: CalibrationSettings,
  signal: AbortSignal,
): Promise<CalibrationReport> {
  const jobLimitSeconds = settings.jobTimeLimitMs / 1000;
  const speed: Record<string, StepsSpeed> = {};
  const measuredMs: Record<string, number> = {};
  // The encoder pool starts its threads (and compiles its wasm) on first use: once per process,
  // not per song, so it is done before the clock runs.
  const warmUp = await encodeMp3([new Float32Array(model.sampleRate), new Float32Array(model.sampleRate)], model.sampleRate, {
    ...encoder,
    signal,
  });
  if (!warmUp.ok) throw new Error(`calibration encode failed: ${warmUp.error.message}`);
  for (const steps of model.steps) {
    // Past this the clip alone does not fit: stop measuring and publish that none does.
    const deadline = AbortSignal.timeout(Math.ceil(settings.jobTimeLimitMs * MEASURED_WORK_SHARE));
    const bounded = AbortSignal.any([signal, deadline]);
    const started = performance.now();
    try {
      const rendered = await model.render({ ...CALIBRATION_REQUEST, durationSeconds: CALIBRATION_SECONDS, steps }, bounded);
      const mp3 = await encodeMp3(rendered.pcm.channels, rendered.pcm.sampleRate, { ...encoder, signal: bounded });
      if (!mp3.ok) throw new Error(`calibration encode failed: ${mp3.error.message}`);
    } catch (error) {
      signal.throwIfAborted();
      if (!deadline.aborted) throw error;
      const elapsedMs = performance.now() - started;
      measuredMs[String(steps)] = elapsedMs;
      speed[String(steps)] = { secondsPerAudioSecond: elapsedMs / 1000 / CALIBRATION_SECONDS, maxDuration: 0 };
      continue;
    }
    const elapsedMs = performance.now() - started;
    const secondsPerAudioSecond = Math.max(elapsedMs, 1) / 1000 / CALIBRATION_SECONDS;
    measuredMs[String(steps)] = elapsedMs;
    speed[String(steps)] = {
      secondsPerAudioSecond,
      maxDuration: maxDurationWithin(secondsPerAudioSecond, settings.concurrency, jobLimitSeconds),
    };
  }
  return { speed, measuredMs };
}

/** The longest song this worker takes at `steps` (0 for steps its model does not run). */
export function maxDurationOf(speed: ModelSpeed, steps: number): number {
  return speed[String(steps)]?.maxDuration ?? 0;
}
