/**
 * The landmark fingerprint's part of `npm run bench:fingerprint` (issue 50, docs/fingerprints.md):
 *
 * 1. Real music nobody here made: every track of Debian's wesnoth-1.16-music registered whole (its
 *    own account, ffmpeg's decode; `BENCH_LANDMARK_REGISTER_SECONDS` registers only their start) in a real PostgreSQL (migrations 0022, 0027); of the first
 *    `BENCH_LANDMARK_TRACKS` (default all) of at least 30 s, a 25 s excerpt is copied by every
 *    copier transformation (test/support/copier-transforms.ts), each copy read by the product's
 *    upload decoder and looked up as a copier's upload (core/src/fingerprint/registry.ts `findEarlierClaim`):
 *    caught when the lookup names its track.
 *    Held out (`BENCH_LANDMARK_HELD_OUT`, folders of other music, e.g. Debian's hyperrogue-music,
 *    drascula-music and asc-music unpacked): music the threshold was not calibrated on, registered
 *    likewise and `BENCH_LANDMARK_HELD_OUT_TRACKS` (8) of its tracks copied; its distinct pairs are
 *    counted among themselves and against the wesnoth tracks.
 * 2. Built-in songs: `BENCH_LANDMARK_SONGS` (24) songs of distinct prompts, 30 s, registered and
 *    copied likewise (excerpt 2.5-27.5 s). The voice-over's other music and the splice's filler are
 *    a built-in song registered nowhere.
 * 3. Distinct songs: each registered track and song looked up by its own owner (so that it cannot
 *    name itself) among all of them: any sound named is a false match (every pair, both ways).
 *    Beside it, the highest agreeing-vote count of any distinct pair against the threshold.
 * 4. Lookup time among `BENCH_FINGERPRINT_REGISTRY` (1,000,000) registered sounds: the real ones
 *    and synthetic ones of `BENCH_LANDMARK_SYNTHETIC_POSTINGS` postings each, their hashes drawn
 *    from a model of the real postings' hashes (`loadSynthetic`), bulk-loaded by SQL before the
 *    hash index is built (as a restore would), then every copy looked up again: p50/p99, by the
 *    product (migration 0027's rows per hash) and, on the same postings in a table of a row per
 *    posting, by the lookups of migrations 0022 (the baseline) and 0025.
 * 5. Cost: the landmark fingerprint of a 240 s song beside its MP3 encode (the caller's timing).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { decodeUploadedAudio } from '../../core/src/audio/uploaded-audio.ts';
import pg from 'pg';
import { closeDatabase, connectionSettings, createDatabase, DATABASE_DEADLINES } from '../../core/src/db/database.ts';
import type { Database } from '../../core/src/db/database.ts';
import { alignShared, MAX_SHIFT_BINS, MIN_VOTES } from '../../core/src/fingerprint/landmark-match.ts';
import type { SharedTriplet } from '../../core/src/fingerprint/landmark-match.ts';
import {
  alignTriplets,
  CANDIDATE_POSTINGS,
  findContainedSounds,
  HASH_CAPACITY,
  indexByHash,
  LOOKUP_SLICE_MS,
  pairTriplets,
  POSTINGS_PER_COUNTED_POSTING,
  queryTriplets,
  registeredTriplets,
  registryReach,
  registerLandmarks,
  sharedTriplet,
} from '../../core/src/fingerprint/landmark-registry.ts';
import { alignmentInView } from '../../core/src/fingerprint/query-views.ts';
import type { ViewPeaks } from '../../core/src/fingerprint/query-views.ts';
import { findEarlierClaim } from '../../core/src/fingerprint/registry.ts';
import { uploadLandmarks } from '../../core/src/fingerprint/sound-fingerprints.ts';
import type { ContrastImage } from '../../core/src/fingerprint/contrast-image.ts';
import { EVIDENCE_MIN_MEDIAN, EVIDENCE_MIN_VOTES } from '../../core/src/fingerprint/spectrogram-evidence.ts';
import { peaksToBytes } from '../../core/src/fingerprint/landmarks.ts';
import type { Peak } from '../../core/src/fingerprint/spectral-peaks.ts';
import { HASH_SPACE, QUERY, RATIO_LEVELS, REGISTER, REGISTER_BINS, SPAN_CLASSES } from '../../core/src/fingerprint/triplets.ts';
import { LOG_BINS } from '../../core/src/fingerprint/log-spectrogram.ts';
import type { Triplets } from '../../core/src/fingerprint/triplets.ts';
import { startTestPostgres } from '../../core/src/testing/postgres.ts';
import {
  BUILTIN_OTHER_MUSIC,
  builtinExcerpt,
  COPIED_EXCERPT_SECONDS,
  COPIER_TRANSFORMATIONS,
  decodeWithFfmpeg,
  makeCopierCopies,
  missingCopierTool,
  monoMix,
  wesnothTracks,
} from '../../test/support/copier-transforms.ts';
import type { Pcm } from '../../test/support/copier-transforms.ts';
import { modelledLayouts, modelRecall } from './scale-model.ts';

const TRACKS = Number(process.env.BENCH_LANDMARK_TRACKS ?? 41);
const SONGS = Number(process.env.BENCH_LANDMARK_SONGS ?? 24);
const REGISTRY = Number(process.env.BENCH_FINGERPRINT_REGISTRY ?? 1_000_000);
const SYNTHETIC_POSTINGS = Number(process.env.BENCH_LANDMARK_SYNTHETIC_POSTINGS ?? 100);
/** Fan-outs measured at scale beside the product's. */
const FANOUTS = (process.env.BENCH_LANDMARK_FANOUTS ?? '32').split(',').map(Number);
/** The registry at scale is packed with this cap, so that fan-outs past the product's can be read. */
const REGISTRY_CAP = Math.max(HASH_CAPACITY, ...FANOUTS);
/**
 * How the synthetic postings' hash components are drawn: from 400 draws of the real postings'
 * (the bench's runs until 2026-11-29) or, with `real`, from all of them, at their own frequencies.
 */
const SYNTHETIC_DRAWS: SyntheticDraws = process.env.BENCH_LANDMARK_SYNTHETIC_DRAWS === 'real' ? 'real frequencies' : '400 draws';
type SyntheticDraws = '400 draws' | 'real frequencies';
/** Folders of held-out music (any format ffmpeg decodes), comma-separated; none when unset. */
const HELD_OUT_DIRS = (process.env.BENCH_LANDMARK_HELD_OUT ?? '').split(',').filter((dir) => dir !== '');
const HELD_OUT_TRACKS = Number(process.env.BENCH_LANDMARK_HELD_OUT_TRACKS ?? 8);
/** A held-out file shorter than this is left out (a jingle, not a track). */
const HELD_OUT_MIN_SECONDS = 12;
/**
 * A file to write every registered sound's and every copy's peaks to (JSON, peaks base64 as
 * migration 0022 stores them), for `bench/fingerprint/scale-model-run.ts` to model key and lookup
 * layouts on without making the copies again; none when unset.
 */
const DUMP = process.env.BENCH_LANDMARK_DUMP;
/** Seconds of each track registered (from its start); all of it when unset. */
const REGISTER_SECONDS =
  process.env.BENCH_LANDMARK_REGISTER_SECONDS === undefined ? undefined : Number(process.env.BENCH_LANDMARK_REGISTER_SECONDS);

export interface LandmarkBenchInput {
  workDir: string;
  /** A built-in song (44.1 kHz stereo PCM) of `prompt`, `seed`, `seconds`. */
  render(prompt: string, seed: number, seconds: number): Promise<Pcm>;
  promptOf(i: number): string;
}

export type Corpus = 'real' | 'held-out' | 'built-in';

interface Sound {
  name: string;
  corpus: Corpus;
  /** The file a real or held-out track was decoded from. */
  source: string | null;
  jobId: string;
  userId: string;
  peaks: Peak[];
  /** Its views (core/src/fingerprint/query-views.ts), for its lookup as an upload. */
  views: ViewPeaks[];
  /** Its contrast image (core/src/fingerprint/contrast-image.ts), for its lookup as an upload. */
  image: ContrastImage | undefined;
  seconds: number;
}

interface CopyResult {
  corpus: Corpus;
  transformation: string;
  caught: boolean;
  falseMatch: boolean;
  votes: number;
  /** The statistic on its spectrogram where it was caught on the evidence, not on votes. */
  evidence: number | undefined;
  peaks: Peak[];
  views: ViewPeaks[];
  image: ContrastImage | undefined;
  ms: number;
  /** The copied sound's job. */
  jobId: string;
  /** The copied sound's name. */
  name: string;
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/**
 * Each query's shared triplets with each registered sound it shares 2 or more with (paired by hash,
 * as the lookup pairs them), aligned with the votes tallied in an array and in a map: the time of
 * each over all pairs, and how many alignments differ (the two must give the same).
 */
function measureVerification(
  queries: readonly Triplets[],
  registered: readonly Triplets[],
): { pairs: number; arrayMs: number; mapMs: number; differing: number } {
  let pairs = 0;
  let arrayMs = 0;
  let mapMs = 0;
  let differing = 0;
  for (const query of queries) {
    const byHash = indexByHash(query);
    for (const sound of registered) {
      const shared = pairTriplets(query, sound, byHash);
      if (shared.length < 2) continue;
      pairs += 1;
      let started = performance.now();
      const inArray = alignShared(shared);
      arrayMs += performance.now() - started;
      started = performance.now();
      const inMap = alignShared(shared, 'map');
      mapMs += performance.now() - started;
      if (JSON.stringify(inArray) !== JSON.stringify(inMap)) differing += 1;
    }
  }
  return { pairs, arrayMs, mapMs, differing };
}

/** A folder's name for the report: its package's, where the folder itself is a generic "music". */
const folderLabel = (dir: string): string =>
  ['music', 'audio', 'sounds'].includes(basename(dir)) ? basename(dirname(dir)) : basename(dir);

/** Held-out tracks taken one folder after another (their names start with the folder's), so that the copies cover each. */
function roundRobinByFolder(tracks: readonly Sound[]): Sound[] {
  const byFolder = new Map<string, Sound[]>();
  for (const track of tracks) {
    const folder = track.name.slice(0, track.name.indexOf('/'));
    (byFolder.get(folder) ?? (byFolder.set(folder, []).get(folder) as Sound[])).push(track);
  }
  const lists = [...byFolder.values()];
  const out: Sound[] = [];
  for (let i = 0; out.length < tracks.length; i += 1) for (const list of lists) if (i < list.length) out.push(list[i] as Sound);
  return out;
}

/**
 * Decodes and registers (through `register`) every file of `HELD_OUT_DIRS` ffmpeg decodes and that
 * lasts `HELD_OUT_MIN_SECONDS` or more; returns the files left out, each with why.
 */
async function registerHeldOut(register: (name: string, pcm: Pcm, source: string) => Promise<void>): Promise<string[]> {
  const leftOut: string[] = [];
  for (const dir of HELD_OUT_DIRS)
    for (const file of (await readdir(dir)).sort()) {
      const source = join(dir, file);
      const name = `${folderLabel(dir)}/${basename(file, extname(file))}`;
      const pcm = await decodeWithFfmpeg(source, 22050, 1, 0, REGISTER_SECONDS).catch(() => null);
      const seconds = pcm === null ? 0 : (pcm.channels[0]?.length ?? 0) / pcm.sampleRate;
      if (pcm === null || seconds < HELD_OUT_MIN_SECONDS) {
        leftOut.push(`${name} (${pcm === null ? 'ffmpeg cannot decode it' : `${seconds.toFixed(0)} s`})`);
        continue;
      }
      await register(name, pcm, source);
    }
  return leftOut;
}

/** The bench's registered sounds and copies, peaks and all (`BENCH_LANDMARK_DUMP`). */
export interface PeakDump {
  sounds: { name: string; corpus: Corpus; peaks: string }[];
  copies: { row: string; own: number; peaks: string }[];
}

async function writePeakDump(path: string, sounds: readonly Sound[], copies: readonly CopyResult[]): Promise<void> {
  const dump: PeakDump = {
    sounds: sounds.map((s) => ({ name: s.name, corpus: s.corpus, peaks: Buffer.from(peaksToBytes(s.peaks)).toString('base64') })),
    copies: copies.map((c) => ({
      row: c.transformation,
      own: sounds.findIndex((s) => s.jobId === c.jobId),
      peaks: Buffer.from(peaksToBytes(c.peaks)).toString('base64'),
    })),
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(dump));
  console.log(`peaks of ${sounds.length} sounds and ${copies.length} copies written to ${path}`);
}

export async function runLandmarkBench(input: LandmarkBenchInput): Promise<{ markdown: string; json: unknown } | { skipped: string }> {
  const found = wesnothTracks();
  if ('missing' in found) return { skipped: found.missing };
  const tool = missingCopierTool();
  if (tool !== null) return { skipped: tool };
  const postgres = await startTestPostgres();
  const db = createDatabase(postgres.url);
  try {
    const user = async (): Promise<string> =>
      (
        await db.one<{ id: string }>(
          'INSERT INTO users (wallet_address, tier, daily_generations, last_generation_reset) VALUES ($1, $2, 1, CURRENT_DATE) RETURNING id',
          [`0x${randomBytes(20).toString('hex')}`, 'free'],
        )
      ).id;
    const copier = await user();
    await createBaselinePostings(db);
    const sounds: Sound[] = [];
    let created = Date.UTC(2026, 0, 1);
    const register = async (name: string, corpus: Corpus, pcm: Pcm, source: string | null = null): Promise<Sound> => {
      const sound: Sound = {
        name,
        corpus,
        source,
        jobId: randomUUID(),
        userId: await user(),
        ...uploadLandmarks(pcm.channels, pcm.sampleRate),
        seconds: (pcm.channels[0]?.length ?? 0) / pcm.sampleRate,
      };
      created += 60_000;
      await registerLandmarks(db, { jobId: sound.jobId, userId: sound.userId, createdAt: new Date(created), peaks: sound.peaks });
      await addBaselinePostings(db, sound.jobId, sound.peaks);
      sounds.push(sound);
      return sound;
    };

    // 1-2. Register the real tracks whole and the built-in songs.
    console.log(`registering ${found.tracks.length} wesnoth tracks and ${SONGS} built-in songs …`);
    for (const track of found.tracks)
      await register(basename(track, '.ogg'), 'real', await decodeWithFfmpeg(track, 22050, 1, 0, REGISTER_SECONDS), track);
    const heldOutLeftOut = await registerHeldOut(async (name, pcm, source) => {
      await register(name, 'held-out', pcm, source);
    });
    if (HELD_OUT_DIRS.length > 0)
      console.log(
        `registered ${sounds.filter((s) => s.corpus === 'held-out').length} held-out tracks of ${HELD_OUT_DIRS.join(', ')} (${heldOutLeftOut.length} files left out)`,
      );
    const songPcm: Pcm[] = [];
    for (let i = 0; i < SONGS; i += 1) {
      const pcm = await input.render(input.promptOf(i), 5000 + i, 30);
      songPcm.push(pcm);
      await register(input.promptOf(i), 'built-in', pcm);
    }
    const fillerMono = monoMix(await input.render(BUILTIN_OTHER_MUSIC.prompt, BUILTIN_OTHER_MUSIC.seed, BUILTIN_OTHER_MUSIC.seconds));

    // Copies, each looked up as the copier's upload.
    const copies: CopyResult[] = [];
    const copyAll = async (sound: Sound, excerpt: Pcm, index: number): Promise<void> => {
      const dir = join(input.workDir, `landmark-copies-${index}`);
      await mkdir(dir, { recursive: true });
      const files = await makeCopierCopies(excerpt, fillerMono, dir, index);
      for (const t of COPIER_TRANSFORMATIONS) {
        const decoded = await decodeUploadedAudio(new Uint8Array(await readFile(files.get(t.id) as string)), { maxSeconds: 600 });
        if (!decoded.ok) throw new Error(`${t.id}: ${decoded.error.message}`);
        // Looked up as the upload check does: the copy, then its views.
        const { peaks, views, image } = uploadLandmarks(decoded.value.channels, decoded.value.sampleRate);
        const started = performance.now();
        const match = await findEarlierClaim(db, peaks, { userId: copier, views, image });
        const ms = performance.now() - started;
        copies.push({
          corpus: sound.corpus,
          transformation: t.id,
          caught: match?.sound.jobId === sound.jobId,
          falseMatch: match !== null && match.sound.jobId !== sound.jobId,
          votes: match?.alignment.votes ?? 0,
          evidence: match?.evidence,
          peaks,
          views,
          image,
          ms,
          jobId: sound.jobId,
          name: sound.name,
        });
      }
    };
    const realCopied = sounds.filter((s) => s.corpus === 'real' && s.seconds >= 30).slice(0, TRACKS);
    const heldOutCopied = roundRobinByFolder(sounds.filter((s) => s.corpus === 'held-out' && s.seconds >= 30)).slice(0, HELD_OUT_TRACKS);
    console.log(
      `copying ${realCopied.length} + ${heldOutCopied.length} tracks and ${SONGS} songs × ${COPIER_TRANSFORMATIONS.length} transformations …`,
    );
    for (const [i, sound] of [...realCopied, ...heldOutCopied].entries())
      await copyAll(
        sound,
        await decodeWithFfmpeg(
          sound.source as string,
          44100,
          2,
          Math.min(30, sound.seconds - COPIED_EXCERPT_SECONDS),
          COPIED_EXCERPT_SECONDS,
        ),
        i,
      );
    const songs = sounds.filter((s) => s.corpus === 'built-in');
    for (const [i, sound] of songs.entries()) {
      await copyAll(sound, builtinExcerpt(songPcm[i] as Pcm), 1000 + i);
    }

    // 3. Distinct songs: each looked up by its owner among all; the closest pair's votes.
    const distinct: { corpus: Corpus; name: string; named: string | null }[] = [];
    for (const sound of sounds) {
      const match = await findEarlierClaim(db, sound.peaks, { userId: sound.userId, views: sound.views, image: sound.image });
      distinct.push({
        corpus: sound.corpus,
        name: sound.name,
        named: match === null ? null : (sounds.find((s) => s.jobId === match.sound.jobId)?.name ?? '?'),
      });
    }
    // Pairs within a corpus, and held-out tracks against wesnoth's both ways.
    const pairKinds = ['real', 'held-out', 'held-out × real', 'built-in'] as const;
    type PairKind = (typeof pairKinds)[number];
    const pairKind = (a: Sound, b: Sound): PairKind | null =>
      a.corpus === b.corpus ? a.corpus : a.corpus !== 'built-in' && b.corpus !== 'built-in' ? 'held-out × real' : null;
    const closest = Object.fromEntries(pairKinds.map((kind) => [kind, { votes: 0, pair: '' }])) as Record<
      PairKind,
      { votes: number; pair: string }
    >;
    const pairVoteCounts = Object.fromEntries(pairKinds.map((kind) => [kind, [] as number[]])) as Record<PairKind, number[]>;
    const asQuery = new Map(sounds.map((s) => [s, queryTriplets(s.peaks)]));
    const asRegistered = new Map(sounds.map((s) => [s, registeredTriplets(s.peaks)]));
    const viewQueries = new Map(
      sounds.map((s) => [s, s.views.map(({ semitones, peaks }) => ({ semitones, query: queryTriplets(peaks) }))]),
    );
    for (const a of sounds)
      for (const b of sounds) {
        const kind = a === b ? null : pairKind(a, b);
        if (kind === null) continue;
        // As an upload is looked up: itself, then its views within the matcher's reach on it.
        const registered = asRegistered.get(b) as Triplets;
        const votes = Math.max(
          alignTriplets(asQuery.get(a) as Triplets, registered)?.votes ?? 0,
          ...(viewQueries.get(a) ?? []).map(({ semitones, query }) => {
            const alignment = alignTriplets(query, registered);
            return alignment !== null && alignmentInView(semitones, alignment) ? alignment.votes : 0;
          }),
        );
        pairVoteCounts[kind].push(votes);
        if (votes > closest[kind].votes) closest[kind] = { votes, pair: `${a.name} | ${b.name}` };
      }

    // 3b. What verifying a candidate costs, the matcher's two tallies on the same triplets.
    const verification = measureVerification(
      copies.map((c) => queryTriplets(c.peaks)),
      [...asRegistered.values()],
    );

    if (DUMP !== undefined) await writePeakDump(DUMP, sounds, copies);

    // 4. The registry at scale: synthetic sounds bulk-loaded, then every copy looked up again.
    const postingsOfReal = (await db.one<{ n: string }>('SELECT count(*)::text AS n FROM bench_postings')).n;
    const synthetic = Math.max(0, REGISTRY - sounds.length);
    console.log(`loading ${synthetic.toLocaleString('en')} synthetic sounds of ${SYNTHETIC_POSTINGS} postings …`);
    const loadStarted = performance.now();
    // A failed load still leaves the figures above to report.
    const loadError = await loadSynthetic(postgres.url, synthetic, SYNTHETIC_POSTINGS, SYNTHETIC_DRAWS, REGISTRY_CAP).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const storage = await db.one<{
      postings: string;
      index: string;
      rows: string;
      lists: string;
      listIndex: string;
      hashes: string;
      stopWords: string;
    }>(
      `SELECT pg_size_pretty(pg_relation_size('bench_postings')) AS postings, pg_size_pretty(pg_relation_size('bench_postings_hash_idx')) AS index,
              (SELECT reltuples::bigint::text FROM pg_class WHERE relname = 'bench_postings') AS rows,
              pg_size_pretty(pg_relation_size('landmark_hashes')) AS lists, pg_size_pretty(pg_relation_size('landmark_hashes_pkey')) AS "listIndex",
              (SELECT count(*)::text FROM landmark_hashes) AS hashes, (SELECT count(*)::text FROM landmark_hashes WHERE n > $1) AS "stopWords"`,
      [REGISTRY_CAP],
    );
    // Each copy looked up again at this scale: by the product's lookup (the ownership rule over
    // findContainedSounds: migration 0027's rows per hash), by the same with fewer postings a hash,
    // and by two baselines on the same postings in the layout of migrations 0022/0025 (a row per
    // posting, bench_postings): migration 0022's statement (256 postings a hash, every posting row
    // to the process) and migration 0025's (the candidates ranked in the database: the product
    // before this one).
    // What the product's lookup reads in this registry, as it reads it (the load analyzed it).
    const productFanout = (await registryReach(db)).fanout;
    const variants: {
      name: string;
      lookup: (peaks: Peak[], views: ViewPeaks[], image: ContrastImage | undefined) => Promise<string | null>;
    }[] = [
      { name: 'baseline: the 0022 lookup', lookup: async (peaks) => (await legacyLookup(db, peaks, copier))?.jobId ?? null },
      { name: 'the 0025 lookup (fan-out 64)', lookup: async (peaks) => (await previousLookup(db, peaks, copier))?.jobId ?? null },
      {
        name: `product on votes alone (no contrast image: no evidence on the spectrogram)`,
        lookup: async (peaks: Peak[], views: ViewPeaks[]) =>
          (await findEarlierClaim(db, peaks, { userId: copier, views }))?.sound.jobId ?? null,
      },
      ...[productFanout, ...FANOUTS.filter((f) => f !== productFanout)].map((fanout) => ({
        name: fanout === productFanout ? `product (fan-out ${fanout}, from the registry's size)` : `product, fan-out ${fanout}`,
        lookup: async (peaks: Peak[], views: ViewPeaks[], image: ContrastImage | undefined) =>
          fanout === productFanout
            ? ((await findEarlierClaim(db, peaks, { userId: copier, views, image }))?.sound.jobId ?? null)
            : ((await findContainedSounds(db, peaks, { userId: copier, own: false, hashFanout: fanout }))[0]?.sound.jobId ?? null),
      })),
    ];
    const atScale = variants.map((v) => ({
      name: v.name,
      times: [] as number[],
      caught: 0,
      /** The copies it did not name, each as "name, transformation". */
      missed: [] as string[],
      errors: [] as string[],
      /** The slowest lookup: which copy, its round and its place in the block. */
      slowest: null as { ms: number; copy: string; round: number; place: number } | null,
    }));
    // Each variant times its lookups in a block of its own, half the copies in each of two rounds,
    // the second in reverse order (D C B A, then A B C D; the honest checks below then follow a
    // product variant): the machine's load drifts over minutes and falls on all alike, but a
    // variant's garbage stays its own. Interleaved per copy, the 0022 baseline (every posting row
    // brought into the process) left its collection to the lookups after it: the product's check
    // p50 19.3 and 16.9 ms, p99 42.6 and 36.6 ms after the baselines, against 15.7 and 13.1, 36.9
    // and 30.6 alone (scratch: 204 wesnoth copies among 1,000,000 sounds, the two ways alternating
    // twice). A block's first lookup, untimed, pays for the prepared statements and the tables'
    // first reads after the bulk load or another variant (a registry in service is read all the time).
    for (const [round, order] of [variants.map((_, i) => variants.length - 1 - i), variants.map((_, i) => i)].entries())
      for (const i of order) {
        const variant = variants[i] as (typeof variants)[number];
        const tally = atScale[i] as (typeof atScale)[number];
        const block = copies.filter((_, c) => c % 2 === round);
        await variant
          .lookup((block[0] as CopyResult).peaks, (block[0] as CopyResult).views, (block[0] as CopyResult).image)
          .catch(() => null);
        for (const [place, copy] of block.entries()) {
          const started = performance.now();
          const named = await variant.lookup(copy.peaks, copy.views, copy.image).catch((error: unknown) => {
            tally.errors.push(error instanceof Error ? error.message : String(error));
            return null;
          });
          const ms = performance.now() - started;
          tally.times.push(ms);
          if (tally.slowest === null || ms > tally.slowest.ms)
            tally.slowest = { ms, copy: `${copy.name}, ${copy.transformation}`, round: round + 1, place: place + 1 };
          if (named === copy.jobId) tally.caught += 1;
          else tally.missed.push(`${copy.name}, ${copy.transformation}`);
        }
      }
    // Distinct sounds at that scale: each registered sound looked up by its owner (it cannot name
    // itself), with verification on peaks reaching the hashes the read leaves out.
    // Timed as an honest upload's check is (it matches nothing, so every view is read), beside
    // the same lookup of the sound alone, in turn.
    // The event loop's longest delay during the check (`LOOKUP_SLICE_MS`), and in turn during the
    // same check in one piece, its baseline.
    const falseAtScale: string[] = [];
    const honestTimes = {
      alone: [] as number[],
      views: [] as number[],
      evidence: [] as number[],
      delay: [] as number[],
      delayInOnePiece: [] as number[],
    };
    const withLongestDelay = async <T>(check: () => Promise<T>): Promise<{ value: T; delay: number }> => {
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const value = await check();
      delay.disable();
      return { value, delay: delay.max / 1e6 };
    };
    for (const sound of sounds) {
      let started = performance.now();
      await findEarlierClaim(db, sound.peaks, { userId: sound.userId }).catch(() => null);
      honestTimes.alone.push(performance.now() - started);
      started = performance.now();
      await findEarlierClaim(db, sound.peaks, { userId: sound.userId, views: sound.views }).catch(() => null);
      honestTimes.views.push(performance.now() - started);
      started = performance.now();
      const { value: match, delay } = await withLongestDelay(() =>
        findEarlierClaim(db, sound.peaks, { userId: sound.userId, views: sound.views, image: sound.image }).catch(() => null),
      );
      honestTimes.evidence.push(performance.now() - started);
      honestTimes.delay.push(delay);
      const inOnePiece = await withLongestDelay(() =>
        findEarlierClaim(db, sound.peaks, { userId: sound.userId, views: sound.views, image: sound.image, sliceMs: Infinity }).catch(
          () => null,
        ),
      );
      honestTimes.delayInOnePiece.push(inOnePiece.delay);
      if (match !== null) falseAtScale.push(`${sound.name} → ${sounds.find((s) => s.jobId === match.sound.jobId)?.name ?? '?'}`);
    }
    const product = atScale[3] as (typeof atScale)[number];
    const baseline = atScale[0] as (typeof atScale)[number];
    const times = product.times;
    const lookupErrors = product.errors;
    const scaleCaught = product.caught;
    const scaleRows = atScale.map(
      (v) =>
        `| ${v.name} | ${quantile(v.times, 0.5).toFixed(1)} | ${quantile(v.times, 0.99).toFixed(1)} | ${(quantile(baseline.times, 0.5) / quantile(v.times, 0.5)).toFixed(1)}x | ${v.caught}/${copies.length} | ${v.errors.length} |`,
    );

    // 5. The same scale modelled in memory: per transformation, for the product's key and finer ones.
    console.log('modelling the registry at that scale for each key layout …');
    const modelInput = {
      registered: sounds.map((s) => asRegistered.get(s) as Triplets),
      copies: copies.map((c) => ({
        row: c.transformation,
        query: queryTriplets(c.peaks),
        own: sounds.findIndex((s) => s.jobId === c.jobId),
      })),
      syntheticPostings: synthetic * SYNTHETIC_POSTINGS,
      minVotes: MIN_VOTES,
    };
    const modelled = modelledLayouts(productFanout).map((layout) => modelRecall(modelInput, layout));
    const modelRows = COPIER_TRANSFORMATIONS.map(
      (t) =>
        `| ${t.label} | ${modelled
          .map((m) => {
            const row = m.byRow.get(t.id) ?? { caught: 0, copies: 0 };
            return `${row.caught}/${row.copies}`;
          })
          .join(' | ')} |`,
    );

    // The corpora this run has, in the tables' order.
    const corpora = (['real', 'held-out', 'built-in'] as const).filter((corpus) => sounds.some((s) => s.corpus === corpus));
    const corpusLabel: Record<Corpus, string> = { real: 'real music', 'held-out': 'held out', 'built-in': 'built-in' };
    const rows = COPIER_TRANSFORMATIONS.map((t) => {
      const of = (corpus: Corpus) => copies.filter((c) => c.transformation === t.id && c.corpus === corpus);
      const cell = (list: CopyResult[]) =>
        `${list.filter((c) => c.caught).length}/${list.length} (${((100 * list.filter((c) => c.caught).length) / Math.max(1, list.length)).toFixed(0)}%)`;
      const minVotes = (list: CopyResult[]) => Math.min(...list.map((c) => c.votes));
      return `| ${t.label} | ${corpora.map((corpus) => `${cell(of(corpus))} | ${minVotes(of(corpus))}`).join(' | ')} | ${
        copies.filter((c) => c.transformation === t.id && c.falseMatch).length
      } |`;
    });
    // The margin: the weakest copy (its own sound's agreeing votes, caught or not) beside the distinct pairs' votes.
    const weakest = (corpus: Corpus) => copies.filter((c) => c.corpus === corpus).sort((a, b) => a.votes - b.votes)[0] ?? null;
    const pairFigures = (kind: PairKind) => {
      const pairs = pairVoteCounts[kind];
      return `distinct pairs (one way each, ${pairs.length}) at or above the threshold ${pairs.filter((v) => v >= MIN_VOTES).length}, 99th percentile ${quantile(pairs, 0.99)}, 99.9th ${quantile(pairs, 0.999)}, highest ${closest[kind].votes}`;
    };
    const margin = (corpus: Corpus) => {
      const weak = weakest(corpus);
      return `${corpus}: weakest copy ${weak === null ? '-' : `${weak.votes} (${weak.name}, ${weak.transformation})`}; ${pairFigures(corpus)}`;
    };
    const falseOf = (corpus: Corpus) => distinct.filter((d) => d.corpus === corpus && d.named !== null);
    const falseLine = (corpus: Corpus) => {
      const count = sounds.filter((s) => s.corpus === corpus).length;
      const found = falseOf(corpus);
      return `${corpus} ${found.length} false matches among ${count} (${(count * (count - 1)) / 2} pairs)${
        found.length > 0 ? ` (${found.map((d) => `${d.name} -> ${d.named}`).join(', ')})` : ''
      }`;
    };
    const realCount = sounds.filter((s) => s.corpus === 'real').length;
    const heldOut = sounds.filter((s) => s.corpus === 'held-out');
    const markdown = `## Landmark fingerprint (issue 50; core/src/fingerprint/landmark-registry.ts)

Real music: ${realCount} tracks of Debian's wesnoth-1.16-music, registered ${REGISTER_SECONDS === undefined ? 'whole' : `from their start, at most ${REGISTER_SECONDS} s each`} (${sounds
      .filter((s) => s.corpus === 'real')
      .reduce((a, s) => a + s.seconds, 0)
      .toFixed(0)} s); 25 s excerpts of ${realCopied.length} of them copied.${
      heldOut.length === 0
        ? ''
        : ` Held out (music the threshold was not calibrated on): ${heldOut.length} tracks of ${HELD_OUT_DIRS.join(', ')} (${heldOut
            .reduce((a, s) => a + s.seconds, 0)
            .toFixed(
              0,
            )} s; ${heldOutLeftOut.length} files left out: ${heldOutLeftOut.join('; ') || 'none'}), registered likewise; ${heldOutCopied.length} of them copied.`
    } Built-in: ${SONGS} songs of distinct prompts, 30 s. Rule: ${MIN_VOTES} agreeing triplets within 10 s of query (core/src/fingerprint/landmark-match.ts); registered ${REGISTER.peaksPerSecond} peaks/s, fan-out ${REGISTER.fanout}; query ${QUERY.peaksPerSecond} peaks/s, fan-out ${QUERY.fanout}; ${HASH_SPACE.toLocaleString('en')} hash values.

| transformation | ${corpora.map((corpus) => `${corpusLabel[corpus]} caught | fewest votes`).join(' | ')} | false matches |
|---|${corpora.map(() => '---|---').join('|')}|---|
${rows.join('\n')}

Distinct songs (goal: 0): each looked up by its owner among all registered (a match in any corpus counts): ${corpora.map(falseLine).join('; ')}.
Caught on the evidence of the upload's spectrogram (core/src/fingerprint/spectrogram-evidence.ts: a candidate of ${EVIDENCE_MIN_VOTES} to ${MIN_VOTES - 1} votes whose segment median reaches ${EVIDENCE_MIN_MEDIAN}), not on votes: ${
      copies.filter((c) => c.evidence !== undefined).length
    } copies${
      copies.some((c) => c.evidence !== undefined)
        ? ` (${copies
            .filter((c) => c.evidence !== undefined)
            .map((c) => `${c.name}, ${c.transformation}: ${c.votes} votes, ${(c.evidence as number).toFixed(2)}`)
            .join('; ')})`
        : ''
    }.
Closest distinct pair, agreeing votes (threshold ${MIN_VOTES}), by direct alignment: ${pairKinds
      .filter((kind) => pairVoteCounts[kind].length > 0)
      .map((kind) => `${kind} ${closest[kind].votes} (${closest[kind].pair})`)
      .join('; ')}.
Margin, agreeing votes: ${corpora.map(margin).join('; ')}${
      pairVoteCounts['held-out × real'].length > 0 ? `; held-out × real: ${pairFigures('held-out × real')}` : ''
    }.

Verification (core/src/fingerprint/landmark-match.ts \`alignShared\`) of each copy against every registered sound it shares 2 or more triplets with, ${verification.pairs.toLocaleString('en')} pairs, in the same run: votes tallied in an array ${verification.arrayMs.toFixed(0)} ms, in a map (as the matcher tallied them before) ${verification.mapMs.toFixed(0)} ms, **${(verification.mapMs / verification.arrayMs).toFixed(1)}x**; alignments that differ between the two: ${verification.differing}.

Lookup among ${REGISTRY.toLocaleString('en')} registered sounds (${sounds.length} real and built-in with ${Number(postingsOfReal).toLocaleString('en')} postings, ${synthetic.toLocaleString('en')} synthetic of ${SYNTHETIC_POSTINGS} postings each, their hash components drawn ${SYNTHETIC_DRAWS === 'real frequencies' ? "at the real postings' frequencies" : "from 400 draws of the real postings'"}, the registry packed with stop words past ${REGISTRY_CAP}; ${Number(storage.rows).toLocaleString('en')} postings; the registry (migration 0027) ${Number(storage.hashes).toLocaleString('en')} hash rows, ${Number(storage.stopWords).toLocaleString('en')} of them stop words, ${storage.lists} + key ${storage.listIndex}; the baselines' table of a row per posting ${storage.postings} + index ${storage.index}; loaded in ${loadSeconds.toFixed(0)} s): p50 ${quantile(times, 0.5).toFixed(1)} ms, **p99 ${quantile(times, 0.99).toFixed(1)} ms** (goal 50 ms), max ${Math.max(...times).toFixed(1)} ms over ${times.length} lookups${product.slowest === null ? '' : ` (the slowest: ${product.slowest.copy}, lookup ${product.slowest.place} of its block in round ${product.slowest.round})`}; ${scaleCaught}/${copies.length} copies still caught at that scale${product.missed.length === 0 ? '' : ` (missed: ${product.missed.join('; ')})`}; each registered sound looked up by its owner at that scale: **${falseAtScale.length} false matches** among ${sounds.length}${falseAtScale.length === 0 ? '' : ` (${falseAtScale.join(', ')})`}. Those ${sounds.length} lookups are an honest upload's check (it matches nothing, so its views are read too, at once, then the evidence on its contrast images): p50 ${quantile(honestTimes.evidence, 0.5).toFixed(1)} ms, p90 ${quantile(honestTimes.evidence, 0.9).toFixed(1)} ms, max ${Math.max(...honestTimes.evidence).toFixed(1)} ms; in turn with them, the same without the images (votes alone, in the sound and its views): p50 ${quantile(honestTimes.views, 0.5).toFixed(1)} ms, p90 ${quantile(honestTimes.views, 0.9).toFixed(1)} ms, max ${Math.max(...honestTimes.views).toFixed(1)} ms; the sound alone: p50 ${quantile(honestTimes.alone, 0.5).toFixed(1)} ms, p90 ${quantile(honestTimes.alone, 0.9).toFixed(1)} ms, max ${Math.max(...honestTimes.alone).toFixed(1)} ms. The event loop's longest delay during each such check (it lets other requests run every ${LOOKUP_SLICE_MS} ms): p50 ${quantile(honestTimes.delay, 0.5).toFixed(1)} ms, p90 ${quantile(honestTimes.delay, 0.9).toFixed(1)} ms, max ${Math.max(...honestTimes.delay).toFixed(1)} ms; the same check in one piece, in turn (the baseline): p50 ${quantile(honestTimes.delayInOnePiece, 0.5).toFixed(1)} ms, p90 ${quantile(honestTimes.delayInOnePiece, 0.9).toFixed(1)} ms, max ${Math.max(...honestTimes.delayInOnePiece).toFixed(1)} ms.${loadError === null ? '' : ` The synthetic load failed (${loadError}): the figures are those of the registry as it stood.`}${lookupErrors.length === 0 ? '' : ` ${lookupErrors.length} lookups failed (${lookupErrors[0] ?? ''}).`}

Each copy looked up again at that scale, each lookup in blocks of its own (half the copies in each of two rounds, the second in reverse order), after one untimed lookup a block (statement deadline 3 s; ratio: the baseline's p50 over the row's):

| lookup | p50 ms | p99 ms | p50 vs baseline | copies caught | errors |
|---|---|---|---|---|---|
${scaleRows.join('\n')}

The same scale modelled in memory (bench/fingerprint/scale-model.ts): the ${sounds.length} sounds' postings beside ${(synthetic * SYNTHETIC_POSTINGS).toLocaleString('en')} synthetic ones, each copy's agreeing votes for its own sound counted over the keys that are not stop words (and, in the column verified on peaks, as the product verifies a candidate sharing ${CANDIDATE_POSTINGS} postings read or more: over every key of at most 1 in ${POSTINGS_PER_COUNTED_POSTING.toLocaleString('en')} of the registry's postings). The synthetic postings are drawn as the load above draws them (each key component from 400 draws of the real postings'), or, where the column says so, each component at the real postings' own frequencies: 400 draws give a rare value drawn once a 400th of the registry and leave the rest out, which crowds fewer real keys than the real frequencies do. The product's key, modelled, beside the registry's measured ${scaleCaught}/${copies.length}: the model's check. A finer k1 class is read at every class the matcher's pitch tolerance reaches (±${MAX_SHIFT_BINS + 1} bins), so it loses no vote the matcher counts:

| transformation | ${modelled.map((m) => m.layout.name).join(' | ')} |
|---|${modelled.map(() => '---').join('|')}|
${modelRows.join('\n')}
| **all copies** | ${modelled.map((m) => `**${m.caught}/${copies.length}**`).join(' | ')} |
| keys used | ${modelled.map((m) => m.keys.toLocaleString('en')).join(' | ')} |
| stop words | ${modelled.map((m) => m.stopWords.toLocaleString('en')).join(' | ')} |
| keys a 25 s query reads, mean | ${modelled.map((m) => m.queryKeys.toFixed(0)).join(' | ')} |
`;
    return {
      markdown,
      json: {
        copies: copies.map(({ peaks: _peaks, views: _views, image: _image, ...c }) => c),
        distinct,
        closest,
        weakest: Object.fromEntries(
          corpora.map((corpus) => {
            const weak = weakest(corpus);
            return [corpus, weak === null ? null : { votes: weak.votes, name: weak.name, transformation: weak.transformation }];
          }),
        ),
        pairVotes: pairVoteCounts,
        verification,
        lookup: {
          registry: REGISTRY,
          p50Ms: quantile(times, 0.5),
          p99Ms: quantile(times, 0.99),
          loadSeconds,
          storage,
          falseMatches: falseAtScale,
          honestCheckMs: honestTimes.evidence,
          honestCheckOnVotesMs: honestTimes.views,
          honestCheckEventLoopDelayMs: honestTimes.delay,
          honestCheckInOnePieceEventLoopDelayMs: honestTimes.delayInOnePiece,
          modelled: modelled.map((m) => ({
            layout: m.layout,
            caught: m.caught,
            keys: m.keys,
            stopWords: m.stopWords,
            queryKeys: m.queryKeys,
            byRow: Object.fromEntries(m.byRow),
          })),
          variants: atScale.map((v) => ({
            name: v.name,
            p50Ms: quantile(v.times, 0.5),
            p99Ms: quantile(v.times, 0.99),
            maxMs: Math.max(...v.times),
            slowest: v.slowest,
            caught: v.caught,
            missed: v.missed,
            errors: v.errors.length,
          })),
        },
      },
    };
  } finally {
    await closeDatabase(db);
    await postgres.stop();
  }
}

/**
 * The posting table of migrations 0022 and 0025 (one row per posting, the B-tree on the hash
 * INCLUDING the rest), kept by the bench alone: the baselines' lookups read it, the same postings
 * as the product's registry (migration 0027's one row per hash) holds.
 */
export async function createBaselinePostings(db: Database): Promise<void> {
  await db.none('CREATE TABLE bench_postings (hash int4 NOT NULL, sound_id int4 NOT NULL, t int4 NOT NULL, shape int2 NOT NULL)');
}

/** A registered sound's postings in the baseline table (as migration 0022's registration wrote them). */
export async function addBaselinePostings(db: Database, jobId: string, peaks: readonly Peak[]): Promise<void> {
  const triplets = registeredTriplets(peaks);
  await db.none(
    `INSERT INTO bench_postings (hash, sound_id, t, shape)
     SELECT p.hash, s.id, p.t, p.shape FROM landmark_sounds s, unnest($2::int4[], $3::int4[], $4::int2[]) AS p(hash, t, shape) WHERE s.job_id = $1`,
    [
      jobId,
      Array.from(triplets.hash),
      Array.from(triplets.t),
      Array.from(triplets.span, (span, i) => span * 256 + (triplets.k[i] as number)),
    ],
  );
}

/**
 * `count` synthetic sounds of `postings` postings each, bulk-loaded by SQL in batches, owned by
 * 1,000 accounts, times and shapes at random. Their hashes are drawn from a model of the real
 * postings' hashes, not from those hashes themselves: the frequency pair (k2 − k1, k3 − k1), the
 * time ratio, the register and the span class each drawn from the real postings' own values, apart
 * (./triplets.ts `tripletHash` puts them together). Drawing whole hashes from the few real sounds
 * would give the whole registry only their few thousand hash values, each in hundreds of synthetic
 * sounds, where a real registry of many sounds spreads over the hash space with popular and rare
 * values alike. The postings go to the baseline table (its hash index dropped for the load and
 * built after it), then the product's registry (migration 0027) is rebuilt from all of them in
 * registration order, one row per hash, a hash past `cap` (`HASH_CAPACITY`) a stop word: as registering
 * them one by one would leave it, as a restore would build it.
 */
export async function loadSynthetic(
  url: string,
  count: number,
  postings: number,
  drawn: SyntheticDraws = '400 draws',
  cap: number = HASH_CAPACITY,
): Promise<void> {
  // A bulk load: a client of its own without the API's statement and read deadlines.
  const client = new pg.Client(connectionSettings(url, { ...DATABASE_DEADLINES, statementMs: 0, readMs: 3_600_000 }));
  await client.connect();
  const t = {
    none: async (text: string, values: unknown[] = []) => {
      await client.query(text, values);
    },
  };
  const spans = SPAN_CLASSES;
  const registers = Math.ceil(LOG_BINS / REGISTER_BINS);
  const draws = 400;
  try {
    const modelDraws = 1_000_000;
    if (drawn === 'real frequencies') {
      // Each component from a real posting picked at random, apart: a join by random row number
      // (an array of every real posting would be copied out of TOAST for each of the draws).
      await t.none('CREATE TEMP TABLE real_hashes AS SELECT (row_number() OVER ())::int AS i, hash FROM bench_postings');
      await t.none('CREATE UNIQUE INDEX ON real_hashes (i)');
      await t.none(
        `CREATE TEMP TABLE model_hashes AS
           WITH n AS (SELECT count(*)::int AS n FROM real_hashes),
                picks AS MATERIALIZED (
                  SELECT g AS id, 1 + floor(random() * n)::int AS ia, 1 + floor(random() * n)::int AS ib,
                         1 + floor(random() * n)::int AS ic, 1 + floor(random() * n)::int AS id2
                    FROM generate_series(1, ${modelDraws}) AS g, n)
           SELECT p.id, ((a.hash / ${spans * registers * RATIO_LEVELS} * ${RATIO_LEVELS} + (b.hash / ${spans * registers}) % ${RATIO_LEVELS}) * ${registers}
                         + (c.hash / ${spans}) % ${registers}) * ${spans} + d.hash % ${spans} AS hash
             FROM picks p JOIN real_hashes a ON a.i = p.ia JOIN real_hashes b ON b.i = p.ib
                  JOIN real_hashes c ON c.i = p.ic JOIN real_hashes d ON d.i = p.id2`,
      );
    } else {
      // Each component's values as drawn from the real postings, `draws` of each (small arrays: no TOAST).
      await t.none(
        `CREATE TEMP TABLE hash_model AS
           WITH real AS (SELECT hash FROM bench_postings ORDER BY random() LIMIT ${draws * 4})
           SELECT (SELECT array_agg(hash / ${spans * registers * RATIO_LEVELS}) FROM (SELECT hash FROM real ORDER BY random() LIMIT ${draws}) a) AS pair,
                  (SELECT array_agg((hash / ${spans * registers}) % ${RATIO_LEVELS}) FROM (SELECT hash FROM real ORDER BY random() LIMIT ${draws}) b) AS ratio,
                  (SELECT array_agg((hash / ${spans}) % ${registers}) FROM (SELECT hash FROM real ORDER BY random() LIMIT ${draws}) c) AS register,
                  (SELECT array_agg(hash % ${spans}) FROM (SELECT hash FROM real ORDER BY random() LIMIT ${draws}) d) AS span`,
      );
      // A million draws of the model, then each posting one of them (a join by a random id: the load's
      // fast path; drawing the components per posting costs 6 times as much).
      const pick = (column: string): string => `m.${column}[1 + floor(random() * array_length(m.${column}, 1))::int]`;
      await t.none(
        `CREATE TEMP TABLE model_hashes AS
           SELECT i AS id, ((${pick('pair')} * ${RATIO_LEVELS} + ${pick('ratio')}) * ${registers} + ${pick('register')}) * ${spans} + ${pick('span')} AS hash
             FROM generate_series(1, ${modelDraws}) AS i, hash_model m`,
      );
    }
    await t.none('CREATE UNIQUE INDEX ON model_hashes (id)');
    await t.none(
      `INSERT INTO users (wallet_address, tier, daily_generations, last_generation_reset)
       SELECT '0x' || lpad(to_hex(i), 40, '0'), 'free', 1, CURRENT_DATE FROM generate_series(1, 1000) AS i`,
    );
    const batch = 20_000;
    for (let done = 0; done < count; done += batch) {
      const n = Math.min(batch, count - done);
      await t.none(
        `WITH owners AS (SELECT array_agg(id) AS ids FROM users),
              made AS (
                INSERT INTO landmark_sounds (job_id, user_id, created_at)
                SELECT gen_random_uuid(), ids[1 + (i % array_length(ids, 1))], now() - interval '1 day' * random()
                  FROM generate_series(1, $1::int) AS i, owners RETURNING id),
              picks AS MATERIALIZED (
                SELECT s.id AS sound_id, (1 + floor(random() * ${modelDraws}))::int AS rid, floor(random() * 2000)::int AS t,
                       (floor(random() * 90) * 256 + floor(random() * 120))::int2 AS shape
                  FROM made s, generate_series(1, $2::int))
         INSERT INTO bench_postings (hash, sound_id, t, shape)
         SELECT h.hash, p.sound_id, p.t, p.shape FROM picks p JOIN model_hashes h ON h.id = p.rid`,
        [n, postings],
      );
      if ((done / batch) % 10 === 0) console.log(`  ${(done + n).toLocaleString('en')} synthetic sounds`);
    }
    await t.none("SET maintenance_work_mem = '512MB'");
    await t.none("SET work_mem = '512MB'");
    console.log('  packing the registry, one row per hash');
    await t.none('TRUNCATE landmark_hashes');
    await t.none(
      `INSERT INTO landmark_hashes (hash, n, postings)
       SELECT hash, count(*),
              CASE WHEN count(*) <= $1::int
                   THEN string_agg(int4send(sound_id) || int4send(t) || int2send(shape), ''::bytea ORDER BY sound_id, t, shape)
                   ELSE ''::bytea END
         FROM bench_postings GROUP BY hash`,
      [cap],
    );
    // The registry's total (migration 0028), as its registrations would have left it.
    await t.none(
      'UPDATE landmark_registry_postings SET postings = CASE WHEN slot = 0 THEN (SELECT coalesce(sum(n), 0) FROM landmark_hashes) ELSE 0 END',
    );
    console.log('  indexing the baseline table');
    await t.none('CREATE INDEX bench_postings_hash_idx ON bench_postings (hash) INCLUDE (sound_id, t, shape)');
    await t.none('VACUUM ANALYZE bench_postings');
    await t.none('VACUUM ANALYZE landmark_hashes');
    await t.none('VACUUM ANALYZE landmark_sounds');
  } finally {
    await client.end();
  }
}

export async function writeLandmarkJson(path: string, json: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(json, null, 2)}\n`);
}

/**
 * Migration 0022's lookup, the baseline of the lookup at scale: 256 postings a hash read and every
 * row sent to the process, the 64 sounds sharing the most verified, then their owners read.
 */
async function legacyLookup(db: Database, peaks: readonly Peak[], excludeUserId: string): Promise<{ jobId: string } | null> {
  const query = queryTriplets(peaks);
  const byHash = indexByHash(query);
  const rows = await db.any<{ hash: number; sound_id: number; t: number; shape: number }>(
    `SELECT q.hash, p.sound_id, p.t, p.shape FROM unnest($1::int4[]) AS q(hash)
       CROSS JOIN LATERAL (SELECT sound_id, t, shape FROM bench_postings WHERE hash = q.hash LIMIT 256) p`,
    [Array.from(byHash.keys())],
  );
  const shared = new Map<number, SharedTriplet[]>();
  for (const row of rows) {
    const list = shared.get(row.sound_id) ?? shared.set(row.sound_id, []).get(row.sound_id);
    for (const i of byHash.get(row.hash) ?? []) list?.push(sharedTriplet(query, i, row.t, row.shape >> 8, row.shape & 0xff));
  }
  const aligned: number[] = [];
  for (const [id, list] of [...shared.entries()]
    .filter(([, list]) => list.length >= MIN_VOTES)
    .sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
    .slice(0, 64)) {
    if ((alignShared(list)?.votes ?? 0) >= MIN_VOTES) aligned.push(id);
  }
  if (aligned.length === 0) return null;
  const owner = await db.oneOrNone<{ job_id: string }>(
    `SELECT job_id FROM landmark_sounds WHERE id = ANY($1::int4[]) AND user_id <> $2 ORDER BY created_at, id LIMIT 1`,
    [aligned, excludeUserId],
  );
  return owner === null ? null : { jobId: owner.job_id };
}

/**
 * Migration 0025's lookup (the product before migration 0027), on the baseline table: each hash's
 * postings read from the index alone, a hash past 64 dropped, the candidates ranked in the
 * database and their postings sent aggregated, then verified and their owners read.
 */
async function previousLookup(db: Database, peaks: readonly Peak[], excludeUserId: string): Promise<{ jobId: string } | null> {
  const query = queryTriplets(peaks);
  const byHash = indexByHash(query);
  const rows = await db.any<{ sound_id: number; hashes: number[]; times: number[]; shapes: number[] }>(
    `WITH hits AS MATERIALIZED (
       SELECT q.hash, p.sounds, p.times, p.shapes
         FROM unnest($1::int4[]) AS q(hash)
         CROSS JOIN LATERAL (
           SELECT count(*) AS n, array_agg(sound_id) AS sounds, array_agg(t) AS times, array_agg(shape) AS shapes
             FROM (SELECT sound_id, t, shape FROM bench_postings WHERE hash = q.hash LIMIT 65) x) p
        WHERE p.n BETWEEN 1 AND 64),
     kept AS MATERIALIZED (
       SELECT h.hash, k.sound_id, k.t, k.shape FROM hits h, unnest(h.sounds, h.times, h.shapes) AS k(sound_id, t, shape)),
     ranked AS (
       SELECT c.sound_id
         FROM (SELECT sound_id, count(*) AS shared FROM kept GROUP BY sound_id HAVING count(*) >= $3) c
         JOIN landmark_sounds s ON s.id = c.sound_id
        WHERE s.user_id <> $2
        ORDER BY c.shared DESC, c.sound_id
        LIMIT 32)
     SELECT k.sound_id, array_agg(k.hash) AS hashes, array_agg(k.t) AS times, array_agg(k.shape) AS shapes
       FROM kept k JOIN ranked r ON r.sound_id = k.sound_id
      GROUP BY k.sound_id`,
    [Array.from(byHash.keys()).sort((a, b) => a - b), excludeUserId, MIN_VOTES],
  );
  const aligned: number[] = [];
  for (const row of rows) {
    const shared: SharedTriplet[] = [];
    row.hashes.forEach((hash, j) => {
      const shape = row.shapes[j] as number;
      for (const i of byHash.get(hash) ?? []) shared.push(sharedTriplet(query, i, row.times[j] as number, shape >> 8, shape & 0xff));
    });
    if ((alignShared(shared)?.votes ?? 0) >= MIN_VOTES) aligned.push(row.sound_id);
  }
  if (aligned.length === 0) return null;
  const owner = await db.oneOrNone<{ job_id: string }>(
    'SELECT job_id FROM landmark_sounds WHERE id = ANY($1::int4[]) ORDER BY created_at, id LIMIT 1',
    [aligned],
  );
  return owner === null ? null : { jobId: owner.job_id };
}
