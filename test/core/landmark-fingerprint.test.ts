/**
 * The landmark fingerprint and its registry (core/src/fingerprint/landmark-registry.ts, migrations
 * 0022, 0025, 0027, docs/fingerprints.md) on real music nobody here made: tracks of Debian's
 * wesnoth-1.16-music registered in a real PostgreSQL, 25 s excerpts of three of them copied as a
 * copier would (test/support/copier-transforms.ts: ffmpeg, sox, rubberband, espeak-ng), each copy
 * read by the product's upload decoder and looked up as another account's upload is by the
 * ownership rule the upload and signature checks apply (core/src/fingerprint/registry.ts). Every copy names its
 * track; distinct tracks name none of each other. Skipped, with the reason, where the package or
 * a tool is missing. About 2 minutes on 2 loaded cores (the copies most of it).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAudioProber } from '../../core/src/audio/audio-prober.ts';
import { decodeUploadedAudio } from '../../core/src/audio/uploaded-audio.ts';
import { closeDatabase, createDatabase } from '../../core/src/db/database.ts';
import type { Database } from '../../core/src/db/database.ts';
import { MIN_VOTES } from '../../core/src/fingerprint/landmark-match.ts';
import { registerLandmarks } from '../../core/src/fingerprint/landmark-registry.ts';
import { findEarlierClaim } from '../../core/src/fingerprint/registry.ts';
import { EVIDENCE_MIN_MEDIAN, EVIDENCE_MIN_VOTES } from '../../core/src/fingerprint/spectrogram-evidence.ts';
import { landmarkPeaks, peaksFromBytes, peaksToBytes } from '../../core/src/fingerprint/landmarks.ts';
import { VIEW_SEMITONES } from '../../core/src/fingerprint/query-views.ts';
import { uploadLandmarks } from '../../core/src/fingerprint/sound-fingerprints.ts';
import type { Peak } from '../../core/src/fingerprint/spectral-peaks.ts';
import { startTestPostgres } from '../../core/src/testing/postgres.ts';
import type { TestPostgres } from '../../core/src/testing/postgres.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { wav16 } from '../support/audio-copies.ts';
import {
  COPIER_TRANSFORMATIONS,
  decodeWithFfmpeg,
  makeCopierCopies,
  missingCopierTool,
  wesnothTracks,
  WIDER_TRANSPOSITIONS,
} from '../support/copier-transforms.ts';

const found = wesnothTracks();
const SKIP = 'missing' in found ? found.missing : (missingCopierTool() ?? false);
if (SKIP !== false) console.log(`# landmark fingerprint on real music skipped: ${SKIP}`);
const TRACKS = 'tracks' in found ? found.tracks : [];
/** The registered tracks (60 s of each) and, of them, the first COPIED have 25 s excerpts copied. */
const REGISTERED = ['battle.ogg', 'breaking_the_chains.ogg', 'elvish-theme.ogg', 'knolls.ogg', 'northerners.ogg', 'wanderer.ogg'];
const COPIED = 3;
/** Unrelated music under the voice-over and in the splice: a track not registered. */
const OTHER = 'loyalists.ogg';
/** Registered twice, by two accounts, in the earliest-creation case only. */
const TWICE = 'silvan_sanctuary.ogg';
const REGISTERED_FROM = 10;
const REGISTERED_SECONDS = 60;
const EXCERPT_FROM = 30;
const EXCERPT_SECONDS = 25;

const path = (name: string): string => TRACKS.find((t) => t.endsWith(`/${name}`)) ?? name;

describe('core: the landmark fingerprint finds every copier transformation of real music, and no distinct track', { skip: SKIP }, () => {
  let pg: TestPostgres;
  let db: Database;
  let work: TempDir;
  const owners: string[] = [];
  let copier = '';
  const jobs: string[] = [];
  const peaks: Peak[][] = [];
  /** Each registered track's views, for its lookup as an upload. */
  const views: ReturnType<typeof uploadLandmarks>['views'][] = [];
  /** Each registered track's contrast image, for its lookup as an upload. */
  const images: ReturnType<typeof uploadLandmarks>['image'][] = [];

  const user = async (): Promise<string> =>
    (
      await db.one<{ id: string }>(
        'INSERT INTO users (wallet_address, tier, daily_generations, last_generation_reset) VALUES ($1, $2, 1, CURRENT_DATE) RETURNING id',
        [`0x${randomBytes(20).toString('hex')}`, 'free'],
      )
    ).id;

  before(async () => {
    pg = await startTestPostgres();
    db = createDatabase(pg.url);
    work = await makeTempDir('landmarks');
    copier = await user();
    for (const [i, name] of REGISTERED.entries()) {
      const pcm = await decodeWithFfmpeg(path(name), 44100, 2, REGISTERED_FROM, REGISTERED_SECONDS);
      const upload = uploadLandmarks(pcm.channels, pcm.sampleRate);
      peaks.push(upload.peaks);
      views.push(upload.views);
      images.push(upload.image);
      owners.push(await user());
      jobs.push(randomUUID());
      await registerLandmarks(db, {
        jobId: jobs[i] as string,
        userId: owners[i] as string,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        peaks: peaks[i] as Peak[],
      });
    }
  });
  after(async () => {
    await closeDatabase(db);
    await pg.stop();
    await work.remove();
  });

  it('stores peaks losslessly (6 bytes a peak)', () => {
    const first = peaks[0] as Peak[];
    const back = peaksFromBytes(peaksToBytes(first));
    assert.equal(back.length, first.length);
    assert.ok(back.every((p, i) => p.t === first[i]?.t && p.k === first[i]?.k && Math.abs(p.contrast - (first[i]?.contrast ?? 0)) <= 0.25));
  });

  it("computes an upload's peaks in the decode thread, in the decode's pass, as the whole-PCM fingerprinter does", async () => {
    const excerpt = await decodeWithFfmpeg(path(REGISTERED[0] as string), 44100, 2, EXCERPT_FROM, 12);
    const wav = join(work.path, 'upload.wav');
    await writeFile(wav, wav16(excerpt.channels, excerpt.sampleRate));
    const bytes = new Uint8Array(await readFile(wav));
    const decoded = await decodeUploadedAudio(bytes, { maxSeconds: 600 });
    assert.ok(decoded.ok);
    const prober = createAudioProber({ threads: 1 });
    try {
      const probed = await prober.probe(bytes, { maxSeconds: 600 });
      assert.ok(probed.result.ok && probed.landmarks !== undefined);
      assert.deepEqual(
        peaksFromBytes(probed.landmarks),
        peaksFromBytes(peaksToBytes(landmarkPeaks(decoded.value.channels, decoded.value.sampleRate))),
      );
      assert.ok(probed.landmarks.length > 12 * 6 * 5, `${probed.landmarks.length / 6} peaks in 12 s`);
      // Its views, a semitone either way, as the whole-PCM fingerprinter reads them: a semitone up
      // reads the upload lower (two log bins) and longer (2^(1/12)).
      const whole = uploadLandmarks(decoded.value.channels, decoded.value.sampleRate);
      assert.deepEqual(
        probed.landmarkViews?.map(({ semitones, peaks }) => ({ semitones, peaks: peaksFromBytes(peaks) })),
        whole.views.map(({ semitones, peaks }) => ({ semitones, peaks: peaksFromBytes(peaksToBytes(peaks)) })),
      );
      assert.deepEqual(
        whole.views.map((v) => v.semitones),
        VIEW_SEMITONES,
      );
      // The contrast images of the upload and its views, for the evidence on them.
      assert.deepEqual(probed.landmarkImage, whole.image?.cells);
      assert.deepEqual(
        probed.landmarkViews?.map(({ image }) => image),
        whole.views.map(({ image }) => image?.cells),
      );
      assert.ok((whole.image?.frames ?? 0) >= 12 * 68, `${whole.image?.frames} frames in 12 s`);
      // The shift that puts most of the upload's strongest peaks on a view's peak (±2 frames, the
      // view's time scaled) is two log bins a semitone, downward for a view that reads it lower.
      const strongest = [...whole.peaks].sort((a, b) => b.contrast - a.contrast).slice(0, 300);
      for (const view of whole.views) {
        const ratio = 2 ** (view.semitones / 12);
        const at = new Set(view.peaks.map((p) => `${p.t},${p.k}`));
        const held = (shift: number): number =>
          strongest.filter((p) => [-2, -1, 0, 1, 2].some((dt) => at.has(`${Math.round(p.t * ratio) + dt},${p.k + shift}`))).length;
        const shifts = [-4, -3, -2, -1, 0, 1, 2, 3, 4];
        const best = shifts.reduce((a, b) => (held(b) > held(a) ? b : a));
        assert.equal(best, -2 * view.semitones, `view ${view.semitones}: ${shifts.map((d) => `${d}: ${held(d)}`).join(', ')}`);
        const lengthRatio = (view.peaks.at(-1)?.t ?? 0) / (whole.peaks.at(-1)?.t ?? 1);
        assert.ok(Math.abs(lengthRatio - ratio) < 0.02, `view ${view.semitones}: ${lengthRatio} as long`);
      }
    } finally {
      await prober.close();
    }
  });

  it('finds each track looked up by another account, and no other track when looked up by its owner, in its views too', async () => {
    for (const [i, own] of peaks.entries()) {
      const byOther = await findEarlierClaim(db, own, { userId: copier });
      assert.equal(byOther?.sound.jobId, jobs[i], `${REGISTERED[i]} names itself`);
      assert.ok(
        Math.abs((byOther?.alignment.stretch ?? 0) - 1) < 0.02 && byOther?.alignment.pitch === 1,
        `${REGISTERED[i]}: ${JSON.stringify(byOther?.alignment)}`,
      );
      const byOwner = await findEarlierClaim(db, own, { userId: owners[i] as string, views: views[i] });
      assert.equal(
        byOwner,
        null,
        `${REGISTERED[i]} looked up by its owner names ${byOwner?.sound.jobId} (${JSON.stringify(byOwner?.alignment)})`,
      );
    }
  });

  it("names the earliest creation of a sound registered twice, never a later copy of the asker's own, and none made after the asker", async () => {
    const [early, late] = [await user(), await user()];
    const [earlyJob, lateJob] = [randomUUID(), randomUUID()];
    // A track registered nowhere else (the registry only grows: the other cases' tracks stay the earliest of theirs).
    const pcm = await decodeWithFfmpeg(path(TWICE), 44100, 2, REGISTERED_FROM, 20);
    const own = landmarkPeaks(pcm.channels, pcm.sampleRate);
    await registerLandmarks(db, { jobId: lateJob, userId: late, createdAt: new Date(Date.UTC(2025, 5, 2)), peaks: own });
    await registerLandmarks(db, { jobId: earlyJob, userId: early, createdAt: new Date(Date.UTC(2025, 5, 1)), peaks: own });
    assert.equal((await findEarlierClaim(db, own, { userId: copier }))?.sound.jobId, earlyJob);
    assert.equal((await findEarlierClaim(db, own, { userId: late }))?.sound.jobId, earlyJob);
    // The later registrations hold the early account's earlier sound: they never count against it.
    assert.equal(await findEarlierClaim(db, own, { userId: early }), null);
    assert.equal(await findEarlierClaim(db, own, { userId: copier, createdAt: new Date(Date.UTC(2025, 5, 1)) }), null, 'none made before');
  });

  it('names the track of every copy: voice-over, EQ, filters, compression, telephone, MP3 64, noise, excerpt, splice, speed, pitch, tempo', async () => {
    const other = await decodeWithFfmpeg(path(OTHER), 44100, 1, 20, EXCERPT_SECONDS);
    const misses: string[] = [];
    for (let i = 0; i < COPIED; i += 1) {
      const dir = join(work.path, String(i));
      await mkdir(dir);
      const excerpt = await decodeWithFfmpeg(path(REGISTERED[i] as string), 44100, 2, EXCERPT_FROM, EXCERPT_SECONDS);
      const copies = await makeCopierCopies(excerpt, other.channels[0] as Float32Array, dir, i);
      for (const t of COPIER_TRANSFORMATIONS) {
        const decoded = await decodeUploadedAudio(new Uint8Array(await readFile(copies.get(t.id) as string)), { maxSeconds: 600 });
        assert.ok(decoded.ok, `${t.id}: ${decoded.ok ? '' : decoded.error.message}`);
        // Looked up as the upload check does: the copy, then its views (core/src/fingerprint/query-views.ts).
        const upload = uploadLandmarks(decoded.value.channels, decoded.value.sampleRate);
        const match = await findEarlierClaim(db, upload.peaks, { userId: copier, views: upload.views });
        if (match?.sound.jobId !== jobs[i])
          misses.push(`${REGISTERED[i]} ${t.id}: ${match === null ? 'no match' : `named ${match.sound.jobId}`}`);
        else assert.ok((match?.alignment.votes ?? 0) >= MIN_VOTES);
      }
    }
    assert.deepEqual(misses, []);
  });

  it('names copies transposed a semitone and a half, on the evidence of their spectrogram where the votes fall short', async () => {
    const named: string[] = [];
    const onEvidence: string[] = [];
    for (const [i, name] of REGISTERED.entries()) {
      const dir = join(work.path, `wider-${i}`);
      await mkdir(dir);
      const excerpt = await decodeWithFfmpeg(path(name), 44100, 2, EXCERPT_FROM, EXCERPT_SECONDS);
      const source = join(dir, 'source.wav');
      await writeFile(source, wav16(excerpt.channels, excerpt.sampleRate));
      for (const t of WIDER_TRANSPOSITIONS) {
        const file = await t.make(source, dir, { pcm: excerpt, otherMusic: new Float32Array(0), seed: i });
        const decoded = await decodeUploadedAudio(new Uint8Array(await readFile(file)), { maxSeconds: 600 });
        assert.ok(decoded.ok);
        const upload = uploadLandmarks(decoded.value.channels, decoded.value.sampleRate);
        const match = await findEarlierClaim(db, upload.peaks, { userId: copier, views: upload.views, image: upload.image });
        if (match === null || match.sound.jobId !== jobs[i]) continue;
        named.push(`${name} ${t.id}`);
        if (match.evidence === undefined) continue;
        // Named on the evidence: short of votes in the upload and its views, over the threshold on its spectrogram.
        assert.ok(match.alignment.votes >= EVIDENCE_MIN_VOTES && match.alignment.votes < MIN_VOTES, `${match.alignment.votes} votes`);
        assert.ok(match.evidence >= EVIDENCE_MIN_MEDIAN);
        assert.equal(await findEarlierClaim(db, upload.peaks, { userId: copier, views: upload.views }), null, 'no match on votes');
        assert.ok(
          Math.abs(Math.abs(12 * Math.log2(match.alignment.pitch)) - 1.5) < 0.3,
          `transposed ${12 * Math.log2(match.alignment.pitch)}`,
        );
        onEvidence.push(`${name} ${t.id}`);
      }
    }
    assert.equal(named.length, REGISTERED.length * WIDER_TRANSPOSITIONS.length, `named: ${named.join(', ')}`);
    assert.ok(onEvidence.length >= 1, 'at least one named on the evidence alone');
    // The owners' lookups with their images too: the evidence names no other track.
    for (const [i, own] of peaks.entries()) {
      const byOwner = await findEarlierClaim(db, own, { userId: owners[i] as string, views: views[i], image: images[i] });
      assert.equal(byOwner, null, `${REGISTERED[i]} looked up by its owner with its image names ${byOwner?.sound.jobId}`);
    }
  });
});
