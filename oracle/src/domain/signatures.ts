/**
 * Issuing the platform's mint signature (spec: POST /api/signature). The spec's four checks run
 * in its order: (1) the job belongs to the requester, (2) it is completed, (3) no signature was
 * issued for it before, (4) the audio hash recomputed from the stored object equals the job's.
 *
 * Exactly-once: the claim is one statement (conditional UPDATE of the job joined to the INSERT
 * of the signature row), so of any number of concurrent requests for a job exactly one
 * succeeds and the rest see SIGN_002. The stored audio is read and hashed before the claim,
 * outside any lock: audio objects are written once, and a request that loses the race has only
 * spent its own time.
 *
 * Check (3) counts only a signature that can still mint. One made by a key SongNFT has retired
 * since, for audio never minted, is dead for good (rotation is the only revocation the spec's
 * message allows), so it is replaced by one from the current key rather than stranding the song
 * (docs/minting.md, "Rotating the platform signer"). The replacement is one statement too,
 * conditional on the stored signature being the one found dead, so concurrent requests again
 * give exactly one new signature.
 *
 * One mint per sound (an extension, SIGN_006): every MP3 carries its own manifest, so two jobs
 * that made the same sound (same model, prompt and seed) have different audio hashes, and the
 * contract's one mint per hash would let the sound be minted twice. The job's `pcm_hash` (the
 * SHA-256 of the PCM its MP3 was encoded from) decides: the job that made the sound first (the
 * earlier completion, of any account) is the one that may be signed (issue 50: the earlier
 * creation wins, not the earlier signature), so a later job with the same sound is refused while
 * the earlier one can still be signed (not purged) or any other job holds a signature for it.
 * The hash is copied into the signature row, whose unique index refuses a second job's claim for
 * the same sound even when two requests race. Songs made before the hash was recorded have none.
 *
 * One mint per song, however re-encoded (issues 44 and 50, SIGN_007; docs/fingerprints.md): a song
 * that carries outside audio (its edit chain starts from an upload) must not contain a sound made
 * for another account before it (every completed song is registered at its completion, signed
 * or not), however re-encoded, filtered, overlaid, cut, sped up or transposed (its landmark
 * fingerprint, core/src/fingerprint/landmark-registry.ts), unless that sound
 * itself holds one of the asking account's earlier sounds (core/src/fingerprint/registry.ts
 * `findEarlierClaim`). A song made from the prompt alone is the service's own output and is never
 * refused for resembling another account's (identical sounds are SIGN_006's). Registration is the
 * completion's, before the audio is public, so no lock or second look is needed here: whatever a
 * copy could contain was registered before the copy could be made.
 *
 * The operator's policy on outside audio (issue 50 item 5, SIGN_008): a song whose kept outside
 * seconds (core/src/outside-audio.ts) exceed `MINT_MAX_OUTSIDE_SHARE` of it is not signed.
 */
import type { Address, Hex } from 'viem';
import { contentHashFromSha256 } from '../../../core/src/content-hash.ts';
import type { Database } from '../../../core/src/db/database.ts';
import { audioObjectKey, toPublicJobId } from '../../../core/src/generation-queue.ts';
import { JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import type { JobStatus } from '../../../core/src/jobs/job-state.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';
import { MintSignerError } from '../chain/mint-signer.ts';
import type { MintSigner } from '../chain/mint-signer.ts';
import { modelLicenceRefusal } from './model-licence.ts';
import type { ModelLicencePolicy } from './model-licence.ts';
import type { SignerStatus } from '../chain/signer-status.ts';
import { parsePublicJobId } from './jobs.ts';
import { chargedLookup } from './request-charge.ts';
import type { ChargedLookup } from './request-charge.ts';
import { peaksFromBytes } from '../../../core/src/fingerprint/landmarks.ts';
import { describeMatch, findEarlierClaim } from '../../../core/src/fingerprint/registry.ts';
import type { RegistryMatch } from '../../../core/src/fingerprint/registry.ts';
import { outsideSeconds, outsideShare } from '../../../core/src/outside-audio.ts';
import type { OutsideSpan } from '../../../core/src/outside-audio.ts';
import { trashedRefusal } from './library.ts';

/** Spec: "signature lifetime 1 hour, single use". */
export const SIGNATURE_LIFETIME_SECONDS = 3600;

export type { MintSigner };

export interface SignatureDeps {
  db: Database;
  objectStore: Pick<ObjectStore, 'sha256'>;
  signer: MintSigner;
  /** SongNFT's signer reads; absent (no chain configured): an issued signature is never replaced. */
  signerStatus?: SignerStatus;
  now: () => Date;
  /** The licence guard's policy (model-licence.ts); absent: enforce. */
  modelLicence?: ModelLicencePolicy | undefined;
  /** `MINT_MAX_OUTSIDE_SHARE`: the largest share of a song that may be kept outside audio (SIGN_008); absent: the default. */
  maxOutsideShare?: number | undefined;
}

/** `MINT_MAX_OUTSIDE_SHARE`'s default: at most half of a signed song may be uploaded audio. */
export const DEFAULT_MAX_OUTSIDE_SHARE = 0.5;

/** Variant A names the job; Variant B names the audio by its hash. */
export type SignatureSubject = { jobId: string } | { audioHash: Hex };

export interface SignatureRequest {
  userId: string;
  /** The authenticated wallet (lower-case): the only address a signature is issued for. */
  minter: Address;
  subject: SignatureSubject;
  metadataUri: string;
}

export interface IssuedSignature {
  /** Public job id, `gen_<uuid>`. */
  jobId: string;
  signature: Hex;
  audioHash: Hex;
  metadataUri: string;
  minter: Address;
  signer: Address;
  issuedAt: Date;
  expiresAt: Date;
}

/** What the four checks read of a job. */
export interface SignableJob {
  id: string;
  status: JobStatus;
  audio_key: string | null;
  audio_hash: Hex | null;
  signature: string | null;
  /**
   * True when another job holds the job's sound (`pcm_hash`) first: one signed for it, or one that
   * made it earlier and can still be signed (not purged).
   */
  sound_made_elsewhere: boolean;
  /** The sound's landmark peaks, raw (null for songs made before them). */
  landmarks: Buffer | null;
  /** When the job completed: when its sound was made. */
  completed_at: Date | null;
  /** Seconds of the song, as made. */
  actual_duration: number | null;
  /** Its edit chain starts from an upload (core/src/outside-audio.ts): the fingerprint checks apply. */
  outside_material: boolean;
  /** Its seconds that are uploaded audio kept verbatim. */
  outside_spans: OutsideSpan[];
  /** Its owner moved it to the trash (./library.ts): restore it before minting. */
  trashed: boolean;
}

const UNIQUE_VIOLATION = '23505';
/** The unique index on mint_signatures.pcm_hash (migration 0014). */
const PCM_HASH_KEY = 'mint_signatures_pcm_hash_key';

function invalidJob(publicId?: string) {
  // Unknown, malformed and someone else's job ids answer alike: no job existence leaks.
  return appError('SIGN_001', 'Invalid job', {
    details: 'No job with this id belongs to the authenticated user.',
    ...(publicId === undefined ? {} : { jobId: publicId }),
  });
}

/*
 * Named prepared statements: PostgreSQL parses and plans each once per connection, and the
 * client sends only the name and the values (the issuance path is the oracle's hottest write).
 */
const SIGNABLE_COLUMNS = `id, status, audio_key, audio_hash, signature, landmarks, deleted_at IS NOT NULL AS trashed,
  completed_at, actual_duration, outside_material, outside_spans,
  (EXISTS (SELECT 1 FROM mint_signatures s WHERE s.pcm_hash = generation_jobs.pcm_hash AND s.job_id <> generation_jobs.id)
   OR EXISTS (SELECT 1 FROM generation_jobs e
               WHERE e.pcm_hash = generation_jobs.pcm_hash AND e.id <> generation_jobs.id
                 AND e.status = ${sqlStatus(JOB_STATUS.completed)} AND e.purged_at IS NULL
                 AND (e.completed_at, e.id) < (generation_jobs.completed_at, generation_jobs.id))) AS sound_made_elsewhere`;
/** The lookups by job id and by audio hash, over SQL expressions for their parameters. */
const byId = (jobId: string, userId: string) =>
  `SELECT ${SIGNABLE_COLUMNS} FROM generation_jobs WHERE id = ${jobId} AND user_id = ${userId}`;
// Identical audio from two jobs (same prompt and seed) can be minted once: prefer a job that
// still has no signature, so the answer is SIGN_002 only when every such job is signed.
const byAudioHash = (userId: string, audioHash: string) => `SELECT ${SIGNABLE_COLUMNS} FROM generation_jobs
          WHERE user_id = ${userId} AND audio_hash = ${audioHash} AND status = ${sqlStatus(JOB_STATUS.completed)}
          ORDER BY (signature IS NULL) DESC, created_at LIMIT 1`;
/** The same lookups inside the session charge's statement. */
const signableJob = (row: Readonly<Record<string, unknown>>): SignableJob | null =>
  typeof row.id === 'string' ? (row as unknown as SignableJob) : null;
const chargeAndFindById = chargedLookup('signature-charge-find-job-by-id', (caller, [id]) => byId(`${id}::uuid`, caller), signableJob);
const chargeAndFindByAudioHash = chargedLookup(
  'signature-charge-find-job-by-audio-hash',
  (caller, [hash]) => byAudioHash(caller, hash ?? ''),
  signableJob,
);
const CLAIM_SIGNATURE = {
  name: 'signature-claim',
  text: `WITH claimed AS (
           UPDATE generation_jobs SET signature = $3, metadata_uri = $4
            WHERE id = $1 AND user_id = $2 AND status = ${sqlStatus(JOB_STATUS.completed)} AND signature IS NULL
            RETURNING id, user_id, audio_hash, pcm_hash)
         INSERT INTO mint_signatures
           (job_id, user_id, minter, metadata_uri, audio_hash, pcm_hash, signature, signer_address, issued_at, expires_at)
         SELECT id, user_id, $5, $4, audio_hash, pcm_hash, $3, $6, $7, $8 FROM claimed
         RETURNING job_id`,
};
/** Replaces the stored signature `$9` (found stranded) with `$3`; no row when another request did first. */
const REPLACE_SIGNATURE = {
  name: 'signature-replace',
  text: `WITH replaced AS (
           UPDATE mint_signatures
              SET minter = $5, metadata_uri = $4, signature = $3, signer_address = $6, issued_at = $7, expires_at = $8,
                  replaced_signature = signature, replaced_signer_address = signer_address, reissued_at = $7
            WHERE job_id = $1 AND user_id = $2 AND signature = $9 AND token_id IS NULL
            RETURNING job_id)
         UPDATE generation_jobs j SET signature = $3, metadata_uri = $4 FROM replaced WHERE j.id = replaced.job_id
         RETURNING j.id`,
};
const ISSUED_SIGNER = { name: 'signature-issued-signer', text: 'SELECT signer_address, token_id FROM mint_signatures WHERE job_id = $1' };

/**
 * The caller's job the subject names (by job id, or by audio hash preferring an unsigned job),
 * read in the charge of its request (`chargeRequest`): the signature routes take one round trip
 * fewer per signature. Ids that cannot exist find nothing.
 */
export function signableJobLookup(subject: SignatureSubject): ChargedLookup<SignableJob> {
  return 'jobId' in subject
    ? chargeAndFindById(parsePublicJobId(subject.jobId))
    : chargeAndFindByAudioHash(subject.audioHash.toLowerCase());
}

/** The four checks, the signature and the claim, for `job` as `signableJobLookup` found it (null: none of the caller's). */
export async function signFoundJob(
  deps: SignatureDeps,
  request: SignatureRequest,
  job: SignableJob | null,
): Promise<Result<IssuedSignature>> {
  const publicId = 'jobId' in request.subject ? request.subject.jobId : undefined;

  // (1) The job belongs to the requester.
  if (job === null) return fail(invalidJob(publicId));
  const jobId = toPublicJobId(job.id);

  // (2) Its status is completed.
  if (job.status !== JOB_STATUS.completed || job.audio_hash === null) {
    return fail(
      appError('SIGN_003', 'Job not completed', {
        details: `The job is ${job.status}; a signature is issued only for completed audio.`,
        jobId,
      }),
    );
  }

  // A song in the trash is not minted until its owner restores it (./library.ts).
  if (job.trashed) return fail(trashedRefusal(jobId));

  // (3) No signature was issued for it before, unless the one issued can never mint.
  if (job.signature !== null) {
    const stranded = await isStranded(deps, job.id, job.audio_hash);
    if (!stranded.ok) return fail({ ...stranded.error, jobId });
    if (!stranded.value) return fail(alreadySigned(jobId));
  }

  // (4) The audio hash recomputed from the stored object matches the stored value: the store's own
  // SHA-256 checksum of the object where it keeps one, else the object streamed through SHA-256.
  const stored = await deps.objectStore.sha256(job.audio_key ?? audioObjectKey(job.id));
  if (!stored.ok) {
    if (stored.error.code === 'not_found') {
      return fail(appError('SIGN_004', 'Audio hash mismatch', { details: 'The audio object of this job is no longer stored.', jobId }));
    }
    return fail(appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: stored.error.message, retryAfter: 5, jobId }));
  }
  if (contentHashFromSha256(stored.value.hex) !== job.audio_hash) {
    return fail(
      appError('SIGN_004', 'Audio hash mismatch', {
        details: 'The stored audio no longer hashes to the value recorded when the job completed.',
        jobId,
      }),
    );
  }

  const refused = await modelLicenceRefusal(deps, job.id, jobId);
  if (refused !== null) return fail(refused);

  // One mint per sound: another job made the same PCM first, or holds its signature.
  if (job.sound_made_elsewhere) return fail(soundSigned(jobId));

  // One mint per song: audio carrying outside material contains no earlier sound of another account.
  if (job.outside_material && job.landmarks !== null) {
    const contained = await findEarlierClaim(deps.db, peaksFromBytes(job.landmarks), {
      userId: request.userId,
      createdAt: job.completed_at ?? undefined,
    });
    if (contained !== null) return fail(containsRegistered(jobId, contained));
  }

  // The operator's policy: at most this share of a signed song is outside audio.
  const maxShare = deps.maxOutsideShare ?? DEFAULT_MAX_OUTSIDE_SHARE;
  const share = outsideShare(job.outside_spans, job.actual_duration ?? 0);
  if (share > maxShare) return fail(tooMuchOutside(jobId, job.outside_spans, job.actual_duration ?? 0, maxShare));

  const audioHash = job.audio_hash;
  const minter = request.minter.toLowerCase() as Address;
  // Signed before the claim: a key whose HSM or KMS does not answer leaves nothing recorded.
  const signed = await signMint(deps.signer, { minter, metadataUri: request.metadataUri, audioHash }, jobId);
  if (!signed.ok) return signed;
  const signature = signed.value;
  const issuedAt = deps.now();
  const expiresAt = new Date(issuedAt.getTime() + SIGNATURE_LIFETIME_SECONDS * 1000);

  const values = [
    job.id,
    request.userId,
    signature.toLowerCase(),
    request.metadataUri,
    minter,
    deps.signer.address.toLowerCase(),
    issuedAt,
    expiresAt,
  ];
  try {
    const claimed =
      job.signature === null
        ? await deps.db.oneOrNone<{ job_id: string }>({ ...CLAIM_SIGNATURE, values })
        : await deps.db.oneOrNone<{ id: string }>({ ...REPLACE_SIGNATURE, values: [...values, job.signature] });
    if (claimed === null) return fail(alreadySigned(jobId));
  } catch (error) {
    if (isUniqueViolation(error) && (error as { constraint?: unknown }).constraint === PCM_HASH_KEY) return fail(soundSigned(jobId));
    if (isUniqueViolation(error)) {
      return fail(
        appError('SIGN_002', 'Already signed', {
          details: 'A signature was already issued for identical audio; the contract mints each audio hash once.',
          jobId,
        }),
      );
    }
    throw error;
  }

  return ok({ jobId, signature, audioHash, metadataUri: request.metadataUri, minter, signer: deps.signer.address, issuedAt, expiresAt });
}

/** Seconds to suggest before asking again while the HSM or KMS does not sign. */
const SIGNER_RETRY_SECONDS = 5;

async function signMint(signer: MintSigner, input: Parameters<MintSigner['sign']>[0], jobId: string): Promise<Result<Hex>> {
  try {
    return ok(await signer.sign(input));
  } catch (error) {
    if (error instanceof MintSignerError && error.code === 'SIGNER_UNAVAILABLE') {
      return fail(
        appError('SERVICE_UNAVAILABLE', 'Signer unavailable', {
          details: `The platform key's ${signer.backend === 'pkcs11' ? 'HSM' : 'KMS'} did not sign; nothing was recorded: ${error.message}`,
          retryAfter: SIGNER_RETRY_SECONDS,
          jobId,
        }),
      );
    }
    throw error;
  }
}

/** Whether the signature issued for `jobId` was made by a key SongNFT has retired, for audio never minted. */
async function isStranded(deps: SignatureDeps, jobId: string, audioHash: Hex): Promise<Result<boolean>> {
  if (deps.signerStatus === undefined) return ok(false);
  const issued = await deps.db.oneOrNone<{ signer_address: Address; token_id: string | null }>({ ...ISSUED_SIGNER, values: [jobId] });
  // The current key's own signature still works; a recorded mint means the audio is used.
  if (issued === null || issued.token_id !== null || issued.signer_address === deps.signer.address.toLowerCase()) return ok(false);
  return deps.signerStatus.isStranded({ signer: issued.signer_address, audioHash });
}

function soundSigned(jobId: string) {
  return appError('SIGN_006', 'Sound already made or signed', {
    details:
      'Another job made the same sound (the same PCM hash) before this one, or holds a mint signature for it; each sound is minted once, ' +
      'from the job that made it first. An edit or a remix is a different sound.',
    jobId,
  });
}

/** SIGN_007: the song contains `match`, made earlier for another account (docs/fingerprints.md). */
export function containsRegistered(jobId: string, match: RegistryMatch) {
  const earlier = toPublicJobId(match.sound.jobId);
  const token = match.sound.tokenId === null ? '' : ` (token ${match.sound.tokenId})`;
  const place = describeMatch(match);
  return appError('SIGN_007', 'Contains a song made earlier for another account', {
    details:
      `From ${place.queryAt} s this song holds ${earlier}${token} (from its ${place.soundAt} s${place.change === '' ? '' : `, ${place.change}`}), ` +
      'made for another account before it, however re-encoded, filtered, overlaid, cut, sped up or transposed. A song belongs to the ' +
      'account it was made for, from when it was made; your own songs, their edits and extensions are yours to sign.',
    jobId,
    earlierSong: { jobId: earlier, tokenId: match.sound.tokenId },
  });
}

/** SIGN_008: more of the song than the operator allows is uploaded audio kept verbatim. */
function tooMuchOutside(jobId: string, spans: readonly OutsideSpan[], duration: number, maxShare: number) {
  const seconds = outsideSeconds(spans);
  return appError('SIGN_008', 'Too much outside audio', {
    details:
      `${seconds.toFixed(1)} s of this ${duration.toFixed(1)} s song is uploaded audio kept verbatim through its edits; this platform signs a song ` +
      `whose outside audio is at most ${Math.round(maxShare * 100)}% of it. Extend it further, or repaint or remix the uploaded part.`,
    jobId,
    fields: { outside_seconds: Math.round(seconds * 1000) / 1000, max_outside_share: maxShare },
  });
}

function alreadySigned(jobId: string) {
  return appError('SIGN_002', 'Already signed', { details: 'A signature was already issued for this job.', jobId });
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === UNIQUE_VIOLATION;
}
