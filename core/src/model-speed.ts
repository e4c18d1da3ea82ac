/**
 * What a worker measured of its loaded model at start (inference/src/worker/calibration.ts) and
 * publishes in its heartbeat (`worker_heartbeats.model_speed`): per `steps` value, the wall
 * seconds one second of audio costs and the longest song it can finish within the job limit.
 * The oracle refuses longer requests before anything is charged (GEN_004, or GEN_002 when no
 * live worker can make even the shortest song) and estimates waits from the same figures.
 * Part of the contract between the oracle and the workers (see ./generation-queue.ts).
 */
import { z } from 'zod';

/** Spec, "Limits": a song lasts 5 to 240 seconds. */
export const SHORTEST_SONG_SECONDS = 5;
export const LONGEST_SONG_SECONDS = 240;

/**
 * The share of the job limit a song's measured work (model render and MP3 encode) may take. The
 * rest is left for what the calibration does not time (the lyrics step, C2PA signing, hashing,
 * the upload and the publishing transaction) and for a device slower than at start (thermal
 * throttling, a neighbour on the GPU). Retries add no time: each attempt starts over under the
 * same per-attempt limit, so a song must fit in one attempt.
 */
export const MEASURED_WORK_SHARE = 0.75;

/** The figures of one `steps` value. */
export interface StepsSpeed {
  /** Wall seconds per second of audio, model render and MP3 encode together, measured with the device to itself. */
  secondsPerAudioSecond: number;
  /** The longest song (whole seconds, at most 240) this worker finishes within the job limit; below 5: none. */
  maxDuration: number;
}

/** Keyed by the `steps` value as a string (JSON object keys), e.g. `{"27": {...}, "60": {...}}`. */
export type ModelSpeed = Readonly<Record<string, StepsSpeed>>;

const stepsSpeedSchema = z.object({
  secondsPerAudioSecond: z.number().positive(),
  maxDuration: z.number().int().min(0).max(LONGEST_SONG_SECONDS),
});

export const modelSpeedSchema = z.record(z.string().regex(/^\d+$/), stepsSpeedSchema);

/**
 * The longest whole number of seconds whose measured work fits the job limit: `secondsPerAudioSecond`
 * is what one second cost in the calibration with the device to itself, `sharedBy` the jobs the
 * worker runs at once on that device (each may get only its share), `jobLimitSeconds` one attempt's
 * limit, of which `MEASURED_WORK_SHARE` is spent on measured work. Capped at the spec's 240 s.
 */
export function maxDurationWithin(secondsPerAudioSecond: number, sharedBy: number, jobLimitSeconds: number): number {
  const perSecond = secondsPerAudioSecond * Math.max(1, sharedBy);
  if (!(perSecond > 0)) return LONGEST_SONG_SECONDS;
  return Math.max(0, Math.min(LONGEST_SONG_SECONDS, Math.floor((jobLimitSeconds * MEASURED_WORK_SHARE) / perSecond)));
}

/** A stored `model_speed` value read back: undefined for a worker that published none (or garbage). */
export function parseModelSpeed(value: unknown): ModelSpeed | undefined {
  const parsed = modelSpeedSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
