import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../core/src/db/database.ts';
import { GENERATION_QUEUE, WORKER_RETRY_LIMIT } from '../../core/src/generation-queue.ts';
import type { Tier } from '../../core/src/generation-queue.ts';
import {
  ABANDONED_JOB_MESSAGE,
  AUDIO_RETENTION_DAYS,
  GENERATION_FAILED_CODE,
  JOB_STATUS,
  JOB_STATUSES,
  attemptCancelled,
  cancelJob,
  claimJob,
  completeJob,
  failAbandonedJobs,
  failJob,
  findExpiredAudio,
  isFinished,
  lockForPublish,
  markPurged,
  queueJob,
  reportProgress,
  retryJob,
  unmarkPurged,
} from '../../core/src/jobs/job-state.ts';
import type { ClaimedJob, CompletedAudio } from '../../core/src/jobs/job-state.ts';
import { ensureGenerationQueue } from '../../core/src/queue.ts';
import {
  alignSounds,
  CANDIDATE_POSTINGS,
  createLandmarkLookup,
  findContainedSounds,
  HASH_CAPACITY,
  lookupFanout,
  MAX_CANDIDATES,
  MAX_POSTINGS_READ,
  MIN_LOOKUP_FANOUT,
  pairTriplets,
  POSTINGS_PER_COUNTED_POSTING,
  queryTriplets,
  registeredTriplets,
  registerLandmarks,
  verificationFanout,
} from '../../core/src/fingerprint/landmark-registry.ts';
import { MIN_VOTES } from '../../core/src/fingerprint/landmark-match.ts';
import { findEarlierClaim } from '../../core/src/fingerprint/registry.ts';
import type { ContrastImage } from '../../core/src/fingerprint/contrast-image.ts';
import { FRAME_SECONDS, LOG_BINS } from '../../core/src/fingerprint/log-spectrogram.ts';
import { EVIDENCE_MIN_MEDIAN, EVIDENCE_MIN_VOTES } from '../../core/src/fingerprint/spectrogram-evidence.ts';
import { seededRandom } from '../../core/src/testing/seeded-random.ts';
import { peaksToBytes } from '../../core/src/fingerprint/landmarks.ts';
import type { Peak } from '../../core/src/fingerprint/spectral-peaks.ts';
import { turnsDuring } from '../support/event-loop-turns.ts';
import { startQueueDatabase } from '../support/queue-database.ts';
import { recordingConnections } from '../support/recorded-connections.ts';
import type { QueueDatabase } from '../support/queue-database.ts';

interface Row {
  status: string;
  progress: number;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  audio_hash: string | null;
  purged_at: Date | null;
}

describe('core: the generation job state machine', () => {
  let services: QueueDatabase;
  let db: Database;
  let boss: PgBoss;
  before(async () => {
    services = await startQueueDatabase();
    ({ db, boss } = services);
    await ensureGenerationQueue(boss);
  });
  after(() => services.stop());

  /** Postings the landmark registry holds in all (migration 0028). */
  const registryPostings = async (): Promise<number> =>
    (await db.one<{ n: number }>('SELECT sum(postings)::int8::float8 AS n FROM landmark_registry_postings')).n;

  /** 30 s of scattered peaks (one per 7 frames, each up to 4 frames late) in the 24 bins from `lowestBin`, drawn from `seed`. */
  function scatteredPeaks(seed: number, lowestBin: number): Peak[] {
    const random = seededRandom(seed);
    return Array.from({ length: 360 }, (_, i) => ({
      t: i * 7 + Math.floor(random() * 5),
      k: lowestBin + Math.floor(random() * 24),
      contrast: 10,
    }));
  }

  /**
   * Runs `work` in a registry of 10,240 more sounds (empty, `userId`'s), as the planner counts them:
   * a lookup reads on a connection of its own, so the sounds are committed, then removed and counted
   * again.
   */
  async function amongManySounds<T>(userId: string, work: () => Promise<T>): Promise<T> {
    await db.none(
      `INSERT INTO landmark_sounds (job_id, user_id, created_at) SELECT gen_random_uuid(), $1, now() FROM generate_series(1, 10240)`,
      [userId],
    );
    try {
      await db.none('ANALYZE landmark_sounds');
      return await work();
    } finally {
      await db.none('DELETE FROM landmark_sounds WHERE user_id = $1', [userId]);
      await db.none('ANALYZE landmark_sounds');
    }
  }

  /** A user who has used `dailyUsed` generations today. */
  async function user(dailyUsed: number, tier: Tier = 'free'): Promise<{ id: string; address: string }> {
    const address = `0x${randomBytes(20).toString('hex')}`;
    const row = await db.one<{ id: string }>(
      'INSERT INTO users (wallet_address, tier, daily_generations, last_generation_reset) VALUES ($1, $2, $3, CURRENT_DATE) RETURNING id',
      [address, tier, dailyUsed],
    );
    return { id: row.id, address };
  }

  const queue = (owner: { id: string; address: string }, prompt = 'a song') =>
    db.tx((tx) =>
      queueJob(tx, boss, {
        userId: owner.id,
        userAddress: owner.address,
        prompt,
        duration: 10,
        steps: 27,
        withLyrics: false,
        tier: 'free',
      }),
    );
  const row = (id: string) =>
    db.one<Row>('SELECT status, progress, attempts, error_code, error_message, audio_hash, purged_at FROM generation_jobs WHERE id = $1', [
      id,
    ]);
  const dailyUsed = async (userId: string) =>
    (await db.one<{ n: number }>('SELECT daily_generations AS n FROM users WHERE id = $1', [userId])).n;
  const audio = (hash: string): CompletedAudio => ({
    audioKey: 'audio/x.mp3',
    audioUrl: 'http://127.0.0.1/audio/x.mp3',
    audioHash: hash,
    actualDuration: 10,
    modelName: 'm',
    modelVersion: '1',
    device: 'cpu',
    usedLyrics: null,
    lyricsTokens: null,
    modelLicence: 'MIT',
    modelCommercialUse: true,
    contentCredentials: { standard: 'c2pa', manifest: 'urn:c2pa:test', signer: 'CN=test' },
  });
  const claim = async (id: string): Promise<ClaimedJob> => {
    const claimed = await claimJob(db, id, 7n);
    assert.ok(claimed !== undefined, 'claimable');
    return claimed;
  };

  it("the schema allows exactly the module's statuses", async () => {
    const { definition } = await db.one<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'generation_jobs_status_check'`,
    );
    const allowed = [...definition.matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
    assert.deepEqual([...allowed].sort(), [...JOB_STATUSES].sort());
    assert.deepEqual(JOB_STATUSES.filter(isFinished), [JOB_STATUS.completed, JOB_STATUS.failed, JOB_STATUS.cancelled]);
  });

  it('queue writes the row and its queue message together; claim, progress and complete move it once', async () => {
    const owner = await user(1);
    const job = await queue(owner);
    assert.equal((await row(job.id)).status, JOB_STATUS.queued);
    const messages = await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'jobId' = $2`, [
      GENERATION_QUEUE,
      job.id,
    ]);
    assert.equal(messages.n, 1);
    await assert.rejects(
      db.tx(async (tx) => {
        await queueJob(tx, boss, {
          userId: owner.id,
          userAddress: owner.address,
          prompt: 'rolled back',
          duration: 10,
          steps: 27,
          withLyrics: false,
          tier: 'free',
        });
        throw new Error('abort');
      }),
      /abort/,
    );
    assert.equal((await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM generation_jobs WHERE prompt = 'rolled back'`)).n, 0);

    const claimed = await claim(job.id);
    assert.deepEqual([claimed.attempts, claimed.seed], [1, 7n], 'the derived seed is fixed on the first claim');
    await reportProgress(db, claimed, 60);
    await reportProgress(db, claimed, 30);
    assert.deepEqual([(await row(job.id)).status, (await row(job.id)).progress], [JOB_STATUS.processing, 60], 'progress never goes back');
    const hash = `0x${'ab'.repeat(32)}`;
    const done = await db.tx(async (tx) => (await lockForPublish(tx, claimed)) && completeJob(tx, claimed, audio(hash)));
    assert.equal(done, true);
    assert.deepEqual(await row(job.id), {
      status: JOB_STATUS.completed,
      progress: 100,
      attempts: 1,
      error_code: null,
      error_message: null,
      audio_hash: hash,
      purged_at: null,
    });
    assert.equal(await claimJob(db, job.id, 7n), undefined, 'a duplicate delivery finds the job finished');
    assert.equal(await db.tx((tx) => completeJob(tx, claimed, audio(`0x${'cd'.repeat(32)}`))), false);
    await failJob(db, claimed, 'late failure');
    assert.equal((await row(job.id)).status, JOB_STATUS.completed, 'a finished job never moves');
  });

  it("completion registers the sound's landmark fingerprint to the job's owner as of its completion, once; a lost attempt registers nothing", async () => {
    const owner = await user(0);
    // 20 s of peaks, 12 a second, at places that make triplets.
    const peaks = Array.from({ length: 240 }, (_, i) => ({ t: i * 6 + (i % 3), k: 20 + ((i * 37) % 60), contrast: 6 + (i % 20) }));
    const job = await queue(owner, 'registered at completion');
    const claimed = await claim(job.id);
    const withSound = { ...audio(`0x${'12'.repeat(32)}`), landmarks: peaksToBytes(peaks) };
    const totalBefore = await registryPostings();
    assert.equal(await db.tx(async (tx) => (await lockForPublish(tx, claimed)) && completeJob(tx, claimed, withSound)), true);
    const registered = await db.one<{ user_id: string; made: boolean; peaks: Buffer; postings: number }>(
      `SELECT s.user_id, s.created_at = j.completed_at AS made, s.peaks,
              (SELECT count(*)::int FROM landmark_hashes h, generate_series(0, octet_length(h.postings) - 10, 10) AS o
                WHERE substr(h.postings, o + 1, 4) = int4send(s.id)) AS postings
         FROM landmark_sounds s JOIN generation_jobs j ON j.id = s.job_id WHERE s.job_id = $1`,
      [job.id],
    );
    assert.deepEqual([registered.user_id, registered.made], [owner.id, true]);
    assert.deepEqual(new Uint8Array(registered.peaks), peaksToBytes(peaks));
    const triplets = registeredTriplets(peaks).hash.length;
    assert.ok(triplets > 100);
    assert.equal(registered.postings, triplets);
    assert.equal(await registryPostings(), totalBefore + triplets, "the registry's total counts them");
    await registerLandmarks(db, { jobId: job.id, userId: owner.id, peaks });
    assert.equal(await registryPostings(), totalBefore + triplets, 'a sound registered again adds nothing');
    assert.equal(await db.tx((tx) => completeJob(tx, claimed, withSound)), false, 'completed once');

    // A superseded attempt that tries to complete registers nothing; a song without landmark peaks neither.
    const lost = await queue(owner, 'lost attempt');
    const first = await claim(lost.id);
    await claim(lost.id);
    assert.equal(await db.tx((tx) => completeJob(tx, first, withSound)), false);
    const bare = await queue(owner, 'no landmarks');
    const bareClaim = await claim(bare.id);
    assert.equal(await db.tx((tx) => completeJob(tx, bareClaim, audio(`0x${'34'.repeat(32)}`))), true);
    const counted = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM landmark_sounds WHERE job_id IN ($1, $2)', [
      lost.id,
      bare.id,
    ]);
    assert.equal(counted.n, 0);
  });

  it('a hash registered more than HASH_CAPACITY times becomes a stop word: its postings go and later registrations leave it alone', async () => {
    // 20 s of peaks in the top register (k1 >= 96), which the other cases' peaks never reach.
    const peaks = Array.from({ length: 200 }, (_, i) => ({ t: i * 7 + (i % 2), k: 96 + ((i * 11) % 20), contrast: 10 }));
    const hashes = [...new Set(registeredTriplets(peaks).hash)];
    const perSound = new Map<number, number>();
    for (const hash of registeredTriplets(peaks).hash) perSound.set(hash, (perSound.get(hash) ?? 0) + 1);
    const lists = () =>
      db.any<{ hash: number; n: number; postings: number }>(
        'SELECT hash, n, octet_length(postings) / 10 AS postings FROM landmark_hashes WHERE hash = ANY($1::int4[]) ORDER BY hash',
        [hashes],
      );
    const asker = await user(0);
    const register = async (i: number) =>
      registerLandmarks(db, { jobId: randomUUID(), userId: (await user(0)).id, createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)), peaks });
    const first = await register(0);
    const found = await findContainedSounds(db, peaks, { userId: asker.id, own: false });
    assert.deepEqual(
      found.map((m) => m.sound.registryId),
      [first],
    );
    // Every hash held often enough that some pass the cap, some not yet.
    const rounds = Math.ceil((HASH_CAPACITY + 1) / Math.max(...perSound.values()));
    for (let i = 1; i < rounds; i += 1) await register(i);
    const atCap = await lists();
    assert.equal(atCap.length, hashes.length);
    for (const row of atCap) {
      const n = rounds * (perSound.get(row.hash) as number);
      assert.equal(row.n, n, `hash ${row.hash}`);
      assert.equal(row.postings, n <= HASH_CAPACITY ? n : 0, `hash ${row.hash}: ${n} postings`);
    }
    assert.ok(atCap.some((row) => row.postings === 0) && atCap.some((row) => row.postings > 0));
    // A hash a smaller cap emptied (a registry packed with 64 by migration 0027) stays a stop word.
    const emptiedEarlier = atCap.find((row) => row.postings > 0 && row.postings < HASH_CAPACITY) as (typeof atCap)[number];
    await db.none(`UPDATE landmark_hashes SET postings = ''::bytea WHERE hash = $1`, [emptiedEarlier.hash]);
    emptiedEarlier.postings = 0;
    // A stop word is not written again; the others grow.
    await register(rounds);
    for (const [i, row] of (await lists()).entries()) {
      const before = atCap[i] as (typeof atCap)[number];
      if (before.postings === 0) assert.deepEqual(row, before);
      else assert.ok(row.n > before.n);
    }
  });

  it('a lookup counts a hash while the registry is large enough for its postings: 64 among a few sounds, up to HASH_CAPACITY among many', async () => {
    assert.deepEqual([0, 2_559, 2_600, 6_000, 10_240, 1_000_000].map(lookupFanout), [
      MIN_LOOKUP_FANOUT,
      MIN_LOOKUP_FANOUT,
      65,
      150,
      HASH_CAPACITY,
      HASH_CAPACITY,
    ]);
    // 9 s of a four-note figure repeated in the top register, another pattern than the other
    // cases': each of its 9 hashes 14 to 30 times a sound, so that a few registrations put every
    // one past 64 postings and none past the capacity.
    const peaks = Array.from({ length: 60 }, (_, i) => ({ t: i * 10, k: 98 + (i % 4) * 3, contrast: 10 }));
    const perSound = new Map<number, number>();
    for (const hash of registeredTriplets(peaks).hash) perSound.set(hash, (perSound.get(hash) ?? 0) + 1);
    const copies = Math.ceil((MIN_LOOKUP_FANOUT + 1) / Math.min(...perSound.values()));
    const owners = await Promise.all(Array.from({ length: copies }, () => user(0)));
    const ids: number[] = [];
    for (const [i, owner] of owners.entries())
      ids.push(
        await registerLandmarks(db, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 2, 1, 0, i)), peaks }),
      );
    const rows = await db.any<{ n: number; postings: number }>(
      'SELECT n, octet_length(postings) / 10 AS postings FROM landmark_hashes WHERE hash = ANY($1::int4[])',
      [[...perSound.keys()]],
    );
    assert.ok(
      rows.length === perSound.size && rows.every((row) => row.n > MIN_LOOKUP_FANOUT && row.n <= HASH_CAPACITY && row.postings === row.n),
      'every hash between the two caps, its postings kept',
    );
    const asker = await user(0);
    assert.deepEqual(
      await findContainedSounds(db, peaks, { userId: asker.id, own: false }),
      [],
      'a few sounds: every hash is a commonplace',
    );
    // The same registry among 10,240 sounds, as the planner counts them.
    const amongMany = await amongManySounds(asker.id, () => findContainedSounds(db, peaks, { userId: asker.id, own: false }));
    assert.equal(
      amongMany?.[0]?.sound.registryId,
      ids[0],
      'among many sounds the same hashes are rare: the earliest registration is found',
    );
  });

  it('registrations at once that share hashes all land, none lost and none deadlocked, each in its own transaction', async () => {
    // 15 s of peaks in the top register, another pattern than the stop-word case's.
    const peaks = Array.from({ length: 150 }, (_, i) => ({ t: i * 6 + (i % 4), k: 97 + ((i * 7) % 17), contrast: 10 }));
    const perSound = new Map<number, number>();
    for (const hash of registeredTriplets(peaks).hash) perSound.set(hash, (perSound.get(hash) ?? 0) + 1);
    const owners = await Promise.all(Array.from({ length: 6 }, () => user(0)));
    const lists = () =>
      db.any<{ hash: number; n: number; postings: number }>(
        'SELECT hash, n, octet_length(postings) / 10 AS postings FROM landmark_hashes WHERE hash = ANY($1::int4[])',
        [[...perSound.keys()]],
      );
    // Whatever another case left under these hashes.
    const before = new Map((await lists()).map((row) => [row.hash, row.n]));
    const totalBefore = await registryPostings();
    // Each in a transaction that holds its row locks a while after registering, as a completing one does.
    await Promise.all(
      owners.map((owner, i) =>
        db.tx(async (tx) => {
          await registerLandmarks(tx, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 1, 1, 0, i)), peaks });
          await tx.any('SELECT pg_sleep(0.05)');
        }),
      ),
    );
    const rows = await lists();
    assert.equal(rows.length, perSound.size);
    for (const row of rows) {
      const n = (before.get(row.hash) ?? 0) + owners.length * (perSound.get(row.hash) as number);
      if (n <= HASH_CAPACITY) assert.deepEqual([row.n, row.postings], [n, n], `hash ${row.hash}`);
      else assert.ok(row.n > HASH_CAPACITY && row.postings === 0, `hash ${row.hash}: ${row.n} registered`);
    }
    assert.equal(await registryPostings(), totalBefore + owners.length * registeredTriplets(peaks).hash.length, 'no total lost');
    const found = await findContainedSounds(db, peaks, { userId: (await user(0)).id, own: false });
    assert.equal(found.length, owners.length, 'every registration found');
  });

  it('verifies a candidate on its stored peaks, counting the hashes past the read that are as rare as calibrated, and only those', async () => {
    assert.deepEqual([0, 256_000, 258_201, 1_200_000, 30_000_000].map(verificationFanout), [64, 64, 64, 300, 7_500]);
    // In the register below the other cases' (k1 72-95): hashes of their own.
    const peaks = scatteredPeaks(28, 72);
    const owner = await user(0);
    const asker = await user(0);
    const id = await registerLandmarks(db, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 3, 1)), peaks });
    const find = async () =>
      (await findContainedSounds(db, peaks, { userId: asker.id, own: false })).map((m) => [m.sound.registryId, m.alignment.votes]);
    const [[, allVotes] = []] = await find();
    assert.ok((allVotes as number) > 3 * MIN_VOTES, `${allVotes} votes with every hash read`);
    // A registry where all but a few of the sound's hashes hold 300 postings: past what a lookup
    // reads among few sounds (64), so only CANDIDATE_POSTINGS of its postings are read, too few
    // for a match on them alone.
    const hashes = [...new Set(registeredTriplets(peaks).hash)].sort((a, b) => a - b);
    const kept = hashes.slice(0, CANDIDATE_POSTINGS);
    const common = hashes.slice(CANDIDATE_POSTINGS);
    await db.none(`UPDATE landmark_hashes SET n = 300, postings = ''::bytea WHERE hash = ANY($1::int4[])`, [common]);
    const kept1 = await db.one<{ n: number }>(
      'SELECT sum(octet_length(postings) / 10)::int AS n FROM landmark_hashes WHERE hash = ANY($1::int4[])',
      [kept],
    );
    assert.ok(kept1.n >= CANDIDATE_POSTINGS && kept1.n < MIN_VOTES, `${kept1.n} postings read`);
    // Among 1,200,000 postings 300 is 1 in 4,000: the calibrated rarity, so verification counts them.
    const added = POSTINGS_PER_COUNTED_POSTING * 300 - (await registryPostings());
    await db.none('UPDATE landmark_registry_postings SET postings = postings + $1 WHERE slot = 0', [added]);
    let rare;
    try {
      rare = await find();
    } finally {
      await db.none('UPDATE landmark_registry_postings SET postings = postings - $1 WHERE slot = 0', [added]);
    }
    assert.deepEqual(rare, [[id, allVotes]], 'found on its peaks, every hash counted');
    // Among the registry's own few postings 300 is a commonplace: the same hashes tell nothing apart.
    assert.deepEqual(await find(), []);
  });

  it("looks an upload up in its views after itself: a view's match counts only within the matcher's reach on the upload, in the upload's time and pitch", async () => {
    const peaks = scatteredPeaks(41, 60);
    const owner = await user(0);
    const asker = await user(0);
    const jobId = randomUUID();
    await registerLandmarks(db, { jobId, userId: owner.id, createdAt: new Date(Date.UTC(2025, 4, 1)), peaks });
    // The upload itself shares nothing with the sound; its view a semitone down holds the sound
    // 5.9% longer and `shift` bins up: a copy made a semitone up with its tempo kept, read back.
    const upload = scatteredPeaks(42, 60);
    const view = (shift: number): Peak[] => peaks.map((p) => ({ ...p, t: Math.round(p.t * 2 ** (1 / 12)), k: p.k + shift }));
    assert.equal(await findEarlierClaim(db, upload, { userId: asker.id }), null);
    const match = await findEarlierClaim(db, upload, { userId: asker.id, views: [{ semitones: 1, peaks: view(0) }] });
    assert.equal(match?.sound.jobId, jobId);
    assert.ok(match.alignment.votes >= MIN_VOTES);
    assert.ok(Math.abs(match.alignment.stretch - 1) < 0.01, `tempo kept: stretch ${match.alignment.stretch}`);
    assert.ok(Math.abs(12 * Math.log2(match.alignment.pitch) - 1) < 0.1, `a semitone up: pitch ${match.alignment.pitch}`);
    // Read a semitone higher, the view aligns as well, but the upload would then be two semitones
    // up: past the 1.5 the matcher searches on an upload, so it does not count.
    assert.ok((alignSounds(view(2), peaks)?.votes ?? 0) >= MIN_VOTES, 'the view itself aligns');
    assert.equal(await findEarlierClaim(db, upload, { userId: asker.id, views: [{ semitones: 1, peaks: view(2) }] }), null);
    // The owner's own upload is never refused for its own sound, in any view.
    assert.equal(await findEarlierClaim(db, upload, { userId: owner.id, views: [{ semitones: 1, peaks: view(0) }] }), null);
  });

  it("holds a candidate short of votes on the evidence of the upload's contrast image, reading no posting row again; never without an image", async () => {
    // In bins 0-23, a register no other case here uses.
    const peaks = scatteredPeaks(71, 0);
    const owner = await user(0);
    const asker = await user(0);
    const jobId = randomUUID();
    await registerLandmarks(db, { jobId, userId: owner.id, createdAt: new Date(Date.UTC(2025, 4, 2)), peaks });
    // A weak copy: 40% of the sound's peaks from 10 s to 30 s among other peaks, where its
    // registered ones were; few of its triplets keep all three.
    const keep = seededRandom(107);
    const upload = [
      ...peaks.filter((_, i) => i >= 100 && i < 300 && keep() < 0.4),
      ...scatteredPeaks(73, 0).filter((p) => p.t >= 700 && p.t < 2100),
    ].sort((a, b) => a.t - b.t || a.k - b.k);
    const votes = alignSounds(upload, peaks, 2)?.votes ?? 0;
    assert.ok(votes >= EVIDENCE_MIN_VOTES && votes < MIN_VOTES, `${votes} votes`);
    // Its contrast image: faint noise, and the sound's energy where all its peaks were.
    const frames = 2600;
    const noise = seededRandom(108);
    const image = (withSound: boolean): ContrastImage => {
      const cells = Uint8Array.from({ length: frames * LOG_BINS }, () => Math.floor(noise() * 12));
      if (withSound)
        for (const p of peaks)
          for (let dt = -1; dt <= 1; dt += 1)
            for (let dk = -1; dk <= 1; dk += 1) if (p.k + dk >= 0) cells[(p.t + dt) * LOG_BINS + p.k + dk] = 48;
      return { frames, cells };
    };
    let connections = 0;
    const counted = recordingConnections(db, () => {
      connections += 1;
    });
    assert.equal(await findEarlierClaim(counted, upload, { userId: asker.id }), null, 'short of votes');
    connections = 0;
    const held = await findEarlierClaim(counted, upload, { userId: asker.id, image: image(true) });
    assert.equal(held?.sound.jobId, jobId);
    assert.ok((held.evidence ?? 0) >= EVIDENCE_MIN_MEDIAN, `evidence ${held.evidence}`);
    assert.equal(held.alignment.votes, votes);
    assert.equal(connections, 1, 'the posting rows read once, for both passes');
    assert.equal(await findEarlierClaim(db, upload, { userId: asker.id, image: image(false) }), null, 'no energy where the sound was');
    assert.equal(await findEarlierClaim(db, upload, { userId: owner.id, image: image(true) }), null, "the owner's own sound");
  });

  it("judges a candidate on the evidence at its alignment over every hash it shares, stop words too, where the lookup's few votes align it wrongly", async () => {
    // In bins 90-113, a register no other case here uses.
    const peaks = scatteredPeaks(81, 90);
    const owner = await user(0);
    const asker = await user(0);
    const jobId = randomUUID();
    await registerLandmarks(db, { jobId, userId: owner.id, createdAt: new Date(Date.UTC(2025, 4, 3)), peaks });
    // The copy: the sound's first 1,800 frames (26 s) where they were, then 35% of its later peaks
    // 600 frames later than they were (a passage that recurs, played again after a pause).
    const kept = peaks.filter((p) => p.t < 1800);
    const keep = seededRandom(111);
    const recurring = peaks.filter((p) => p.t >= 1800 && keep() < 0.35).map((p) => ({ ...p, t: p.t + 600 }));
    const upload = [...kept, ...recurring].sort((a, b) => a.t - b.t || a.k - b.k);
    // The kept passage registered past the lookup's fan-out by the asker (whose own sounds are never
    // candidates): every hash of it is a stop word, and the lookup counts only the recurring votes.
    // (A registry of fewer than 2,560 sounds: a hash counts up to MIN_LOOKUP_FANOUT postings.)
    for (let i = 0; i < MIN_LOOKUP_FANOUT; i += 1)
      await registerLandmarks(db, { jobId: randomUUID(), userId: asker.id, createdAt: new Date(Date.UTC(2025, 4, 4)), peaks: kept });
    const lookup = createLandmarkLookup(db, { userId: asker.id, own: false });
    const [candidates = []] = await lookup.find([upload], EVIDENCE_MIN_VOTES);
    const found = candidates.find((m) => m.sound.jobId === jobId);
    assert.ok(found !== undefined && found.alignment.votes < MIN_VOTES, `the lookup: ${JSON.stringify(found?.alignment)}`);
    assert.ok(Math.abs(found.alignment.offsetSeconds + 600 * FRAME_SECONDS) < 0.1, 'aligned on the recurring passage');
    const direct = alignSounds(upload, peaks, MIN_VOTES);
    assert.ok(direct !== null && Math.abs(direct.offsetSeconds) < 0.1, `over every hash: ${JSON.stringify(direct)}`);
    // The upload's contrast image: the sound's energy where the kept passage lies, not where the
    // recurring one does (few of its peaks).
    const frames = 3200;
    const noise = seededRandom(110);
    const cells = Uint8Array.from({ length: frames * LOG_BINS }, () => Math.floor(noise() * 12));
    for (const p of kept)
      for (let dt = -1; dt <= 1; dt += 1)
        for (let dk = -1; dk <= 1; dk += 1) if (p.k + dk < LOG_BINS) cells[(p.t + dt) * LOG_BINS + p.k + dk] = 48;
    const image: ContrastImage = { frames, cells };
    assert.equal(await findEarlierClaim(db, upload, { userId: asker.id }), null, 'short of votes in the lookup');
    const held = await findEarlierClaim(db, upload, { userId: asker.id, image });
    assert.equal(held?.sound.jobId, jobId);
    assert.ok((held.evidence ?? 0) >= EVIDENCE_MIN_MEDIAN, `evidence ${held.evidence}`);
    assert.ok(Math.abs(held.alignment.offsetSeconds) < 0.1, `held at the direct alignment: ${JSON.stringify(held.alignment)}`);
  });

  it("a lookup's later queries read only the rows its earlier ones left unread, and answer as lookups of their own", async () => {
    const owner = await user(0);
    const asker = await user(0);
    const first = scatteredPeaks(51, 36);
    const second = scatteredPeaks(52, 36);
    const ids = [];
    for (const [i, peaks] of [first, second].entries())
      ids.push(
        await registerLandmarks(db, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 5, 1 + i)), peaks }),
      );
    let connections = 0;
    const counted = new Proxy(db, {
      get(target, property) {
        if (property === 'connect')
          return () => {
            connections += 1;
            return target.connect();
          };
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const answer = (matches: Awaited<ReturnType<typeof findContainedSounds>>) =>
      matches.map((m) => [m.sound.registryId, m.alignment.votes]);
    const options = { userId: asker.id, own: false };
    const alone = [answer(await findContainedSounds(db, first, options)), answer(await findContainedSounds(db, second, options))];
    assert.deepEqual(
      alone.map((matches) => matches.map(([id]) => id)),
      [[ids[0]], [ids[1]]],
    );
    const lookup = createLandmarkLookup(counted, options);
    assert.deepEqual((await lookup.find([first])).map(answer), [alone[0]]);
    assert.equal(connections, 1);
    // The second query's hashes are new: one more statement reads them, the first's are not read again.
    assert.deepEqual((await lookup.find([first, second])).map(answer), alone);
    assert.equal(connections, 2);
    // Every hash read: no statement at all, the same answers.
    assert.deepEqual((await lookup.find([second, first])).map(answer), [alone[1], alone[0]]);
    assert.equal(connections, 2);
  });

  it("aligns only as many of a query's best candidates as it is asked to (the evidence pass asks for EVIDENCE_CANDIDATES)", async () => {
    const owner = await user(0);
    const asker = await user(0);
    const peaks = scatteredPeaks(53, 36);
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(
        await registerLandmarks(db, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 6, 1 + i)), peaks }),
      );
    const lookup = createLandmarkLookup(db, { userId: asker.id, own: false });
    const [all = []] = await lookup.find([peaks]);
    assert.deepEqual(
      all.map((m) => m.sound.registryId),
      ids,
    );
    const [one = []] = await lookup.find([peaks], undefined, 1);
    assert.equal(one.length, 1);
    assert.ok(ids.includes(one[0]?.sound.registryId ?? -1));
    const [two = []] = await lookup.find([peaks], 5, 2);
    assert.equal(two.length, 2);
  });

  it('lets the event loop run between the steps of its work, with the same answers', async () => {
    const owner = await user(0);
    const asker = await user(0);
    const queries = [scatteredPeaks(61, 36), scatteredPeaks(62, 36)];
    for (const [i, peaks] of queries.entries())
      await registerLandmarks(db, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 6, 1 + i)), peaks });
    const answer = (matches: Awaited<ReturnType<typeof findContainedSounds>>) =>
      matches.map((m) => [m.sound.registryId, m.alignment.votes]);
    for (const sliceMs of [0, 60_000]) {
      const lookup = createLandmarkLookup(db, { userId: asker.id, own: false, sliceMs });
      const first = await lookup.find(queries);
      // Asked again, the lookup has read every row, sound and peak it needs: no statement, no wait
      // for PostgreSQL, only its own work, which lets the event loop run only between its steps.
      const again = await turnsDuring(() => lookup.find(queries));
      const answers = again.result.map(answer);
      assert.deepEqual(answers, first.map(answer));
      assert.equal(answers.flat().length, 2, 'each query matches its sound');
      if (sliceMs === 0) assert.ok(again.turns >= 2 * queries.length, `${again.turns} turns at every pause`);
      else assert.equal(again.turns, 0, 'a slice long enough for the whole lookup holds the event loop');
    }
  });

  it('stops at its next step when its signal aborts: the client left', async () => {
    const owner = await user(0);
    const asker = await user(0);
    const peaks = scatteredPeaks(63, 36);
    await registerLandmarks(db, { jobId: randomUUID(), userId: owner.id, createdAt: new Date(Date.UTC(2025, 7, 1)), peaks });
    let connections = 0;
    const counted = recordingConnections(db, () => {
      connections += 1;
    });
    const left = new AbortController();
    const lookup = createLandmarkLookup(counted, { userId: asker.id, own: false, signal: left.signal });
    const found = lookup.find([peaks, peaks]);
    left.abort(new Error('the client left'));
    await assert.rejects(found, /the client left/);
    assert.equal(connections, 0, 'no statement after the client left');
    // Aborted as its rows are read: the claim check stops before it aligns anything.
    const later = new AbortController();
    const leavingAsRead = recordingConnections(db, () => later.abort(new Error('the client left later')));
    await assert.rejects(findEarlierClaim(leavingAsRead, peaks, { userId: asker.id, signal: later.signal }), /the client left later/);
    // Not aborted, the same check names the sound.
    assert.ok((await findEarlierClaim(leavingAsRead, peaks, { userId: asker.id })) !== null);
  });

  it('verifies first the candidates whose shared triplets lie on one diagonal, not the ones sharing most postings: a long sound shares many by chance', async () => {
    const random = seededRandom(81);
    const peaksFrom = (from: number, to: number): Peak[] =>
      Array.from({ length: Math.ceil((to - from) / 7) }, (_, i) => ({
        t: from + i * 7 + Math.floor(random() * 5),
        k: 20 + Math.floor(random() * 24),
        contrast: 10,
      }));
    // A 5 s sound, and an upload holding it, then 48 s of other audio.
    const sound = peaksFrom(0, 345);
    const other = peaksFrom(790, 4140);
    const upload = [...sound, ...other];
    // Each of MAX_CANDIDATES + 8 sounds of minutes holds all of the other audio, cut in pieces of
    // 0.4 s laid out in its own order 1.5 to 2.3 s apart: it shares more postings with the upload
    // than the sound does, but at most a few pieces' worth at any one offset from the upload.
    const PIECE = 28;
    const GAP = 100;
    const pieces: Peak[][] = [];
    for (let from = 790; from < 4140; from += PIECE)
      pieces.push(other.filter((p) => p.t >= from && p.t < from + PIECE).map((p) => ({ ...p, t: p.t - from })));
    const longSounds = Array.from({ length: MAX_CANDIDATES + 8 }, () => {
      const order = [...pieces];
      for (let i = order.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j] as Peak[], order[i] as Peak[]];
      }
      const laid: Peak[] = [];
      let at = 0;
      for (const piece of order) {
        at += GAP + Math.floor(random() * 60);
        for (const p of piece) laid.push({ ...p, t: at + p.t });
        at += PIECE;
      }
      return laid;
    });
    const shared = (peaks: Peak[]): number => pairTriplets(queryTriplets(upload), registeredTriplets(peaks)).length;
    assert.ok(
      longSounds.every((long) => shared(long) > shared(sound)),
      `every long sound shares more postings than the sound (${shared(sound)}): ${longSounds.map(shared).join(' ')}`,
    );
    assert.ok(
      longSounds.every((long) => (alignSounds(upload, long)?.votes ?? 0) < MIN_VOTES),
      `no long sound holds a match: ${longSounds.map((long) => alignSounds(upload, long)?.votes ?? 0).join(' ')}`,
    );
    const asker = await user(0);
    const jobId = randomUUID();
    await registerLandmarks(db, { jobId, userId: (await user(0)).id, createdAt: new Date(Date.UTC(2025, 6, 1)), peaks: sound });
    for (const long of longSounds)
      await registerLandmarks(db, {
        jobId: randomUUID(),
        userId: (await user(0)).id,
        createdAt: new Date(Date.UTC(2025, 6, 2)),
        peaks: long,
      });
    const found = await findContainedSounds(db, upload, { userId: asker.id, own: false });
    assert.deepEqual(
      found.map((m) => m.sound.jobId),
      [jobId],
    );
    assert.ok(Math.abs(found[0]?.alignment.offsetSeconds ?? 1) < 0.2, `${found[0]?.alignment.offsetSeconds}`);
  });

  it('reads at most MAX_POSTINGS_READ postings a lookup, the rarest hashes first', async () => {
    // k1 48-71, a register no other case uses.
    const peaks = scatteredPeaks(29, 48);
    const asker = await user(0);
    const id = await registerLandmarks(db, {
      jobId: randomUUID(),
      userId: (await user(0)).id,
      createdAt: new Date(Date.UTC(2025, 4, 1)),
      peaks,
    });
    const hashes = [...new Set(registeredTriplets(peaks).hash)].sort((a, b) => a - b);
    // The rarer half of the hashes holds other sounds' postings only, the commoner half the sound's
    // among others': 240 postings each, within the fan-out of a registry of 10,240 sounds.
    const rarer = hashes.slice(0, hashes.length >> 1);
    const commoner = hashes.slice(hashes.length >> 1);
    const fill = (hashList: number[], n: number, keepOwn: boolean) =>
      db.none(
        `UPDATE landmark_hashes SET n = $2,
                postings = (CASE WHEN $3 THEN postings ELSE ''::bytea END)
                           || (SELECT string_agg(int4send(-hash * 1000 - g) || int4send(0) || int2send(0::int2), ''::bytea)
                                 FROM generate_series(1, $2 - CASE WHEN $3 THEN octet_length(postings) / 10 ELSE 0 END) AS g)
          WHERE hash = ANY($1::int4[])`,
        [hashList, n, keepOwn],
      );
    await fill(commoner, 240, true);
    const find = async () => (await findContainedSounds(db, peaks, { userId: asker.id, own: false })).map((m) => m.sound.registryId);
    await amongManySounds(asker.id, async () => {
      // The rarer half within the budget with room for the commoner half's first 40 hashes: found on those.
      await fill(rarer, Math.floor((MAX_POSTINGS_READ - 40 * 240) / rarer.length), false);
      assert.deepEqual(await find(), [id]);
      // The rarer half alone past the budget: none of the commoner half is read, nothing found.
      await fill(rarer, Math.ceil(MAX_POSTINGS_READ / rarer.length) + 1, false);
      assert.ok(Math.ceil(MAX_POSTINGS_READ / rarer.length) + 1 < 240);
      assert.deepEqual(await find(), []);
    });
  });

  it('retry re-queues an attempt; a superseded claim cannot complete; fail is GEN_005 and gives the daily generation back', async () => {
    const owner = await user(3);
    const job = await queue(owner);
    const first = await claim(job.id);
    await retryJob(db, first, 'x'.repeat(2000));
    const retried = await row(job.id);
    assert.deepEqual([retried.status, retried.attempts, retried.error_message?.length], [JOB_STATUS.queued, 1, 1000]);
    const second = await claim(job.id);
    assert.equal(second.attempts, 2);
    assert.equal(await db.tx((tx) => lockForPublish(tx, first)), false, 'the first attempt no longer owns the job');
    assert.equal(await db.tx((tx) => completeJob(tx, first, audio(`0x${'ab'.repeat(32)}`))), false);
    await failJob(db, second, 'model exploded');
    const failed = await row(job.id);
    assert.deepEqual(
      [failed.status, failed.error_code, failed.error_message],
      [JOB_STATUS.failed, GENERATION_FAILED_CODE, 'model exploded'],
    );
    assert.equal(await dailyUsed(owner.id), 2, 'GEN_005 costs no generation');
    await failJob(db, second, 'again');
    assert.equal(await dailyUsed(owner.id), 2, 'the refund happens once');
  });

  it('a refund is skipped when the counter already belongs to a later day', async () => {
    const owner = await user(0);
    const job = await queue(owner);
    await db.none(`UPDATE generation_jobs SET created_at = now() - interval '2 days' WHERE id = $1`, [job.id]);
    await db.none('UPDATE users SET daily_generations = 4 WHERE id = $1', [owner.id]);
    await failJob(db, await claim(job.id), 'failed');
    assert.equal(await dailyUsed(owner.id), 4, "today's count is not touched by an older job's failure");
  });

  it('the sweep fails attempts abandoned on their last try, with the refund, and leaves jobs with retries left', async () => {
    const owner = await user(5);
    const abandoned = await queue(owner, 'abandoned');
    const retrying = await queue(owner, 'retrying');
    const recent = await queue(owner, 'recent');
    for (let attempt = 0; attempt <= WORKER_RETRY_LIMIT; attempt += 1) {
      await claim(abandoned.id);
      await claim(recent.id);
    }
    await claim(retrying.id);
    await db.none(`UPDATE generation_jobs SET started_at = now() - interval '1 hour' WHERE id IN ($1, $2)`, [abandoned.id, retrying.id]);
    assert.equal(await failAbandonedJobs(db, 720), 1);
    const failed = await row(abandoned.id);
    assert.deepEqual(
      [failed.status, failed.error_code, failed.error_message],
      [JOB_STATUS.failed, GENERATION_FAILED_CODE, ABANDONED_JOB_MESSAGE],
    );
    assert.equal((await row(retrying.id)).status, JOB_STATUS.processing, 'pg-boss still owns its retries');
    assert.equal((await row(recent.id)).status, JOB_STATUS.processing, 'the last attempt may still be running');
    assert.equal(await dailyUsed(owner.id), 4);
  });

  it(`purge finds completed unminted audio older than ${AUDIO_RETENTION_DAYS} days, marks it once and can take the mark back`, async () => {
    const owner = await user(0);
    const jobs = [];
    for (const [age, token] of [
      [AUDIO_RETENTION_DAYS + 1, null],
      [AUDIO_RETENTION_DAYS + 30, 9],
      [AUDIO_RETENTION_DAYS - 1, null],
    ] as const) {
      const job = await queue(owner, `age ${age}`);
      const claimed = await claim(job.id);
      await db.tx((tx) => completeJob(tx, claimed, audio(`0x${randomBytes(32).toString('hex')}`)));
      await db.none('UPDATE generation_jobs SET completed_at = now() - make_interval(days => $2), nft_token_id = $3 WHERE id = $1', [
        job.id,
        age,
        token,
      ]);
      jobs.push(job.id);
    }
    const expired = await findExpiredAudio(db, 10);
    assert.deepEqual(
      expired.map((job) => job.id),
      [jobs[0]],
    );
    assert.equal(await markPurged(db, jobs[0] ?? ''), true);
    assert.equal(await markPurged(db, jobs[0] ?? ''), false, 'marked once');
    assert.deepEqual(await findExpiredAudio(db, 10), []);
    await unmarkPurged(db, jobs[0] ?? '');
    assert.deepEqual(
      (await findExpiredAudio(db, 10)).map((job) => job.id),
      [jobs[0]],
    );
    const kept = await row(jobs[0] ?? '');
    assert.equal(kept.status, JOB_STATUS.completed);
    assert.ok(kept.audio_hash !== null);
  });

  it('cancel: a queued job of its owner becomes cancelled with the generation given back; workers skip it', async () => {
    const owner = await user(2);
    const stranger = await user(0);
    const job = await queue(owner);
    assert.deepEqual(await cancelJob(db, job.id, stranger.id), {
      ok: false,
      error: { code: 'not_found', message: 'no such job of this user' },
    });
    assert.deepEqual(await cancelJob(db, job.id, owner.id), { ok: true, value: { status: JOB_STATUS.cancelled } });
    assert.equal((await row(job.id)).status, JOB_STATUS.cancelled);
    assert.equal(await dailyUsed(owner.id), 1);
    const again = await cancelJob(db, job.id, owner.id);
    assert.ok(!again.ok && again.error.code === 'not_cancellable' && again.error.status === JOB_STATUS.cancelled);
    assert.equal(await dailyUsed(owner.id), 1, 'given back once');
    assert.equal(await claimJob(db, job.id, 1n), undefined, 'a cancelled job is never claimed');
  });

  it('cancel: a processing job is cancelled at once; its attempt can then neither progress, publish, complete, retry nor fail it', async () => {
    const owner = await user(2);
    const running = await queue(owner);
    const attempt = await claim(running.id);
    assert.equal(await attemptCancelled(db, attempt), false);
    assert.deepEqual(await cancelJob(db, running.id, owner.id), { ok: true, value: { status: JOB_STATUS.cancelled } });
    assert.equal(await dailyUsed(owner.id), 1, 'the daily generation is given back');
    assert.equal(await attemptCancelled(db, attempt), true, 'the worker sees it at its next step');
    await reportProgress(db, attempt, 60);
    assert.equal(await db.tx((tx) => lockForPublish(tx, attempt)), false, 'no upload');
    assert.equal(await db.tx((tx) => completeJob(tx, attempt, audio(`0x${'cd'.repeat(32)}`))), false);
    await retryJob(db, attempt, 'late failure');
    await failJob(db, attempt, 'late failure');
    const after = await row(running.id);
    assert.equal(after.status, JOB_STATUS.cancelled);
    assert.equal(after.progress, 0);
    assert.equal(after.audio_hash, null);
    assert.equal(await dailyUsed(owner.id), 1, 'given back once');

    const done = await queue(owner);
    const doneAttempt = await claim(done.id);
    await db.tx((tx) => completeJob(tx, doneAttempt, audio(`0x${'ef'.repeat(32)}`)));
    const refused = await cancelJob(db, done.id, owner.id);
    assert.ok(!refused.ok && refused.error.code === 'not_cancellable' && refused.error.status === JOB_STATUS.completed);
    assert.equal((await row(done.id)).status, JOB_STATUS.completed);
  });
});

describe('core: job statuses have one home', () => {
  it('no source file outside core/src/jobs/job-state.ts names a job status in SQL', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const root = new URL('../..', import.meta.url).pathname;
    const offenders: string[] = [];
    for (const base of ['core/src', 'oracle/src', 'inference/src']) {
      for (const entry of await readdir(join(root, base), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
        const path = join(entry.parentPath, entry.name);
        if (path.endsWith(join('core', 'src', 'jobs', 'job-state.ts'))) continue;
        const text = await readFile(path, 'utf8');
        const pattern = new RegExp(`status\\s*(=|<>|!=|IN\\s*\\()\\s*'(${JOB_STATUSES.join('|')})'`, 'g');
        for (const match of text.matchAll(pattern)) offenders.push(`${path.slice(root.length)}: ${match[0]}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
