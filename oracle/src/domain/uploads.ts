/**
 * Taking an upload (docs/api.md "Upload audio"): the checks an uploaded file passes, in this
 * order, each refusal storing nothing (and the route's charge given back, as for any 400/415):
 *
 * 1. UPLOAD_004 (400): the uploader did not confirm they hold the rights to the audio;
 * 2. UPLOAD_003 (400): an empty body;
 * 3. while it decodes (core/src/audio/uploaded-audio.ts, in a bounded thread, under a budget of
 *    the caller's tier maximum duration at the stream's rate, checked frame by frame):
 *    UPLOAD_001 (415) not WAV, FLAC or MP3, or an encoding, rate (8-192 kHz) or channel count
 *    (1-8) of them not taken, or an MP3 whose rate or channels change mid-stream;
 *    UPLOAD_002 (400) a taken format whose audio does not decode (a FLAC frame that contradicts
 *    its STREAMINFO included) or that exhausts the decode thread; GEN_004 (400) longer than the
 *    caller's tier allows a song to be (decoding stops there: a stream is never decoded whole to
 *    learn that it is too long); UPLOAD_007 (422) longer to decode than the decode's wall-clock
 *    budget (the charge stands: the server spent that time); UPLOAD_006 (429) the decoders'
 *    queue, or the caller's share of it, is full (core/src/audio/audio-prober.ts);
 * 4. UPLOAD_003 (400): no audio, or shorter than `MIN_UPLOAD_SECONDS`;
 * 5. UPLOAD_005 (409): the audio contains a sound made for another account, signed or not (its
 *    landmark fingerprint, made in the decode's pass, holds a song or edit registered to another
 *    account at its completion, however filtered, overlaid, cut, sped up or transposed, that does not itself
 *    hold an earlier sound of the uploader's: core/src/fingerprint/registry.ts
 *    `findEarlierClaim`, docs/fingerprints.md), or, where an outside AcoustID-compatible
 *    lookup is configured, a recording that service knows (./outside-fingerprint-check.ts). The
 *    hourly charge is given back, as for bad input.
 * Before any of them the route refuses a body with a `Content-Encoding` (415 UPLOAD_001, nothing
 * inflated), an upload beyond the ones in flight allowed (429 UPLOAD_006, ./uploads-in-flight.ts)
 * and the byte limit (`MAX_UPLOAD_BYTES`, 413 PAYLOAD_TOO_LARGE).
 *
 * A taken upload is stored privately at `uploads/<upload_id>.<ext>` exactly as uploaded (with its
 * SHA-256 as the store's checksum), then recorded with the rights statement the uploader
 * confirmed, in one transaction: a failed store leaves no row, a failed row no reachable object.
 */
import { randomUUID } from 'node:crypto';
import { contentHash, sha256OfContentHash } from '../../../core/src/content-hash.ts';
import { UPLOAD_CONTENT_TYPES } from '../../../core/src/audio/uploaded-audio.ts';
import { DEFAULT_DECODE_SECONDS } from '../../../core/src/audio/audio-prober.ts';
import type { AudioProber } from '../../../core/src/audio/audio-prober.ts';
import type { AudioDecodeError, UploadFormat } from '../../../core/src/audio/uploaded-audio.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';
import type { Database } from '../../../core/src/db/database.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { MIN_UPLOAD_SECONDS, UPLOAD_RETENTION_DAYS, toPublicUploadId, uploadObjectKey } from '../../../core/src/uploads.ts';
import { checkTierDuration } from './generation.ts';
import { claimStorage, storageUsage } from '../../../core/src/storage-quota.ts';
import { storageQuotaExceeded } from './storage.ts';
import { appError, fail, ok } from './errors.ts';
import type { AppError, Result } from './errors.ts';
import { TIER_LIMITS } from './limits.ts';
import { UPLOAD_IN_FLIGHT_RETRY_SECONDS } from './uploads-in-flight.ts';
import type { SessionUser } from './request-charge.ts';
import { toPublicJobId } from '../../../core/src/generation-queue.ts';
import { fingerprintToBytes } from '../../../core/src/fingerprint/encoding.ts';
import { peaksFromBytes } from '../../../core/src/fingerprint/landmarks.ts';
import { contrastImageFromCells } from '../../../core/src/fingerprint/contrast-image.ts';
import { describeMatch, findEarlierClaim } from '../../../core/src/fingerprint/registry.ts';
import type { RegistryMatch } from '../../../core/src/fingerprint/registry.ts';
import type { OutsideFingerprintCheck, OutsideMatch } from './outside-fingerprint-check.ts';

/**
 * What an uploader confirms (the `Songmint-Rights-Confirmed: true` header), recorded with the
 * upload. A new wording gets a new version, so each record says which one was confirmed.
 */
export const RIGHTS_STATEMENT =
  'v1: I own this audio or hold a licence to it that allows me to upload it and have it edited with AI, and it infringes no one else’s rights.';

export interface UploadView {
  upload_id: string;
  /** The name sent with it (the file's name), or null. */
  name: string | null;
  format: UploadFormat;
  /** Seconds, as decoded. */
  duration: number;
  sample_rate: number;
  channels: number;
  bytes: number;
  /** `0x` + SHA-256 of the file as uploaded. */
  sha256: string;
  rights_confirmed_at: string;
  created_at: string;
  expires_at: string;
}

export interface UploadDeps {
  db: Database;
  objectStore: Pick<ObjectStore, 'put' | 'delete'>;
  /** Decodes uploads off the event loop, in bounded threads. */
  prober: Pick<AudioProber, 'probe'>;
  /** The optional outside lookup (AcoustID-compatible); absent: none. */
  outsideCheck?: OutsideFingerprintCheck | undefined;
}

const TAKEN = 'taken: WAV (16, 24 or 32-bit PCM, 32-bit float), FLAC (16 or 24-bit), MP3; 8 to 192 kHz, 1 to 8 channels';

/** The refusal of an upload whose decode stopped with `error`. */
function decodeRefusal(error: AudioDecodeError, tier: Tier): AppError {
  switch (error.code) {
    case 'too_long': {
      const max = TIER_LIMITS[tier].maxDurationSeconds;
      const refused = checkTierDuration(tier, Math.max(max + 1, Math.ceil((error.seconds ?? 0) - 1e-9)));
      return {
        ...(refused ?? appError('GEN_004', 'Too long')),
        message: `The upload is longer than the ${tier} tier maximum of ${max} s`,
        details: `${error.message}; ${refused?.details ?? ''}`,
      };
    }
    case 'timed_out':
      return appError('UPLOAD_007', 'The audio took too long to decode', {
        details: `${error.message} (${DEFAULT_DECODE_SECONDS} s of decoding per upload); the time was spent, so the request counts against your hourly limit`,
        fields: { decode_seconds: DEFAULT_DECODE_SECONDS },
      });
    case 'busy':
      return appError('UPLOAD_006', 'Too many uploads are being decoded', {
        details: `${error.message}; retry once one has been answered`,
        retryAfter: UPLOAD_IN_FLIGHT_RETRY_SECONDS,
      });
    case 'cancelled':
      return appError('SERVICE_UNAVAILABLE', 'The decode was cancelled', {
        details: error.message,
        retryAfter: UPLOAD_IN_FLIGHT_RETRY_SECONDS,
      });
    case 'undecodable':
    case 'exhausted':
      return appError('UPLOAD_002', 'The audio does not decode', { details: `${error.message}; ${TAKEN}` });
    case 'not_audio':
    case 'unsupported':
      return appError('UPLOAD_001', 'Not a supported audio file', { details: `${error.message}; ${TAKEN}` });
  }
}

/** Rounds seconds to the millisecond, as the API answers them. */
const millis = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/**
 * Checks, stores and records one upload of `user`'s. `signal` aborted (the client left) cancels
 * the decode, queued or running, and the registry's lookup, and nothing is stored after it.
 */
export async function takeUpload(
  deps: UploadDeps,
  user: SessionUser,
  bytes: Uint8Array,
  rightsConfirmed: boolean,
  signal?: AbortSignal,
  name?: string,
): Promise<Result<UploadView>> {
  if (!rightsConfirmed) {
    return fail(
      appError('UPLOAD_004', 'Confirm that you hold the rights to this audio', {
        details: `send the header Songmint-Rights-Confirmed: true to confirm: "${RIGHTS_STATEMENT}"`,
        fields: { statement: RIGHTS_STATEMENT },
      }),
    );
  }
  if (bytes.length === 0) {
    return fail(
      appError('UPLOAD_003', 'The body is empty', { details: 'send the audio file itself as the body', fields: { duration: 0 } }),
    );
  }
  // The quota first: a body that cannot be stored is not decoded (claimed exactly below).
  const usage = await storageUsage(deps.db, user.id);
  if (usage !== null && usage.used + usage.pending + bytes.length > usage.quota) {
    return fail(storageQuotaExceeded(usage, bytes.length, 'this upload'));
  }
  const probed = await deps.prober.probe(bytes, { maxSeconds: TIER_LIMITS[user.tier].maxDurationSeconds }, { account: user.id, signal });
  if (!probed.result.ok) return fail(decodeRefusal(probed.result.error, user.tier));
  if (signal?.aborted === true) return fail(decodeRefusal({ code: 'cancelled', message: 'the client left' }, user.tier));
  // The bytes went to the decode thread and came back with their hash.
  const file = probed.bytes;
  const audio = probed.result.value;
  const duration = audio.frames / audio.sampleRate;
  if (duration < MIN_UPLOAD_SECONDS) {
    return fail(
      appError('UPLOAD_003', audio.frames === 0 ? 'The file holds no audio' : `The audio is shorter than ${MIN_UPLOAD_SECONDS} s`, {
        details: `${audio.frames} samples at ${audio.sampleRate} Hz`,
        fields: { duration: millis(duration) },
      }),
    );
  }

  // Another account's song, signed or not, however re-encoded, is not taken (issues 44 and 50).
  if (probed.landmarks !== undefined) {
    const imageOf = (cells: Uint8Array | undefined) => (cells === undefined ? undefined : contrastImageFromCells(cells));
    const views = (probed.landmarkViews ?? []).map(({ semitones, peaks, image }) => ({
      semitones,
      peaks: peaksFromBytes(peaks),
      image: imageOf(image),
    }));
    const image = imageOf(probed.landmarkImage);
    const contained = await findEarlierClaim(deps.db, peaksFromBytes(probed.landmarks), { userId: user.id, views, image, signal }).catch(
      (error: unknown) => {
        // The client left during the lookup, which stopped at its next step.
        if (signal?.aborted === true) return 'cancelled' as const;
        throw error;
      },
    );
    if (contained === 'cancelled') return fail(decodeRefusal({ code: 'cancelled', message: 'the client left' }, user.tier));
    if (contained !== null) return fail(containsSignedSong(contained));
  }
  // Chromaprint's compact form is what an AcoustID-compatible service looks up.
  const fingerprint = probed.fingerprint ?? null;
  if (fingerprint !== null) {
    const outside = await deps.outsideCheck?.(fingerprint, duration);
    if (outside !== undefined && outside !== null) return fail(knownOutside(outside));
  }

  const id = randomUUID();
  const key = uploadObjectKey(id, audio.format);
  const sha256 = probed.contentHash ?? contentHash(file);
  const row = await deps.db
    .tx(async (tx) => {
      const inserted = await tx.one<{ rights_confirmed_at: Date; created_at: Date; expires_at: Date }>(
        `INSERT INTO uploads (id, user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement,
                            rights_confirmed_at, expires_at, fingerprint, landmarks, name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), now() + make_interval(days => $11), $12, $13, $14)
       RETURNING rights_confirmed_at, created_at, expires_at`,
        [
          id,
          user.id,
          key,
          audio.format,
          file.length,
          sha256,
          audio.sampleRate,
          audio.channels,
          duration,
          RIGHTS_STATEMENT,
          UPLOAD_RETENTION_DAYS,
          fingerprint === null ? null : Buffer.from(fingerprintToBytes(fingerprint)),
          probed.landmarks === undefined ? null : Buffer.from(probed.landmarks),
          name ?? null,
        ],
      );
      // Every byte of the file counts (its metadata chunks too), claimed in the same transaction:
      // a refused store, or a quota another request filled meanwhile, rolls both back.
      const claim = await claimStorage(tx, user.id, key, file.length);
      if (!claim.ok) throw new QuotaRefusal(storageQuotaExceeded(claim.usage, file.length, 'this upload'));
      // Inside the transaction: a refused store rolls the row back; the commit failing after it
      // leaves an object no row names, deleted below.
      const stored = await deps.objectStore.put(key, file, {
        contentType: UPLOAD_CONTENT_TYPES[audio.format],
        private: true,
        ifAbsent: true,
        sha256: sha256OfContentHash(sha256),
      });
      if (!stored.ok) throw new Error(`storing upload ${key} failed: ${stored.error.code} ${stored.error.message}`);
      return inserted;
    })
    .catch(async (error: unknown) => {
      if (error instanceof QuotaRefusal) return error;
      await deps.objectStore.delete(key);
      throw error;
    });
  if (row instanceof QuotaRefusal) return fail(row.refusal);
  return ok({
    upload_id: toPublicUploadId(id),
    name: name ?? null,
    format: audio.format,
    duration: millis(duration),
    sample_rate: audio.sampleRate,
    channels: audio.channels,
    bytes: file.length,
    sha256,
    rights_confirmed_at: row.rights_confirmed_at.toISOString(),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  });
}

/** Rolls the upload's transaction back when the quota refused it, carrying the refusal out. */
class QuotaRefusal extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
  }
}

/** UPLOAD_005: the upload contains `match`, a sound made for another account. */
function containsSignedSong(match: RegistryMatch): AppError {
  const earlier = toPublicJobId(match.sound.jobId);
  const token = match.sound.tokenId === null ? '' : ` (token ${match.sound.tokenId})`;
  const place = describeMatch(match);
  return appError('UPLOAD_005', 'The audio contains a song made for another account', {
    details:
      `From ${place.queryAt} s this audio holds ${earlier}${token} (from its ${place.soundAt} s${place.change === '' ? '' : `, ${place.change}`}), ` +
      'however re-encoded, filtered, overlaid, cut, sped up or transposed; a song belongs to the account it was made for, from when it was made. ' +
      'Nothing was stored and the request is not counted.',
    earlierSong: { jobId: earlier, tokenId: match.sound.tokenId },
  });
}

/** UPLOAD_005: the outside lookup knows the recording. */
function knownOutside(match: OutsideMatch): AppError {
  return appError('UPLOAD_005', 'The audio is a recording the fingerprint service knows', {
    details: `${match.service} matched it to recording ${match.recordingId} (score ${match.score.toFixed(2)}); only your own audio can be uploaded. Nothing was stored and the request is not counted.`,
    fields: { recording_id: match.recordingId, score: match.score },
  });
}
