/**
 * A song's lossless masters, made after its job completed (docs/api.md "Lossless downloads"):
 * the WAV and FLAC of the PCM its MP3 was encoded from (../audio/lossless.ts), stored privately
 * beside the MP3, then recorded in the job's `lossless` column in place of the pending marker
 * the completion wrote. They are off the way to `completed` (issue 44: a playable song as fast as
 * before): the song is published, hashed and signable first, its masters follow seconds later.
 *
 * The masters must hold the sound the song completed with: their PCM hash is checked against the
 * `pcm_hash` recorded at completion. Any failure, or `LOSSLESS_MASTERS_DEADLINE_SECONDS` passing,
 * gives them up: what was stored is deleted and the job has no lossless files (`lossless` null);
 * the MP3, its hash and its mint are untouched.
 */
import { createHash } from 'node:crypto';
import { recordJobStorage, releaseStorage } from '../../../core/src/storage-quota.ts';
import type { Queryable } from '../../../core/src/db/database.ts';
import { LOSSLESS_CONTENT_TYPES, LOSSLESS_FORMATS, losslessObjectKey } from '../../../core/src/generation-queue.ts';
import { dropPendingLossless, recordLosslessMasters } from '../../../core/src/jobs/job-state.ts';
import type { LosslessPending, LosslessRecord } from '../../../core/src/jobs/job-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { publishObject } from '../../../core/src/publish-object.ts';
import { LOSSLESS_BITS_PER_SAMPLE } from '../audio/lossless.ts';
import type { LosslessFiles } from '../audio/lossless.ts';
import type { LosslessMasters } from './pipeline.ts';

/** What a completion records while the masters are made: their PCM's shape. */
export function pendingLossless(masters: LosslessMasters): LosslessPending {
  return {
    pending: true,
    sample_rate: masters.pcm.sampleRate,
    bits_per_sample: LOSSLESS_BITS_PER_SAMPLE,
    channels: masters.pcm.channels,
    wav_bytes: null,
    flac_bytes: null,
  };
}

/** How long each part of making the masters took (the bench reports them). */
export interface MastersTimings {
  /** WAV and FLAC with their manifests. */
  encodeMs: number;
  /** Both files to the store. */
  uploadMs: number;
}

/**
 * Makes the masters and stores both files privately (side by side), after checking they hold
 * the PCM the song completed with (`pcmHash`). Returns their `lossless` record and timings.
 */
export async function uploadLosslessMasters(
  store: Pick<ObjectStore, 'put' | 'delete'>,
  jobId: string,
  masters: LosslessMasters,
  pcmHash: string,
  signal: AbortSignal,
): Promise<{ record: LosslessRecord; timings: MastersTimings }> {
  let t = performance.now();
  const files = await masters.make(signal);
  const encodeMs = performance.now() - t;
  if (files.pcmHash !== pcmHash) throw new Error(`the masters hold PCM ${files.pcmHash}, the song completed with ${pcmHash}`);
  t = performance.now();
  await Promise.all(
    LOSSLESS_FORMATS.map(async (format) => {
      signal.throwIfAborted();
      const key = losslessObjectKey(jobId, format);
      const stored = await publishObject(store, key, files[format], {
        contentType: LOSSLESS_CONTENT_TYPES[format],
        private: true,
        sha256: createHash('sha256').update(files[format]).digest('hex'),
      });
      if (!stored.ok) throw new Error(`upload of ${key} failed: ${stored.error.code} ${stored.error.message}`);
    }),
  );
  return { record: losslessRecord(files), timings: { encodeMs, uploadMs: performance.now() - t } };
}

/**
 * Makes, stores and records the masters of the completed job `jobId` (the row id) whose PCM hash
 * is `pcmHash`. Throws after giving them up (their objects deleted, the marker dropped).
 */
export async function storeLosslessMasters(
  deps: { db: Queryable; store: Pick<ObjectStore, 'put' | 'delete'> },
  jobId: string,
  masters: LosslessMasters,
  pcmHash: string,
  signal: AbortSignal,
): Promise<MastersTimings> {
  try {
    const { record, timings } = await uploadLosslessMasters(deps.store, jobId, masters, pcmHash, signal);
    signal.throwIfAborted();
    if (!(await recordLosslessMasters(deps.db, jobId, record))) {
      throw new Error('the song no longer waits for its masters (purged, or past the deadline)');
    }
    // Counted for the owner's storage quota (the song was admitted with their estimate).
    await recordJobStorage(
      deps.db,
      jobId,
      LOSSLESS_FORMATS.map((format) => ({ key: losslessObjectKey(jobId, format), bytes: record[`${format}_bytes`] })),
    );
    return timings;
  } catch (err) {
    await Promise.all(LOSSLESS_FORMATS.map((format) => deps.store.delete(losslessObjectKey(jobId, format))));
    await releaseStorage(
      deps.db,
      LOSSLESS_FORMATS.map((format) => losslessObjectKey(jobId, format)),
    );
    await dropPendingLossless(deps.db, jobId);
    throw err;
  }
}

/** The `lossless` column of stored masters. */
export function losslessRecord(files: LosslessFiles): LosslessRecord {
  return {
    sample_rate: files.pcm.sampleRate,
    bits_per_sample: LOSSLESS_BITS_PER_SAMPLE,
    channels: files.pcm.channels,
    wav_bytes: files.wav.length,
    flac_bytes: files.flac.length,
  };
}
