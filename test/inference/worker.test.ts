import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOSSLESS_FORMATS, WORKER_RETRY_LIMIT, audioObjectKey, losslessObjectKey } from '../../core/src/generation-queue.ts';
import { BUILTIN_MODEL_DIR } from '../../inference/src/config.ts';
import { GraphBuilder, encodeModel } from '../../inference/src/model/onnx-builder.ts';
import { measureMp3 } from '../../inference/src/audio/mp3-frames.ts';
import { seedFromJobId } from '../../inference/src/model/seed.ts';
import { CALIBRATION_SECONDS } from '../../inference/src/worker/calibration.ts';
import type { Stack } from './helpers/stack.ts';
import { jobRow, startStack } from './helpers/stack.ts';
import { assertCbr320, decodeMp3, fetchPublishedMp3 } from './helpers/mp3-checks.ts';
import { readC2pa, validationFailures } from '../support/c2pa.ts';
import type { C2paIngredient, C2paReport } from '../support/c2pa.ts';
import { contentHash } from '../../core/src/content-hash.ts';
import { GENERATOR, promptSha256 } from '../../inference/src/audio/content-credentials.ts';
import { fingerprintFromBytes, fingerprintRecord } from '../../core/src/fingerprint/encoding.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { latentsObjectKey } from '../../core/src/song-edits.ts';
import { decodeKeptLatents } from '../../inference/src/model/kept-latents.ts';
import { storeLosslessMasters } from '../../inference/src/worker/masters.ts';

/** A model directory whose graph loads but fails at run time (a Reshape that cannot fit). */
async function brokenModelDir(): Promise<TempDir> {
  const temp = await makeTempDir('broken-model');
  const dir = temp.path;
  await cp(join(BUILTIN_MODEL_DIR, 'manifest.json'), join(dir, 'manifest.json'));
  const g = new GraphBuilder('');
  g.input('conditioning', 'float', [12]);
  g.input('seed', 'float', [2]);
  g.input('rhythm', 'float', [16]);
  const samples = g.input('num_samples', 'int64', [1]);
  g.input('steps', 'int64', [1]);
  // Silence of the asked length, reshaped to exactly 5 s of stereo: the worker's calibration clip
  // (5 s) renders, every longer song fails in the model at run time.
  const silence = g.op('ConstantOfShape', [g.op('Concat', [g.i([2]), samples], { axis: { int: 0 } })]);
  const fiveSeconds = g.i([2, CALIBRATION_SECONDS * 44_100]);
  g.output(g.op('Reshape', [silence, fiveSeconds]), 'audio', 'float', [2, 'num_samples']);
  await writeFile(join(dir, 'model.onnx'), encodeModel(g.graph('broken'), 'fails at run time'));
  return temp;
}

describe('inference worker: queue, database, storage and model end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ retryDelay: 1 });
  });
  after(async () => {
    await stack.stop();
  });

  it('takes a job queued -> processing -> completed and publishes a verified 320 kbps MP3', async () => {
    const jobId = await stack.enqueue({ prompt: 'dark techno with lyrics about the city', duration: 5, withLyrics: true });
    const seen = new Set<string>();
    const progress: number[] = [];
    const worker = await stack.startWorker({ INFERENCE_TEST_SLOW_MODEL_MS: '300' });
    const row = await stack.waitFor('completion', async () => {
      const r = await jobRow(stack.db, jobId);
      seen.add(r.status);
      progress.push(r.progress);
      return r.status === JOB_STATUS.completed || r.status === JOB_STATUS.failed ? r : undefined;
    });
    assert.equal(row.status, JOB_STATUS.completed, row.error_message ?? '');
    assert.ok(seen.has(JOB_STATUS.processing), 'the job was seen processing');
    assert.ok(
      progress.some((p) => p > 0 && p < 100),
      `intermediate progress seen: ${progress.join(',')}`,
    );
    assert.equal(row.progress, 100);
    assert.equal(row.attempts, 1);
    assert.ok(row.started_at !== null && row.completed_at !== null && row.completed_at >= row.started_at);
    assert.equal(row.seed, seedFromJobId(jobId).toString(), 'the derived seed is recorded');
    assert.equal(row.device, worker.device);
    assert.equal(row.audio_key, audioObjectKey(jobId));
    assert.equal(row.audio_url, `${stack.s3.endpoint}/${stack.s3.bucket}/audio/gen_${jobId}.mp3`);
    assert.match(row.used_lyrics ?? '', /^\[verse\]/);
    assert.match(row.used_lyrics ?? '', /\[chorus\]/);
    assert.ok((row.lyrics_tokens ?? 0) > 0 && (row.lyrics_tokens ?? 0) <= 512);

    // The published object is fetched over HTTP from its public URL.
    const response = await fetch(row.audio_url ?? '');
    assert.equal(response.status, 200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(`0x${createHash('sha256').update(bytes).digest('hex')}`, row.audio_hash);
    const frames = assertCbr320(bytes);
    assert.ok(frames > 190);
    const measured = measureMp3(bytes);
    assert.ok(measured.ok);
    assert.equal(measured.value.samples, 5 * 44100);
    assert.equal(row.actual_duration, 5);
    const decoded = await decodeMp3(bytes);
    assert.equal(decoded.errors, 0);
    assert.equal(decoded.channels.length, 2);
    assert.equal(decoded.sampleRate, 44100);
    assert.ok(Math.abs(decoded.samples - 5 * 44100) <= 1152, `decoded ${decoded.samples} samples`);
    const rms = Math.sqrt(decoded.channels[0]!.reduce((s, v) => s + v * v, 0) / decoded.samples);
    assert.ok(rms > 0.02, `audible output (rms ${rms})`);
    // The served bytes carry a C2PA manifest c2pa-rs validates, naming this job and its seed.
    const credentials = await readC2pa(bytes, stack.c2paCaPem);
    assert.equal(credentials.validation_state, 'Trusted', JSON.stringify(credentials.validation_status));
    const manifest = credentials.manifests[credentials.active_manifest];
    assert.equal(
      (manifest?.assertions.find((a) => a.label === 'c2pa.actions.v2')?.data as { actions: { digitalSourceType: string }[] }).actions[0]
        ?.digitalSourceType,
      'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
    );
    const fingerprint = await stack.db.one<{ fingerprint: Buffer }>('SELECT fingerprint FROM generation_jobs WHERE id = $1', [jobId]);
    assert.ok(fingerprint.fingerprint.length >= 4 * 15, `${fingerprint.fingerprint.length / 4} items for 5 s`);
    assert.deepEqual(manifest?.assertions.find((a) => a.label === 'com.songmint.generation')?.data, {
      generator: { name: 'Songmint', version: GENERATOR.version },
      kind: 'song',
      jobId: `gen_${jobId}`,
      model: { name: 'songmint-builtin-procedural', version: '1.1.0', licence: { spdx: 'MIT', commercialUse: true } },
      seed: row.seed,
      promptSha256: promptSha256('dark techno with lyrics about the city'),
      // The sound's Chromaprint fingerprint (issue 44): the items stored on the job's row, compact.
      fingerprint: fingerprintRecord(fingerprintFromBytes(fingerprint.fingerprint)),
      // No uploaded audio in a song from the prompt alone (issue 50).
      outsideAudio: { seconds: 0, spans: [] },
    });

    // The WAV and FLAC follow the completion: stored privately, then recorded in place of the
    // pending marker the completion wrote (with the PCM hash the song completed with).
    const masters = await stack.waitFor('masters', async () => {
      const r = await stack.db.one<{ lossless: Record<string, unknown> | null; pcm_hash: string | null }>(
        'SELECT lossless, pcm_hash FROM generation_jobs WHERE id = $1',
        [jobId],
      );
      return r.lossless !== null && !('pending' in r.lossless) ? r : undefined;
    });
    assert.match(masters.pcm_hash ?? '', /^0x[0-9a-f]{64}$/);
    for (const format of LOSSLESS_FORMATS) {
      const head = await stack.store.head(losslessObjectKey(jobId, format));
      assert.ok(head.ok, format);
      assert.equal(head.value.size, masters.lossless?.[`${format}_bytes`], format);
    }

    const beat = await stack.db.one<{ device: string; model_name: string }>('SELECT device, model_name FROM worker_heartbeats');
    assert.equal(beat.device, worker.device);
    assert.equal(beat.model_name, 'songmint-builtin-procedural');
    await worker.stop();
    assert.equal((await stack.db.one<{ n: number }>('SELECT count(*)::int AS n FROM worker_heartbeats')).n, 0, 'heartbeat removed on stop');
  });

  it("gives up a song's masters that do not hold the sound it completed with: nothing stored, lossless null", async () => {
    const jobId = await stack.enqueue({ prompt: 'masters check' });
    const pending = { pending: true, sample_rate: 44100, bits_per_sample: 24, channels: 2, wav_bytes: null, flac_bytes: null };
    await stack.db.none(
      `UPDATE generation_jobs SET status = '${JOB_STATUS.completed}', audio_key = 'audio/x.mp3', audio_url = 'http://x/audio/x.mp3',
              audio_hash = $2, started_at = now(), completed_at = now(), lossless = $3, pcm_hash = $2 WHERE id = $1`,
      [jobId, `0x${'11'.repeat(32)}`, pending],
    );
    const files = {
      pcm: { sampleRate: 44100, channels: 2, frames: 1 },
      pcmHash: `0x${'22'.repeat(32)}`,
      wav: new Uint8Array(8),
      flac: new Uint8Array(8),
    };
    const masters = { pcm: files.pcm, make: () => Promise.resolve(files) };
    await assert.rejects(
      storeLosslessMasters({ db: stack.db, store: stack.store }, jobId, masters, `0x${'11'.repeat(32)}`, new AbortController().signal),
      /the masters hold PCM 0x2222.*completed with 0x1111/,
    );
    const row = await stack.db.one<{ lossless: unknown }>('SELECT lossless FROM generation_jobs WHERE id = $1', [jobId]);
    assert.equal(row.lossless, null);
    for (const format of LOSSLESS_FORMATS) assert.equal((await stack.store.head(losslessObjectKey(jobId, format))).ok, false, format);
    // The same files with the song's own hash are stored and recorded.
    const stored = await storeLosslessMasters(
      { db: stack.db, store: stack.store },
      jobId,
      masters,
      files.pcmHash,
      new AbortController().signal,
    ).catch((err: unknown) => err);
    assert.ok(stored instanceof Error && /no longer waits/.test(stored.message), 'the marker was dropped: nothing waits for them any more');
    await stack.db.none('UPDATE generation_jobs SET lossless = $2 WHERE id = $1', [jobId, pending]);
    await storeLosslessMasters({ db: stack.db, store: stack.store }, jobId, masters, files.pcmHash, new AbortController().signal);
    const recorded = await stack.db.one<{ lossless: unknown }>('SELECT lossless FROM generation_jobs WHERE id = $1', [jobId]);
    assert.deepEqual(recorded.lossless, { sample_rate: 44100, bits_per_sample: 24, channels: 2, wav_bytes: 8, flac_bytes: 8 });
    for (const format of LOSSLESS_FORMATS) assert.equal((await stack.store.head(losslessObjectKey(jobId, format))).ok, true, format);
  });

  it('publishes byte-identical audio for the same prompt, seed, duration and steps, and different audio otherwise', async () => {
    const same = { prompt: 'lo-fi hip hop with rain', duration: 6, seed: 123456789n, steps: 27 as const };
    const ids = [
      await stack.enqueue(same),
      await stack.enqueue(same),
      await stack.enqueue({ ...same, seed: 987654321n }),
      await stack.enqueue({ ...same, prompt: 'lo-fi hip hop with rain, bright and fast' }),
      await stack.enqueue({ ...same, steps: 60 }),
    ];
    const worker = await stack.startWorker({ WORKER_CONCURRENCY: '2' });
    const rows = await stack.waitFor('five completions', async () => {
      const r = await Promise.all(ids.map((id) => jobRow(stack.db, id)));
      return r.every((x) => x.status === JOB_STATUS.completed) ? r : undefined;
    });
    await worker.stop();
    // The audio (every MPEG frame after the ID3 tag) is reproducible; the published files differ
    // by their content credentials, which name the job and carry a fresh signature.
    const published = await Promise.all(rows.map((r) => fetchPublishedMp3(r.audio_url)));
    const hashes = published.map((file) => file.audioFramesHash);
    assert.equal(hashes[0], hashes[1], 'same inputs, same audio frames');
    assert.equal(new Set(hashes).size, 4, `seed, prompt words and steps each change the audio: ${hashes.join(' ')}`);
    assert.notEqual(rows[0]?.audio_hash, rows[1]?.audio_hash, "each job's file carries its own manifest");
    assert.deepEqual(
      published.map((file, i) => contentHash(file.bytes) === rows[i]?.audio_hash),
      [true, true, true, true, true],
    );
    assert.deepEqual(
      rows.map((r) => r.seed),
      ['123456789', '123456789', '987654321', '123456789', '123456789'],
    );
  });

  it('edits a song through the queue: repaint 4-6 s, then extend the repaint to 20 s; kept parts are the source, each edit names its parent', async (t) => {
    const prompt = 'warm synthwave at 100 bpm';
    const sourceId = await stack.enqueue({ prompt, duration: 10, seed: 4242n });
    const worker = await stack.startWorker({ WORKER_CONCURRENCY: '2' });
    // Stopped however the test ends: a worker left running would take the next tests' jobs.
    t.after(() => worker.stop());
    const done = (ids: string[]) =>
      stack.waitFor('completions', async () => {
        const r = await Promise.all(ids.map((id) => jobRow(stack.db, id)));
        return r.every((x) => x.status === JOB_STATUS.completed || x.status === JOB_STATUS.failed) ? r : undefined;
      });
    const [source] = await done([sourceId]);
    assert.equal(source?.status, JOB_STATUS.completed, source?.error_message ?? '');
    const repaintId = await stack.enqueue({ prompt, duration: 10, seed: 977n, edit: { task: 'repaint', start: 4, end: 6, sourceId } });
    const [repainted] = await done([repaintId]);
    assert.equal(repainted?.status, JOB_STATUS.completed, repainted?.error_message ?? '');
    // An edit of an edit: the chain the content credentials follow back.
    const extendId = await stack.enqueue({ prompt, duration: 20, edit: { task: 'extend', sourceId: repaintId } });
    const [extended] = await done([extendId]);
    assert.equal(extended?.status, JOB_STATUS.completed, extended?.error_message ?? '');
    assert.equal(extended?.actual_duration, 20);

    // The kept latents (private, beside the audio): the kept samples are the source's, exactly.
    const kept = async (id: string) => {
      const row = await stack.db.one<{ latents_key: string }>('SELECT latents_key FROM generation_jobs WHERE id = $1', [id]);
      assert.equal(row.latents_key, latentsObjectKey(id));
      const head = await stack.store.head(row.latents_key);
      assert.equal(head.ok && head.value.cacheControl, 'private, no-store', 'kept latents are stored as a private object');
      const got = await stack.store.get(row.latents_key);
      assert.ok(got.ok);
      const decoded = decodeKeptLatents(got.value.bytes);
      assert.ok(decoded.ok);
      return decoded.value;
    };
    const [sourceKept, extendedKept, repaintedKept] = await Promise.all([kept(sourceId), kept(extendId), kept(repaintId)]);
    const rate = 44100;
    const channel = (k: typeof sourceKept, c: number) => k.data.subarray(c * (k.header.shape[1] ?? 0), (c + 1) * (k.header.shape[1] ?? 0));
    // Byte comparisons (memcmp): element-wise deepEqual over 441,000 samples would hold the event loop.
    const same = (x: Int16Array | Float32Array, y: Int16Array | Float32Array) =>
      Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength));
    for (const c of [0, 1]) {
      assert.ok(
        same(channel(extendedKept, c).subarray(0, 10 * rate), channel(repaintedKept, c)),
        'an extended song starts with its source',
      );
      assert.ok(same(channel(repaintedKept, c).subarray(0, 4 * rate), channel(sourceKept, c).subarray(0, 4 * rate)), 'repaint keeps 0-4 s');
      assert.ok(same(channel(repaintedKept, c).subarray(6 * rate), channel(sourceKept, c).subarray(6 * rate)), 'repaint keeps 6-10 s');
      assert.ok(
        !same(channel(repaintedKept, c).subarray(5 * rate, 6 * rate), channel(sourceKept, c).subarray(5 * rate, 6 * rate)),
        'new 5-6 s',
      );
    }

    // The published MP3s, decoded: kept parts equal within the codec's tolerance, edited parts differ.
    const [sourceMp3, repaintedMp3, extendedMp3] = await Promise.all(
      [source, repainted, extended].map(async (row) => (await fetchPublishedMp3(row?.audio_url ?? null)).bytes),
    );
    const decode = async (mp3: Uint8Array) => (await decodeMp3(mp3)).channels[0]!;
    const [a, rep, ext] = await Promise.all([decode(sourceMp3!), decode(repaintedMp3!), decode(extendedMp3!)]);
    const relativeError = (x: Float32Array, y: Float32Array, from: number, to: number) => {
      let diff = 0;
      let energy = 0;
      for (let i = Math.round(from * rate); i < Math.round(to * rate); i += 1) {
        diff += ((x[i] ?? 0) - (y[i] ?? 0)) ** 2;
        energy += (y[i] ?? 0) ** 2;
      }
      return Math.sqrt(diff / energy);
    };
    assert.ok(relativeError(ext, rep, 0, 9.9) < 0.05, `extend keeps 0-10 s (error ${relativeError(ext, rep, 0, 9.9)})`);
    assert.ok(relativeError(rep, a, 0, 3.9) < 0.05, `repaint keeps 0-4 s (error ${relativeError(rep, a, 0, 3.9)})`);
    assert.ok(relativeError(rep, a, 6.1, 9.9) < 0.05, `repaint keeps 6-10 s (error ${relativeError(rep, a, 6.1, 9.9)})`);
    t.diagnostic(`repainted 4-6 s against the source: relative difference ${relativeError(rep, a, 4.1, 5.9).toFixed(3)}`);
    assert.ok(relativeError(rep, a, 4.1, 5.9) > 0.3, `repaint makes 4-6 s anew (difference ${relativeError(rep, a, 4.1, 5.9)})`);
    const tailRms = Math.sqrt(ext.subarray(11 * rate, 19 * rate).reduce((sum, v) => sum + v * v, 0) / (8 * rate));
    assert.ok(tailRms > 0.02, `the extension is audible (rms ${tailRms})`);

    // The content credentials, read by c2pa-rs: each edit names its parent as a C2PA ingredient.
    const manifestLabel = async (id: string) =>
      (await stack.db.one<{ m: string }>(`SELECT content_credentials->>'manifest' AS m FROM generation_jobs WHERE id = $1`, [id])).m;
    const [sourceLabel, repaintLabel, extendLabel] = await Promise.all([
      manifestLabel(sourceId),
      manifestLabel(repaintId),
      manifestLabel(extendId),
    ]);
    const repaintReport = await readC2pa(repaintedMp3!, stack.c2paCaPem);
    assert.equal(repaintReport.validation_state, 'Trusted', JSON.stringify(repaintReport.validation_status));
    assert.deepEqual(validationFailures(repaintReport), []);
    assert.equal(repaintReport.active_manifest, repaintLabel);
    const repaintManifest = repaintReport.manifests[repaintLabel];
    assert.ok(repaintManifest !== undefined);
    const generation = repaintManifest.assertions.find((x) => x.label === 'com.songmint.generation')?.data as { editOf?: unknown };
    assert.deepEqual(generation.editOf, {
      jobId: `gen_${sourceId}`,
      audioHash: source?.audio_hash,
      manifest: sourceLabel,
      task: 'repaint',
      parameters: { start: 4, end: 6 },
    });
    assert.deepEqual(
      repaintManifest.ingredients?.map((i) => ({
        title: i.title,
        format: i.format,
        relationship: i.relationship,
        active_manifest: i.active_manifest,
        label: i.label,
        audioHash: i.metadata?.['com.songmint.audioHash'],
        failures: i.validation_results?.activeManifest.failure,
      })),
      [
        {
          title: 'Warm synthwave at 100 bpm',
          format: 'audio/mpeg',
          relationship: 'parentOf',
          active_manifest: sourceLabel,
          label: 'c2pa.ingredient.v3',
          audioHash: source?.audio_hash,
          failures: [],
        },
      ],
    );
    // c2pa-rs matched the ingredient's hash against the source manifest the store carries, and
    // validated that manifest's signature and trust in turn.
    const delta = repaintReport.validation_results?.ingredientDeltas?.find(
      (d) => d.ingredientAssertionURI === `self#jumbf=/c2pa/${repaintLabel}/c2pa.assertions/c2pa.ingredient.v3`,
    );
    assert.deepEqual(
      delta?.validationDeltas.success
        .filter((e) => ['ingredient.manifest.validated', 'signingCredential.trusted', 'claimSignature.insideValidity'].includes(e.code))
        .map((e) => [e.code, e.url]),
      [
        ['ingredient.manifest.validated', `self#jumbf=/c2pa/${sourceLabel}`],
        ['signingCredential.trusted', `self#jumbf=/c2pa/${sourceLabel}/c2pa.signature`],
        ['claimSignature.insideValidity', `self#jumbf=/c2pa/${sourceLabel}/c2pa.signature`],
      ],
    );
    const actions = repaintManifest.assertions.find((x) => x.label === 'c2pa.actions.v2')?.data as {
      actions: { action: string; digitalSourceType?: string; parameters?: { ingredients?: { url: string }[] } }[];
    };
    assert.deepEqual(
      actions.actions.map((x) => [x.action, x.parameters?.ingredients?.map((i) => i.url)]),
      [
        ['c2pa.opened', ['self#jumbf=c2pa.assertions/c2pa.ingredient.v3']],
        ['c2pa.edited', ['self#jumbf=c2pa.assertions/c2pa.ingredient.v3']],
      ],
    );
    assert.equal(actions.actions[1]?.digitalSourceType, 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia');

    // The extend of the repaint: its store carries the whole chain, followed back to the first prompt.
    const extendReport = await readC2pa(extendedMp3!, stack.c2paCaPem);
    assert.equal(extendReport.validation_state, 'Trusted', JSON.stringify(extendReport.validation_status));
    assert.deepEqual(validationFailures(extendReport), []);
    const chain: { jobId: string; promptSha256: string; actions: string[] }[] = [];
    for (let label: string | undefined = extendReport.active_manifest; label !== undefined;) {
      const manifest: C2paReport['manifests'][string] | undefined = extendReport.manifests[label];
      assert.ok(manifest !== undefined, `the store carries ${label}`);
      const record = manifest.assertions.find((x) => x.label === 'com.songmint.generation')?.data as {
        jobId: string;
        promptSha256: string;
      };
      const acts = manifest.assertions.find((x) => x.label === 'c2pa.actions.v2')?.data as { actions: { action: string }[] };
      chain.push({ jobId: record.jobId, promptSha256: record.promptSha256, actions: acts.actions.map((x) => x.action) });
      const parents: C2paIngredient[] = (manifest.ingredients ?? []).filter((i) => i.relationship === 'parentOf');
      assert.ok(parents.length <= 1);
      label = parents[0]?.active_manifest;
    }
    assert.deepEqual(chain, [
      { jobId: `gen_${extendId}`, promptSha256: promptSha256(prompt), actions: ['c2pa.opened', 'c2pa.edited'] },
      { jobId: `gen_${repaintId}`, promptSha256: promptSha256(prompt), actions: ['c2pa.opened', 'c2pa.edited'] },
      { jobId: `gen_${sourceId}`, promptSha256: promptSha256(prompt), actions: ['c2pa.created'] },
    ]);
    assert.equal(extendReport.active_manifest, extendLabel);
    assert.deepEqual(Object.keys(extendReport.manifests).sort(), [sourceLabel, repaintLabel, extendLabel].sort());
  });

  it('retries a model error twice, returning the job to queued in between, then fails it with GEN_005', async () => {
    const broken = await brokenModelDir();
    try {
      const jobId = await stack.enqueue({ prompt: 'anything', duration: 6 });
      // The user was charged for this generation today (as the oracle does at enqueue).
      await stack.db.none(
        `UPDATE users SET daily_generations = 3, last_generation_reset = CURRENT_DATE
          WHERE id = (SELECT user_id FROM generation_jobs WHERE id = $1)`,
        [jobId],
      );
      const statuses: string[] = [];
      const worker = await stack.startWorker({ MODEL_DIR: broken.path });
      const row = await stack.waitFor('failure', async () => {
        const r = await jobRow(stack.db, jobId);
        if (statuses.at(-1) !== `${r.status}/${r.attempts}`) statuses.push(`${r.status}/${r.attempts}`);
        return r.status === JOB_STATUS.failed ? r : undefined;
      });
      await worker.stop();
      assert.equal(row.error_code, 'GEN_005');
      assert.equal(row.attempts, 3);
      assert.match(row.error_message ?? '', /after 3 attempts/);
      assert.equal(row.audio_url, null);
      const owner = await stack.db.one<{ daily_generations: number }>(
        'SELECT daily_generations FROM users WHERE id = (SELECT user_id FROM generation_jobs WHERE id = $1)',
        [jobId],
      );
      assert.equal(owner.daily_generations, 2, 'the failed generation is given back (once, not per attempt)');
      assert.ok(statuses.includes('queued/1') || statuses.includes('queued/2'), `back to queued between attempts: ${statuses.join(' ')}`);
      assert.ok(!statuses.some((s) => s.startsWith('failed/1') || s.startsWith('failed/2')), 'not failed before the last attempt');
    } finally {
      await broken.remove();
    }
  });

  it('aborts an attempt at the job time limit and fails the job after the retries', async () => {
    const jobId = await stack.enqueue({ prompt: 'slow song' });
    // The slow model would hold each attempt for 10 minutes: finishing well inside that shows the
    // worker stopped waiting at the limit (a loaded machine stretches the few seconds it needs).
    // The limit leaves the start's calibration (a 5 s clip of the built-in model and its encode:
    // well under 1 s idle, several seconds on a loaded 2-core machine) room to publish that a 5 s
    // song fits.
    const worker = await stack.startWorker({ JOB_TIME_LIMIT_MS: '12000', INFERENCE_TEST_SLOW_MODEL_MS: '600000' });
    const started = Date.now();
    // Three attempts of 12 s and the retries' back-off: past the default 60 s wait on a loaded
    // machine (it timed out there once), well inside the 120 s that tells an abort from a wait.
    const row = await stack.waitFor(
      'time-limit failure',
      async () => {
        const r = await jobRow(stack.db, jobId);
        return r.status === JOB_STATUS.failed ? r : undefined;
      },
      115_000,
    );
    await worker.stop();
    assert.equal(row.error_code, 'GEN_005');
    assert.equal(row.attempts, 3, row.error_message ?? '');
    assert.match(row.error_message ?? '', /time limit/);
    assert.ok(Date.now() - started < 120_000, 'the slow model was aborted, not awaited');
  });

  it('serves enterprise before pro before free when one slot is free', async () => {
    const free = await stack.enqueue({ tier: 'free', prompt: 'free song' });
    const pro = await stack.enqueue({ tier: 'pro', prompt: 'pro song' });
    const enterprise = await stack.enqueue({ tier: 'enterprise', prompt: 'enterprise song' });
    const worker = await stack.startWorker({ FLEET_SLOTS: '1' });
    const rows = await stack.waitFor('three completions', async () => {
      const r = await Promise.all([enterprise, pro, free].map((id) => jobRow(stack.db, id)));
      return r.every((x) => x.status === JOB_STATUS.completed) ? r : undefined;
    });
    await worker.stop();
    const starts = rows.map((r) => r.started_at?.getTime() ?? 0);
    assert.ok(starts[0]! < starts[1]! && starts[1]! < starts[2]!, `started in tier order: ${starts.join(' < ')}`);
  });

  it('never runs more than the fleet cap at once across worker processes (11 jobs, cap 10)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 11; i += 1) ids.push(await stack.enqueue({ prompt: `song ${i}` }));
    const slow = { INFERENCE_TEST_SLOW_MODEL_MS: '2500', WORKER_CONCURRENCY: '4', ENCODER_THREADS: '1' };
    const workers = await Promise.all([stack.startWorker(slow), stack.startWorker(slow), stack.startWorker(slow)]);
    const rows = await stack.waitFor(
      'eleven completions',
      async () => {
        const r = await Promise.all(ids.map((id) => jobRow(stack.db, id)));
        return r.every((x) => x.status === JOB_STATUS.completed) ? r : undefined;
      },
      120_000,
    );
    await Promise.all(workers.map((w) => w.stop()));
    const events = rows.flatMap((r) => [
      { t: r.started_at!.getTime(), d: 1 },
      { t: r.completed_at!.getTime(), d: -1 },
    ]);
    events.sort((a, b) => a.t - b.t || a.d - b.d);
    let running = 0;
    let peak = 0;
    for (const e of events) {
      running += e.d;
      peak = Math.max(peak, running);
    }
    assert.ok(peak <= 10, `at most 10 at once, saw ${peak}`);
    assert.ok(peak >= 2, `jobs ran in parallel (peak ${peak})`);
    const lastStart = Math.max(...rows.map((r) => r.started_at!.getTime()));
    const firstEnd = Math.min(...rows.map((r) => r.completed_at!.getTime()));
    assert.ok(lastStart >= firstEnd, 'the eleventh job waited for a slot');
    // On a loaded machine a pooled connection can take longer than its 2 s deadline to open: the
    // attempt fails and the queue runs it again (seen: "Connection terminated due to connection
    // timeout", attempts 2 at load 8 on 2 cores). The cap must hold across those retries too; the
    // peak above counts each job's final attempt, which ran in a slot like any other.
    assert.ok(
      rows.every((r) => r.attempts >= 1 && r.attempts <= WORKER_RETRY_LIMIT + 1),
      `attempts within the retry limit: ${rows.map((r) => r.attempts).join(',')}`,
    );
  });
});
