/**
 * Fingerprint benchmark (`npm run bench:fingerprint`, issue 44; docs/fingerprints.md): is a copy
 * of a signed song recognised however it is re-encoded, and are distinct songs told apart?
 *
 * 1. Songs: `BENCH_FINGERPRINT_SONGS` (default 200) distinct songs of the built-in ONNX model,
 *    `BENCH_FINGERPRINT_SECONDS` (30) long, each its own seed (its own melody) and a prompt from a
 *    pool of genres, moods, keys and tempos; fingerprinted from the model's PCM as the worker does.
 * 2. Copies: each song's 16-bit WAV through ffmpeg (core/src/testing/audio-copies.ts: MP3 128/192/320,
 *    AAC 128, 48 kHz, mono, trims of 0.3 s and 2 s, gain -6/+3 dB, embedded 5 s into other audio,
 *    pink noise at -30 dB), read back by the product's upload decoder and fingerprinted.
 * 3. A registry of `BENCH_FINGERPRINT_REGISTRY` (100,000) fingerprints in PostgreSQL, indexed as
 *    the product indexes them (migration 0017: an inverted index of 28-bit terms): the songs, each registered
 *    to its own account, and fillers drawn from a bit model of them (bench/fingerprint/fillers.ts).
 * 4. Each copy looked up as another account's upload would be (core/src/fingerprint/registry.ts):
 *    caught when the lookup names its song; any other song named is a false match. Each song
 *    looked up as its owner's own: another song named is a false match. Lookup time p50/p99.
 * 5. All pairs of distinct songs by the match rule itself (core/src/fingerprint/match.ts), and
 *    the closest pair over every offset, beside the farthest copy: the rule's margin.
 * 6. Cost: fingerprint time of a 240 s song beside its MP3 encode (the worker's encoder, the
 *    same PCM) and fpcalc (Chromaprint in C, decoding the WAV itself), in the same run.
 *
 * 7. The landmark fingerprint (issue 50, ./fingerprint/landmarks.ts): real music (Debian's
 *    wesnoth-1.16-music) and built-in songs through every copier transformation, distinct pairs,
 *    lookups among 1,000,000 registered sounds; its 240 s fingerprint time in the cost table.
 *
 * Writes bench/results/fingerprint.json and fingerprint.md. Environment: BENCH_FINGERPRINT_JOBS
 * (ffmpeg processes at once, default 2); BENCH_FINGERPRINT_PART `landmarks` runs only step 7 and
 * the cost (the Chromaprint steps take ~15 minutes), `chromaprint` only steps 1-6.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeUploadedAudio } from '../core/src/audio/uploaded-audio.ts';
import pg from 'pg';
import { closeDatabase, connectionSettings, createDatabase, DATABASE_DEADLINES } from '../core/src/db/database.ts';
import { fingerprintPcm, ITEM_SECONDS } from '../core/src/fingerprint/chromaprint.ts';
import { fingerprintToBytes } from '../core/src/fingerprint/encoding.ts';
import { findContainment, MATCH_RULE, windowAtOffset } from '../core/src/fingerprint/match.ts';
import { fingerprintTerms } from '../core/src/fingerprint/terms.ts';
import { startTestPostgres } from '../core/src/testing/postgres.ts';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';
import { selectEncoderBackend, systemBinaryProbe } from '../inference/src/audio/encoder-backend.ts';
import { EncoderPool } from '../inference/src/audio/encoder-pool.ts';
import { encodeMp3 } from '../inference/src/audio/mp3-encoder.ts';
import { BUILTIN_MODEL_DIR } from '../inference/src/config.ts';
import { loadSongModel } from '../inference/src/model/load-song-model.ts';
import { EMBED_SECONDS, makeCopies, TRANSFORMATIONS, wav16 } from '../test/support/audio-copies.ts';
import { drawFiller, fitBitModel } from './fingerprint/fillers.ts';
import { seededRandom } from '../core/src/testing/seeded-random.ts';
import { runLandmarkBench } from './fingerprint/landmarks.ts';
import { CHROMAPRINT_REGISTRY_TABLES, findContainedChromaprint } from './fingerprint/chromaprint-registry.ts';
import { landmarkPeaks } from '../core/src/fingerprint/landmarks.ts';
import { uploadLandmarks } from '../core/src/fingerprint/sound-fingerprints.ts';
import { createContrastImageBuilder } from '../core/src/fingerprint/contrast-image.ts';
import { createLogSpectrogram, LANDMARK_SAMPLE_RATE } from '../core/src/fingerprint/log-spectrogram.ts';
import { createMonoInput, feedInBlocks } from '../core/src/fingerprint/mono-input.ts';
import { processCpuMs } from './process-cpu.ts';

const run = promisify(execFile);
const SONGS = Number(process.env.BENCH_FINGERPRINT_SONGS ?? 200);
const SECONDS = Number(process.env.BENCH_FINGERPRINT_SECONDS ?? 30);
const REGISTRY = Number(process.env.BENCH_FINGERPRINT_REGISTRY ?? 100_000);
const JOBS = Math.max(1, Number(process.env.BENCH_FINGERPRINT_JOBS ?? 2));
const LONG_SECONDS = 240;
const PART = process.env.BENCH_FINGERPRINT_PART ?? 'all';
const TIMING_ROUNDS = 3;

const GENRES = ['pop', 'rock', 'metal', 'punk', 'house', 'techno', 'disco', 'trap', 'lofi', 'jazz', 'funk', 'reggae', 'ambient'];
const MOODS = ['', 'sad', 'happy', 'dark', 'dreamy', 'epic', 'chill', 'aggressive', 'uplifting', 'moody'];
const INSTRUMENTS = ['', 'piano', 'synth', 'guitar', 'strings', 'acoustic'];
const KEYS = ['', 'in C', 'in D minor', 'in E', 'in F# minor', 'in G', 'in A minor', 'in Bb', 'in C# minor', 'in Eb', 'in B minor'];

/** A prompt for song `i`: words of the built-in vocabulary, a key, sometimes a tempo. */
function promptOf(i: number): string {
  const pick = <T>(list: readonly T[], salt: number): T => list[(i * salt + Math.floor(i / list.length)) % list.length] as T;
  const tempo = i % 3 === 0 ? `${70 + ((i * 7) % 90)} bpm` : '';
  return [pick(MOODS, 7), pick(INSTRUMENTS, 5), pick(GENRES, 1), pick(KEYS, 3), tempo].filter((w) => w !== '').join(' ');
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const median = (values: readonly number[]): number => quantile(values, 0.5);
/** Runs `task` over `items` with at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      await task(items[index] as T, index);
    }
  });
  await Promise.all(lanes);
}

/** The lowest bit error of any window of `reference` in `query`, over every offset (no term votes). */
function closestWindow(query: Uint32Array, reference: Uint32Array): number {
  let best = 1;
  const rule = { ...MATCH_RULE, maxBitError: 1 };
  for (let d = -query.length; d <= reference.length; d += 1) {
    const found = windowAtOffset(query, reference, d, rule);
    if (found !== null && found.bitError < best) best = found.bitError;
  }
  return best;
}

async function main(): Promise<void> {
  const started = performance.now();
  const work = await makeTempDir('bench-fingerprint');
  const loaded = await loadSongModel({ modelDir: BUILTIN_MODEL_DIR, device: 'cpu' });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const model = loaded.value;
  const signal = new AbortController().signal;
  const render = async (prompt: string, seed: number, seconds: number) =>
    (await model.render({ prompt, lyrics: null, seed: BigInt(seed), durationSeconds: seconds, steps: 27 }, signal)).pcm;

  try {
    if (PART === 'landmarks') {
      await landmarksOnly(work.path, render, started);
      return;
    }
    // 1. The songs and the other audio the embedded copy is set in (a song of no one's).
    console.log(`rendering ${SONGS} songs of ${SECONDS} s …`);
    const other = await render('experimental noise', 1_000_003, 2 * EMBED_SECONDS + 1);
    const otherPath = join(work.path, 'other.wav');
    await writeFile(otherPath, wav16(other.channels, other.sampleRate));
    const songs: { prompt: string; seed: number; fingerprint: Uint32Array; wav: string }[] = [];
    for (let i = 0; i < SONGS; i += 1) {
      const prompt = promptOf(i);
      const pcm = await render(prompt, i + 1, SECONDS);
      const wav = join(work.path, `song-${i}.wav`);
      await writeFile(wav, wav16(pcm.channels, pcm.sampleRate));
      songs.push({ prompt, seed: i + 1, fingerprint: fingerprintPcm(pcm.channels, pcm.sampleRate), wav });
    }

    // 2. The copies, ffmpeg in JOBS processes at once, each copy decoded as an upload would be.
    console.log(`making ${TRANSFORMATIONS.length} copies of each song with ffmpeg (${JOBS} at once) …`);
    const copies = new Map<string, Uint32Array[]>(TRANSFORMATIONS.map((t) => [t.id, []]));
    await inParallel(songs, JOBS, async (song, index) => {
      const dir = join(work.path, `copies-${index}`);
      await mkdir(dir, { recursive: true });
      const made = await makeCopies(song.wav, otherPath, dir, index + 1);
      for (const t of TRANSFORMATIONS) {
        const decoded = await decodeUploadedAudio(new Uint8Array(await readFile(made.get(t.id) as string)), { maxSeconds: 3600 });
        if (!decoded.ok) throw new Error(`${t.id} of song ${index}: ${decoded.error.message}`);
        (copies.get(t.id) as Uint32Array[])[index] = fingerprintPcm(decoded.value.channels, decoded.value.sampleRate);
      }
      await rm(dir, { recursive: true, force: true });
      if ((index + 1) % 20 === 0) console.log(`  ${index + 1} songs copied`);
    });

    // 5. The rule on every pair of distinct songs, both ways; the closest pair over all offsets.
    console.log('comparing all pairs of distinct songs …');
    let ruleFalseMatches = 0;
    const pairDistances: number[] = [];
    let closest = { bitError: 1, a: 0, b: 0 };
    for (let a = 0; a < songs.length; a += 1) {
      for (let b = a + 1; b < songs.length; b += 1) {
        const fa = (songs[a] as (typeof songs)[number]).fingerprint;
        const fb = (songs[b] as (typeof songs)[number]).fingerprint;
        if (findContainment(fa, fb) !== null || findContainment(fb, fa) !== null) ruleFalseMatches += 1;
        const distance = closestWindow(fa, fb);
        pairDistances.push(distance);
        if (distance < closest.bitError) closest = { bitError: distance, a, b };
      }
    }
    const copyDistances = new Map(
      TRANSFORMATIONS.map((t) => [
        t.id,
        (copies.get(t.id) as Uint32Array[]).map((copy, i) => closestWindow(copy, (songs[i] as (typeof songs)[number]).fingerprint)),
      ]),
    );

    // 3. The registry: the songs, each its own account's, and fillers, then the migration's index.
    console.log(`registering ${REGISTRY} fingerprints in PostgreSQL …`);
    const postgres = await startTestPostgres();
    const db = createDatabase(postgres.url, { max: 2 });
    const lookups: { ms: number; caught: boolean; falseMatch: boolean; transformation: string }[] = [];
    let loadMs = 0;
    let termRows = 0;
    let storage: { terms: string; key: string; registry: string } | null = null;
    try {
      const t0 = performance.now();
      // Chromaprint's registry (bench/fingerprint/chromaprint-registry.ts; the product's checks use
      // the landmark registry since issue 50), without foreign keys: bench rows name no real job or
      // user. The inverted index's key is built once at the end (as a restore would), then vacuumed for index-only scans.
      // The load runs on its own connection without the API's 3 s statement deadline.
      const loader = new pg.Client(connectionSettings(postgres.url, { ...DATABASE_DEADLINES, statementMs: 0, readMs: 3_600_000 }));
      await loader.connect();
      await loader.query(CHROMAPRINT_REGISTRY_TABLES);
      const owners = songs.map(() => crypto.randomUUID());
      const jobs = songs.map(() => crypto.randomUUID());
      const bits = fitBitModel(songs.map((s) => s.fingerprint));
      const random = seededRandom(44);
      const BATCH = 2000;
      for (let start = 0; start < REGISTRY; start += BATCH) {
        const rows: { id: number; job: string; user: string; fp: Uint32Array }[] = [];
        for (let i = start; i < Math.min(REGISTRY, start + BATCH); i += 1) {
          rows.push(
            i < songs.length
              ? { id: i + 1, job: jobs[i] as string, user: owners[i] as string, fp: (songs[i] as (typeof songs)[number]).fingerprint }
              : { id: i + 1, job: crypto.randomUUID(), user: crypto.randomUUID(), fp: drawFiller(bits, random) },
          );
        }
        const terms = rows.map((r) => fingerprintTerms(r.fp));
        termRows += terms.reduce((sum, t) => sum + t.length, 0);
        await loader.query(
          `INSERT INTO fingerprint_registry (id, job_id, user_id, fingerprint)
           SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::uuid[], $4::bytea[])`,
          [rows.map((r) => r.id), rows.map((r) => r.job), rows.map((r) => r.user), rows.map((r) => Buffer.from(fingerprintToBytes(r.fp)))],
        );
        await loader.query(
          `INSERT INTO fingerprint_terms (term, registry_id)
           SELECT unnest(string_to_array(t, ',')::int4[]), id FROM unnest($1::text[], $2::bigint[]) AS x(t, id)`,
          [terms.map((t) => Array.from(t).join(',')), rows.map((r) => r.id)],
        );
      }
      await loader.query(`SELECT setval('fingerprint_registry_id_seq', $1)`, [REGISTRY]);
      await loader.query("SET maintenance_work_mem = '256MB'");
      await loader.query('ALTER TABLE fingerprint_terms ADD PRIMARY KEY (term, registry_id)');
      await loader.query('VACUUM ANALYZE fingerprint_terms');
      await loader.query('VACUUM ANALYZE fingerprint_registry');
      const sizes = await loader.query<{ terms: string; key: string; registry: string }>(
        `SELECT pg_size_pretty(pg_relation_size('fingerprint_terms')) AS terms, pg_size_pretty(pg_relation_size('fingerprint_terms_pkey')) AS key,
                pg_size_pretty(pg_total_relation_size('fingerprint_registry')) AS registry`,
      );
      storage = sizes.rows[0] ?? null;
      await loader.end();
      loadMs = performance.now() - t0;

      // 4. Lookups: each copy as a stranger's upload, each song as its owner's.
      console.log('looking up every copy and song …');
      const copier = crypto.randomUUID();
      const lookup = async (query: Uint32Array, excludeUserId: string, expected: string | null, transformation: string) => {
        const t = performance.now();
        const found = await findContainedChromaprint(db, query, excludeUserId);
        const ms = performance.now() - t;
        const caught = expected !== null && found.some((match) => match.jobId === expected);
        lookups.push({ ms, caught, falseMatch: found.some((match) => match.jobId !== expected), transformation });
      };
      for (let i = 0; i < songs.length; i += 1) {
        for (const t of TRANSFORMATIONS)
          await lookup((copies.get(t.id) as Uint32Array[])[i] as Uint32Array, copier, jobs[i] as string, t.id);
        await lookup((songs[i] as (typeof songs)[number]).fingerprint, owners[i] as string, null, 'own song');
      }
    } finally {
      await closeDatabase(db);
      await postgres.stop();
    }

    // 6. Cost of one 240 s song: fingerprint, MP3 encode (the worker's encoder), fpcalc.
    console.log(`timing a ${LONG_SECONDS} s song …`);
    const long = await render('upbeat synth pop with a driving beat', 7, LONG_SECONDS);
    const longWav = join(work.path, 'long.wav');
    await writeFile(longWav, wav16(long.channels, long.sampleRate));
    const threads = Math.max(1, Math.min(4, availableParallelism()));
    const pool = new EncoderPool(threads);
    const backend = selectEncoderBackend('auto', systemBinaryProbe);
    const fingerprintMs: number[] = [];
    const fingerprintCpuMs: number[] = [];
    const encodeMs: number[] = [];
    const encodeCpuMs: number[] = [];
    const fpcalcMs: number[] = [];
    const fpcalcCpuMs: number[] = [];
    const landmarkMs: number[] = [];
    try {
      for (let round = 0; round < TIMING_ROUNDS; round += 1) {
        let t = performance.now();
        const cpu = processCpuMs();
        fingerprintPcm(long.channels, long.sampleRate);
        fingerprintMs.push(performance.now() - t);
        fingerprintCpuMs.push(processCpuMs() - cpu);
        t = performance.now();
        landmarkPeaks(long.channels, long.sampleRate);
        landmarkMs.push(performance.now() - t);
        t = performance.now();
        let cpuAt = processCpuMs();
        const encoded = await encodeMp3(long.channels, long.sampleRate, { backend, pool, parallelism: threads, signal });
        if (!encoded.ok) throw new Error(encoded.error.message);
        encodeMs.push(performance.now() - t);
        encodeCpuMs.push(processCpuMs() - cpuAt);
        t = performance.now();
        cpuAt = processCpuMs();
        await run('fpcalc', ['-raw', '-length', '0', longWav]).catch((error: unknown) => {
          // fpcalc 1.5 exits 3 on reaching the end of a WAV ("Error decoding audio frame (End of file)") after printing it.
          if (!String((error as { stdout?: unknown }).stdout).includes('FINGERPRINT=')) throw error;
        });
        fpcalcMs.push(performance.now() - t);
        fpcalcCpuMs.push(processCpuMs() - cpuAt);
      }
    } finally {
      await pool.close();
    }

    const rows = TRANSFORMATIONS.map((t) => {
      const mine = lookups.filter((l) => l.transformation === t.id);
      const distances = copyDistances.get(t.id) as number[];
      return {
        id: t.id,
        transformation: t.label,
        copies: mine.length,
        caught: mine.filter((l) => l.caught).length,
        caughtShare: mine.filter((l) => l.caught).length / mine.length,
        falseMatches: mine.filter((l) => l.falseMatch).length,
        maxBitError: Math.max(...distances),
        medianBitError: median(distances),
      };
    });
    const own = lookups.filter((l) => l.transformation === 'own song');
    const times = lookups.map((l) => l.ms);
    const report = {
      date: new Date().toISOString(),
      machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
      songs: SONGS,
      secondsPerSong: SECONDS,
      itemsPerSong: median(songs.map((s) => s.fingerprint.length)),
      rule: { ...MATCH_RULE, windowSeconds: MATCH_RULE.windowItems * ITEM_SECONDS },
      rows,
      distinctPairs: {
        pairs: pairDistances.length,
        falseMatchesByRule: ruleFalseMatches,
        falseMatchesInLookups: own.filter((l) => l.falseMatch).length + rows.reduce((sum, r) => sum + r.falseMatches, 0),
        closestBitError: closest.bitError,
        closestPair: [songs[closest.a]?.prompt, songs[closest.b]?.prompt],
        bitErrorP01: quantile(pairDistances, 0.001),
        bitErrorP1: quantile(pairDistances, 0.01),
        bitErrorMedian: median(pairDistances),
        farthestCopy: Math.max(...rows.map((r) => r.maxBitError)),
      },
      lookup: {
        registered: REGISTRY,
        realSongs: SONGS,
        termRows,
        storage,
        loadSeconds: loadMs / 1000,
        lookups: lookups.length,
        p50Ms: quantile(times, 0.5),
        p99Ms: quantile(times, 0.99),
        maxMs: Math.max(...times),
      },
      cost: {
        seconds: LONG_SECONDS,
        fingerprintMs: median(fingerprintMs),
        fingerprintCpuMs: median(fingerprintCpuMs),
        mp3EncodeMs: median(encodeMs),
        mp3EncodeCpuMs: median(encodeCpuMs),
        mp3Encoder: `${backend === 'wasm' ? 'wasm LAME' : `native ${backend}`}, ${threads} parallel chunks`,
        fpcalcMs: median(fpcalcMs),
        fpcalcCpuMs: median(fpcalcCpuMs),
        rounds: TIMING_ROUNDS,
      },
      wallSeconds: (performance.now() - started) / 1000,
    };
    const results = fileURLToPath(new URL('./results/', import.meta.url));
    await mkdir(results, { recursive: true });
    await writeFile(join(results, 'fingerprint.json'), `${JSON.stringify(report, null, 2)}\n`);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const md = `# Fingerprint benchmark (npm run bench:fingerprint)

${report.date}, ${report.machine.cores} cores (${report.machine.cpu}), Node ${report.machine.node}; wall ${report.wallSeconds.toFixed(0)} s.
${SONGS} distinct songs of the built-in model, ${SECONDS} s each (${report.itemsPerSong} items), each its own seed.
Rule (core/src/fingerprint/match.ts): a window of ${MATCH_RULE.windowItems} items (${report.rule.windowSeconds.toFixed(1)} s of items, 10 s of audio) at one offset, bit error at most ${MATCH_RULE.maxBitError} counted against the two neighbouring items, at least ${MATCH_RULE.minActivity} bit changing per item.

## Copies caught (goal: 100% each), by a lookup in the registry of ${REGISTRY.toLocaleString('en')}

| transformation | caught | false matches | bit error, median | bit error, worst |
|---|---|---|---|---|
${rows.map((r) => `| ${r.transformation} | ${r.caught}/${r.copies} (${pct(r.caughtShare)}) | ${r.falseMatches} | ${r.medianBitError.toFixed(4)} | ${r.maxBitError.toFixed(4)} |`).join('\n')}

## Distinct songs (goal: 0 false matches)

- ${report.distinctPairs.pairs} pairs, by the rule both ways: **${ruleFalseMatches} false matches**; songs looked up as their owner's own among ${REGISTRY.toLocaleString('en')}: ${own.filter((l) => l.falseMatch).length} false matches.
- Closest pair over every offset: bit error ${closest.bitError.toFixed(4)} (${report.distinctPairs.closestPair.join(' | ')}); 0.1% of pairs under ${report.distinctPairs.bitErrorP01.toFixed(4)}, 1% under ${report.distinctPairs.bitErrorP1.toFixed(4)}, median ${report.distinctPairs.bitErrorMedian.toFixed(4)}.
- Farthest copy: ${report.distinctPairs.farthestCopy.toFixed(4)}; the threshold ${MATCH_RULE.maxBitError} sits between.

## Cost

| step (${LONG_SECONDS} s song, median of ${TIMING_ROUNDS}) | wall ms | CPU ms |
|---|---|---|
| fingerprint (this repository, TypeScript, one thread) | ${report.cost.fingerprintMs.toFixed(0)} | ${report.cost.fingerprintCpuMs.toFixed(0)} |
| MP3 320 kbps encode, baseline (${report.cost.mp3Encoder}) | ${report.cost.mp3EncodeMs.toFixed(0)} | ${report.cost.mp3EncodeCpuMs.toFixed(0)} |
| fpcalc (Chromaprint in C, with its own WAV decode) | ${report.cost.fpcalcMs.toFixed(0)} | ${report.cost.fpcalcCpuMs.toFixed(0)} |
| landmark fingerprint (core/src/fingerprint/landmarks.ts, one thread; goal at most a third of the encode) | ${median(landmarkMs).toFixed(0)} | |

Lookup against ${REGISTRY.toLocaleString('en')} registered fingerprints (${SONGS} real, the rest drawn from their bit model; ${termRows.toLocaleString('en')} rows in the inverted index, ${storage?.terms ?? '?'} + its key ${storage?.key ?? '?'}, the registry ${storage?.registry ?? '?'}; loaded in ${report.lookup.loadSeconds.toFixed(0)} s): p50 ${report.lookup.p50Ms.toFixed(1)} ms, p99 ${report.lookup.p99Ms.toFixed(1)} ms, max ${report.lookup.maxMs.toFixed(1)} ms over ${lookups.length} lookups.
`;
    const landmarks = PART === 'chromaprint' ? null : await runLandmarkBench({ workDir: work.path, render, promptOf });
    const landmarkMd =
      landmarks === null
        ? ''
        : 'skipped' in landmarks
          ? `\n## Landmark fingerprint\n\nSkipped: ${landmarks.skipped}.\n`
          : `\n${landmarks.markdown}`;
    if (landmarks !== null && !('skipped' in landmarks))
      await writeFile(join(results, 'fingerprint-landmarks.json'), `${JSON.stringify(landmarks.json, null, 2)}\n`);
    await writeFile(join(results, 'fingerprint.md'), md + landmarkMd);
    console.log(md + landmarkMd);
  } finally {
    await model.release();
    await work.remove();
  }
}

/** Step 7 and the cost of a 240 s song alone (BENCH_FINGERPRINT_PART=landmarks). */
async function landmarksOnly(
  workDir: string,
  render: (prompt: string, seed: number, seconds: number) => Promise<{ channels: Float32Array[]; sampleRate: number }>,
  started: number,
): Promise<void> {
  const landmarks = await runLandmarkBench({ workDir, render, promptOf });
  const long = await render('upbeat synth pop with a driving beat', 7, LONG_SECONDS);
  const threads = Math.max(1, Math.min(4, availableParallelism()));
  const pool = new EncoderPool(threads);
  const backend = selectEncoderBackend('auto', systemBinaryProbe);
  const timings = {
    landmark: [] as number[],
    landmarkCpu: [] as number[],
    upload: [] as number[],
    spectrogram: [] as number[],
    contrastImage: [] as number[],
    chromaprint: [] as number[],
    encode: [] as number[],
    encodeCpu: [] as number[],
  };
  try {
    for (let round = 0; round < TIMING_ROUNDS; round += 1) {
      let t = performance.now();
      let cpu = processCpuMs();
      landmarkPeaks(long.channels, long.sampleRate);
      timings.landmark.push(performance.now() - t);
      timings.landmarkCpu.push(processCpuMs() - cpu);
      t = performance.now();
      uploadLandmarks(long.channels, long.sampleRate);
      timings.upload.push(performance.now() - t);
      // One contrast image fed the spectrogram's frames, beside the spectrogram that makes them.
      const frames: Float32Array[] = [];
      t = performance.now();
      const spectrogram = createLogSpectrogram((_, db) => frames.push(db.slice()));
      const mono = createMonoInput(long.sampleRate, long.channels.length, LANDMARK_SAMPLE_RATE, (samples) => spectrogram.push(samples));
      feedInBlocks((block) => mono.feed(block), long.channels, 65536);
      mono.flush();
      spectrogram.flush();
      timings.spectrogram.push(performance.now() - t);
      t = performance.now();
      const image = createContrastImageBuilder();
      for (const [i, db] of frames.entries()) image.frame(i, db);
      image.finish();
      timings.contrastImage.push(performance.now() - t);
      t = performance.now();
      fingerprintPcm(long.channels, long.sampleRate);
      timings.chromaprint.push(performance.now() - t);
      t = performance.now();
      cpu = processCpuMs();
      const encoded = await encodeMp3(long.channels, long.sampleRate, {
        backend,
        pool,
        parallelism: threads,
        signal: new AbortController().signal,
      });
      if (!encoded.ok) throw new Error(encoded.error.message);
      timings.encode.push(performance.now() - t);
      timings.encodeCpu.push(processCpuMs() - cpu);
    }
  } finally {
    await pool.close();
  }
  const ratio = median(timings.landmark) / median(timings.encode);
  const md = `## Landmark fingerprint run (BENCH_FINGERPRINT_PART=landmarks)

${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; wall ${((performance.now() - started) / 1000).toFixed(0)} s; load average during the run ${(await readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ').slice(0, 3).join(' ')} (other engineers share the machine: the wall times are inflated alike).
The Chromaprint part above is from its own last run: \`npm run bench:fingerprint\` runs both.

${'skipped' in landmarks ? `Landmark part skipped: ${landmarks.skipped}.` : landmarks.markdown.replace(/^## /, '### ')}
### Cost of a ${LONG_SECONDS} s built-in song (median of ${TIMING_ROUNDS}, same run)

| step | wall ms | CPU ms |
|---|---|---|
| landmark fingerprint (TypeScript, one thread) | ${median(timings.landmark).toFixed(0)} | ${median(timings.landmarkCpu).toFixed(0)} |
| an upload's landmarks as the decode thread reads them: with its two views and the three contrast images (core/src/fingerprint/sound-fingerprints.ts \`uploadLandmarks\`; ${(median(timings.upload) / median(timings.landmark)).toFixed(2)}x the fingerprint above) | ${median(timings.upload).toFixed(0)} | |
| its mono input and log spectrogram alone (frames kept) | ${median(timings.spectrogram).toFixed(0)} | |
| one contrast image (core/src/fingerprint/contrast-image.ts) fed those frames (${(median(timings.contrastImage) / median(timings.spectrogram)).toFixed(2)}x the spectrogram; an upload makes three) | ${median(timings.contrastImage).toFixed(0)} | |
| Chromaprint fingerprint (TypeScript, one thread) | ${median(timings.chromaprint).toFixed(0)} | |
| MP3 320 kbps encode (${backend === 'wasm' ? 'wasm LAME' : `native ${backend}`}, ${threads} parallel chunks) | ${median(timings.encode).toFixed(0)} | ${median(timings.encodeCpu).toFixed(0)} |

Landmark fingerprint / MP3 encode: **${ratio.toFixed(2)}** (goal: at most 0.33).
`;
  const results = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(results, { recursive: true });
  if (!('skipped' in landmarks))
    await writeFile(join(results, 'fingerprint-landmarks.json'), `${JSON.stringify(landmarks.json, null, 2)}\n`);
  // Keeps the Chromaprint part of the last full run above this one.
  const previous = await readFile(join(results, 'fingerprint.md'), 'utf8').catch(() => '');
  const kept = previous.split('\n## Landmark fingerprint')[0] ?? '';
  await writeFile(join(results, 'fingerprint.md'), `${kept.trimEnd()}\n\n${md}`);
  console.log(md);
}

await main();
