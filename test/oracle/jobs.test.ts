/**
 * Cancel, list and provenance of generation jobs against the real stack: PostgreSQL, pg-boss,
 * s3rver, the IPFS blockstore and a real inference worker (built-in model, one job at a time,
 * slowed before its model step so a job can be caught while it runs).
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { GENERATION_QUEUE, LOSSLESS_MASTERS_DEADLINE_SECONDS, audioObjectKey } from '../../core/src/generation-queue.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { freePort } from '../../core/src/testing/free-port.ts';
import type { WorkerProcess } from '../../inference/src/worker/process.ts';
import { metadataResponseSchema } from '../../oracle/src/http/routes/metadata.ts';
import {
  generateAcceptedSchema,
  generateVariantBResultSchema,
  jobCancelledSchema,
  jobListSchema,
  jobStatusSchema,
  jobSummarySchema,
  profileSchema,
} from '../../oracle/src/http/schemas.ts';
import { recordSongMinted } from '../../oracle/src/chain/watcher.ts';
import { findExpiredAudio, markPurged } from '../../core/src/jobs/job-state.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { startStackWorker, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import { readC2pa } from '../support/c2pa.ts';
import { downloadLinkSchema } from '../../oracle/src/http/routes/downloads.ts';
import { jobCursor } from '../../oracle/src/domain/job-list.ts';
import { parse as parseContentDisposition } from 'content-disposition';
import { ffmpegDecode } from '../inference/helpers/mp3-checks.ts';
import { encodePacked, keccak256, recoverMessageAddress } from 'viem';
import { readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { ClientRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { runReference } from '../support/reference-tools.ts';
import { join } from 'node:path';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import { MAX_UPLOAD_BYTES, UPLOAD_RETENTION_DAYS } from '../../core/src/uploads.ts';
import { RIGHTS_STATEMENT } from '../../oracle/src/domain/uploads.ts';
import { createSongmintApi, deleteUpload, editSong, listUploads, SongmintApiError, uploadAudio, withSession } from '../../sdk/src/index.ts';
import { ITEM_SECONDS } from '../../core/src/fingerprint/chromaprint.ts';
import { fingerprintFromBytes, fingerprintRecord } from '../../core/src/fingerprint/encoding.ts';
import type { Hex } from 'viem';
import { waitFor as pollFor } from '../support/wait-for.ts';

const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';

/** The worker waits this long before each model step: long enough to cancel a running job. */
const SLOW_MODEL_MS = 2500;

describe('job cancel, list and provenance (real worker)', () => {
  let stack: StorageStack;
  let worker: WorkerProcess;
  let workerMetricsUrl: string;

  before(async () => {
    stack = await startStorageStack();
    const metricsPort = await freePort();
    workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    worker = await startStackWorker(stack, {
      ENCODER_THREADS: '1',
      WORKER_CONCURRENCY: '1',
      INFERENCE_TEST_SLOW_MODEL_MS: String(SLOW_MODEL_MS),
      WORKER_METRICS_PORT: String(metricsPort),
    });
  });
  after(async () => {
    await worker.stop();
    await stack.stop();
  });

  const waitFor = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => pollFor(what, probe, { timeoutMs: 120_000 });
  const statusOf = async (who: LoggedIn, jobId: string) =>
    jobStatusSchema.parse((await stack.app.request(`/api/generate/${jobId}`, { token: who.token })).body);
  /** A completed song's masters, once stored (they follow the completion by seconds). */
  const waitForMasters = (who: LoggedIn, jobId: string) =>
    waitFor(`${jobId} masters`, async () => {
      const view = await statusOf(who, jobId);
      return view.status === JOB_STATUS.completed && view.lossless?.status === 'ready' ? view.lossless : undefined;
    });
  const waitForStatus = (who: LoggedIn, jobId: string, status: string) =>
    waitFor(`${jobId} ${status}`, async () => {
      const view = await statusOf(who, jobId);
      return view.status === status ? view : undefined;
    });
  const dailyOf = async (userId: string) =>
    (await stack.app.db.one<{ n: number }>('SELECT daily_generations AS n FROM users WHERE id = $1', [userId])).n;
  const cancel = (who: LoggedIn, jobId: string) => stack.app.request(`/api/generate/${jobId}/cancel`, { method: 'POST', token: who.token });
  const generate = async (who: LoggedIn, body: Record<string, unknown>) => {
    const res = await stack.app.request('/api/generate', { token: who.token, body });
    assert.equal(res.status, 202, res.text);
    return generateAcceptedSchema.parse(res.body).job_id;
  };

  it('cancels a queued job at once and a processing one at its next step: nothing published, the generations given back', async () => {
    const alice = await stack.app.login();
    const running = await generate(alice, { prompt: 'cancel me while I run', duration: 5 });
    await waitForStatus(alice, running, JOB_STATUS.processing);
    // The one worker slot is busy: this one waits in the queue.
    const queued = await generate(alice, { prompt: 'cancel me in the queue', duration: 5 });
    assert.equal((await statusOf(alice, queued)).status, JOB_STATUS.queued);
    assert.equal(await dailyOf(alice.userId), 2);

    const stranger = await stack.app.login();
    const theirs = await cancel(stranger, queued);
    assert.equal(theirs.status, 404);
    assertVariantAError(theirs.body, 'NOT_FOUND');

    const queuedCancel = await cancel(alice, queued);
    assert.equal(queuedCancel.status, 200, queuedCancel.text);
    assert.deepEqual(jobCancelledSchema.parse(queuedCancel.body), { job_id: queued, status: JOB_STATUS.cancelled });
    const runningCancel = await cancel(alice, running);
    assert.equal(runningCancel.status, 200, runningCancel.text);
    assert.deepEqual(await statusOf(alice, running), { job_id: running, status: JOB_STATUS.cancelled });
    assert.equal(await dailyOf(alice.userId), 0, 'both daily generations are given back');

    // Cancelling again answers the same.
    const twice = await cancel(alice, running);
    assert.equal(twice.status, 200);
    assert.equal(twice.text, runningCancel.text);

    // The worker stops at its next step and settles the queue message without a retry.
    for (const jobId of [running, queued]) {
      await waitFor(`the queue message of ${jobId} to settle`, async () => {
        const row = await stack.app.db.oneOrNone<{ state: string }>(
          `SELECT state FROM pgboss.job WHERE name = $1 AND data->>'jobId' = $2`,
          [GENERATION_QUEUE, jobId.slice(4)],
        );
        return row?.state === 'completed' ? row : undefined;
      });
    }
    const rows = await stack.app.db.manyOrNone<{ status: string; audio_hash: string | null; attempts: number }>(
      'SELECT status, audio_hash, attempts FROM generation_jobs WHERE id = ANY($1::uuid[]) ORDER BY created_at',
      [[running.slice(4), queued.slice(4)]],
    );
    assert.deepEqual(rows, [
      { status: JOB_STATUS.cancelled, audio_hash: null, attempts: 1 },
      { status: JOB_STATUS.cancelled, audio_hash: null, attempts: 0 },
    ]);
    for (const jobId of [running, queued]) {
      const object = await stack.objectStore.get(audioObjectKey(jobId.slice(4)));
      assert.equal(object.ok, false, `no audio object for ${jobId}`);
    }
    // The running attempt stopped at its checkpoint (not by losing the publish race), and the
    // queued one was skipped at its claim.
    const metrics = await (await fetch(workerMetricsUrl)).text();
    assert.match(metrics, /^inference_jobs_total\{outcome="cancelled"\} 1$/m);
    assert.match(metrics, /^inference_jobs_total\{outcome="skipped"\} 1$/m);
    assert.doesNotMatch(metrics, /outcome="(completed|retry|failed)"/);
  });

  it('a completed job: its status carries lyrics and model, cancelling it is 409, and its metadata carries the generation record', async () => {
    const bob = await stack.app.login();
    const jobId = await generate(bob, { prompt: 'sunny folk song about a harbour', duration: 5, seed: 1234, with_lyrics: true });
    const done = await waitForStatus(bob, jobId, JOB_STATUS.completed);
    assert.ok(done.status === JOB_STATUS.completed);
    assert.ok(done.lyrics !== null && done.lyrics.length > 0, 'generated lyrics are shown');
    assert.ok(done.model !== null);
    const heartbeat = await stack.app.db.one<{ model_name: string; model_version: string }>(
      'SELECT model_name, model_version FROM worker_heartbeats LIMIT 1',
    );
    assert.deepEqual(done.model, { name: heartbeat.model_name, version: heartbeat.model_version });
    // It says the song carries content credentials, and the served MP3 does (read by c2pa-rs).
    const served = await stack.objectStore.get(audioObjectKey(jobId.slice(4)));
    assert.ok(served.ok);
    const credentials = await readC2pa(served.value.bytes, stack.c2pa.caPem);
    assert.equal(credentials.validation_state, 'Trusted', JSON.stringify(credentials.validation_status));
    assert.deepEqual(done.content_credentials, {
      standard: 'c2pa',
      manifest: credentials.active_manifest,
      signer: 'CN=Songmint Development Signer, O=Songmint (development only)',
    });

    const refused = await cancel(bob, jobId);
    assert.equal(refused.status, 409);
    assertVariantAError(refused.body, 'CONFLICT');
    assert.equal((await statusOf(bob, jobId)).status, JOB_STATUS.completed);

    const published = await stack.app.request('/api/metadata', { token: bob.token, body: { name: 'Harbour', audio_url: done.audio_url } });
    assert.equal(published.status, 201, published.text);
    const { cid } = metadataResponseSchema.parse(published.body);
    const stored = await stack.app.db.one<{ document: { properties: Record<string, unknown> } }>(
      'SELECT document FROM song_metadata WHERE cid = $1',
      [cid],
    );
    const sound = await stack.app.db.one<{ fingerprint: Buffer }>('SELECT fingerprint FROM generation_jobs WHERE id = $1', [
      jobId.slice(4),
    ]);
    assert.deepEqual(stored.document.properties.generation, {
      prompt: 'sunny folk song about a harbour',
      lyrics: done.lyrics,
      seed: '1234',
      model: done.model,
      content_credentials: done.content_credentials,
      fingerprint: fingerprintRecord(fingerprintFromBytes(sound.fingerprint)),
      outside_audio: { seconds: 0, spans: [] },
    });
  });

  it('a song: its WAV and FLAC for its owner only; the same sound from two jobs is signed once (SIGN_006)', async () => {
    const alice = await stack.app.login();
    const bob = await stack.app.login();
    // The built-in model is deterministic: the same prompt and seed make the same PCM.
    const same = { prompt: 'same sound, one mint', duration: 5, seed: 4242 };
    const [first, second, other] = [
      await generate(alice, same),
      await generate(alice, same),
      await generate(alice, { ...same, seed: 4243 }),
    ];
    const done = await Promise.all([first, second, other].map((id) => waitForStatus(alice, id, JOB_STATUS.completed)));
    const [firstDone, secondDone] = done;
    assert.ok(firstDone?.status === JOB_STATUS.completed && secondDone?.status === JOB_STATUS.completed);
    assert.notEqual(firstDone.audio_hash, secondDone.audio_hash, 'each MP3 carries its own manifest');
    const pcm = await stack.app.db.map(
      'SELECT pcm_hash FROM generation_jobs WHERE id = ANY($1::uuid[]) ORDER BY created_at',
      [[first, second, other].map((id) => id.slice(4))],
      (row: { pcm_hash: string }) => row.pcm_hash,
    );
    assert.equal(pcm[0], pcm[1], 'the same sound');
    assert.notEqual(pcm[0], pcm[2], 'another seed, another sound');

    // The masters are made after completion: the status says they are coming, then lists both
    // files; only the owner gets a download URL.
    assert.ok(firstDone.lossless !== null, 'pending or ready at completion');
    const lossless = await waitForMasters(alice, first);
    assert.deepEqual(
      { ...lossless, files: lossless.files.map((f) => [f.format, f.content_type, f.download]) },
      {
        status: 'ready',
        sample_rate: 44100,
        bits_per_sample: 24,
        channels: 2,
        files: [
          ['wav', 'audio/wav', `/api/generate/${first}/download/wav`],
          ['flac', 'audio/flac', `/api/generate/${first}/download/flac`],
        ],
      },
    );
    const refused = await stack.app.request(`/api/generate/${first}/download/wav`, { token: bob.token });
    assert.equal(refused.status, 404, refused.text);
    assertVariantAError(refused.body, 'NOT_FOUND');
    const badFormat = await stack.app.request(`/api/generate/${first}/download/ogg`, { token: alice.token });
    assert.equal(badFormat.status, 400, badFormat.text);
    assertVariantAError(badFormat.body, 'VALIDATION_ERROR');
    const files: Record<string, Uint8Array> = {};
    for (const file of lossless.files) {
      const answer = await stack.app.request(file.download, { token: alice.token });
      assert.equal(answer.status, 200, answer.text);
      const link = downloadLinkSchema.parse(answer.body);
      assert.deepEqual([link.job_id, link.format, link.bytes], [first, file.format, file.bytes]);
      const fetched = await fetch(link.url);
      assert.equal(fetched.status, 200);
      // Saved, not played: an attachment named after the song (read back by jshttp's parser).
      const disposition = parseContentDisposition(fetched.headers.get('content-disposition') ?? '');
      assert.deepEqual(
        [disposition.type, disposition.parameters.filename],
        ['attachment', `same sound, one mint - ${first.slice(4, 12)}.${file.format}`],
      );
      assert.equal(link.file_name, disposition.parameters.filename);
      files[file.format] = new Uint8Array(await fetched.arrayBuffer());
      assert.equal(files[file.format]?.length, file.bytes);
      const unsigned = await fetch(link.url.split('?')[0] ?? '');
      assert.equal(unsigned.status, 403, 'the object is private');
      const report = await readC2pa(
        files[file.format] ?? new Uint8Array(),
        stack.c2pa.caPem,
        file.content_type as 'audio/wav' | 'audio/flac',
      );
      assert.equal(report.validation_state, 'Trusted', JSON.stringify(report.validation_status));
      const generation = report.manifests[report.active_manifest]?.assertions.find((a) => a.label === 'com.songmint.generation');
      assert.equal((generation?.data as { jobId: string }).jobId, first);
    }
    // The MP3 too (issue 45): the published file, saved under the song's name like the masters.
    const mp3Answer = await stack.app.request(`/api/generate/${first}/download/mp3`, { token: alice.token });
    assert.equal(mp3Answer.status, 200, mp3Answer.text);
    const mp3Link = downloadLinkSchema.parse(mp3Answer.body);
    const stored = await stack.objectStore.get(audioObjectKey(first.slice(4)));
    assert.ok(stored.ok);
    const published = stored.value.bytes;
    const mp3Fetched = await fetch(mp3Link.url);
    assert.deepEqual([mp3Link.content_type, mp3Link.bytes], ['audio/mpeg', published.length]);
    assert.deepEqual(new Uint8Array(await mp3Fetched.arrayBuffer()), published, 'the MP3 is the published file');
    assert.equal(mp3Link.file_name, `same sound, one mint - ${first.slice(4, 12)}.mp3`);
    assert.equal(parseContentDisposition(mp3Fetched.headers.get('content-disposition') ?? '').parameters.filename, mp3Link.file_name);
    assert.equal((await stack.app.request(`/api/generate/${first}/download/mp3`, { token: bob.token })).status, 404, 'owner only');
    const [wav, flac] = await Promise.all([
      ffmpegDecode(files.wav ?? new Uint8Array(), 's32le'),
      ffmpegDecode(files.flac ?? new Uint8Array(), 's32le'),
    ]);
    assert.equal(wav.length, 5 * 44100 * 2 * 4);
    assert.ok(wav.equals(flac), 'WAV and FLAC decode to the same samples');

    // One mint per sound, for the job that made it first: the later job asks first and is refused
    // with nothing recorded, the earlier one is signed, the other sound signed on its own.
    const sign = (jobId: string) =>
      stack.app.request('/api/signature', {
        token: alice.token,
        body: { job_id: jobId, user_address: alice.address, metadata_uri: METADATA_URI },
      });
    const [madeFirst, madeSecond] = await stack.app.db.map(
      'SELECT id FROM generation_jobs WHERE id = ANY($1::uuid[]) ORDER BY completed_at, id',
      [[first, second].map((id) => id.slice(4))],
      (row: { id: string }) => `gen_${row.id}`,
    );
    assert.ok(madeFirst !== undefined && madeSecond !== undefined);
    const early = await sign(madeSecond);
    assert.equal(early.status, 409, early.text);
    assertVariantAError(early.body, 'SIGN_006');
    const signed = await sign(madeFirst);
    assert.equal(signed.status, 200, signed.text);
    const { signature, audio_hash: audioHash } = signed.body as { signature: Hex; audio_hash: Hex };
    const message = keccak256(encodePacked(['address', 'string', 'bytes32'], [alice.address as Hex, METADATA_URI, audioHash]));
    assert.equal(await recoverMessageAddress({ message: { raw: message }, signature }), stack.signer.address);
    const twice = await sign(madeSecond);
    assert.equal(twice.status, 409, twice.text);
    assertVariantAError(twice.body, 'SIGN_006');
    const unsignedRow = await stack.app.db.one<{ signature: string | null }>('SELECT signature FROM generation_jobs WHERE id = $1', [
      madeSecond.slice(4),
    ]);
    assert.equal(unsignedRow.signature, null, 'nothing was claimed');
    const signatures = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mint_signatures WHERE user_id = $1', [
      alice.userId,
    ]);
    assert.equal(signatures.n, 1);
    assert.equal((await sign(other)).status, 200, 'a different sound mints on its own');

    // Masters still being made: the status lists none yet and a download asks to come back; once
    // the deadline passed (their worker died), the song has none.
    const pendingColumn = { pending: true, sample_rate: 44100, bits_per_sample: 24, channels: 2, wav_bytes: null, flac_bytes: null };
    await stack.app.db.none('UPDATE generation_jobs SET lossless = $2 WHERE id = $1', [second.slice(4), JSON.stringify(pendingColumn)]);
    const pendingView = await statusOf(alice, second);
    assert.ok(pendingView.status === JOB_STATUS.completed);
    assert.deepEqual(pendingView.lossless, { status: 'pending', sample_rate: 44100, bits_per_sample: 24, channels: 2, files: [] });
    const notYet = await stack.app.request(`/api/generate/${second}/download/flac`, { token: alice.token });
    assert.equal(notYet.status, 404, notYet.text);
    assertVariantAError(notYet.body, 'NOT_FOUND');
    assert.equal((notYet.body as { error: { retry_after?: number } }).error.retry_after, 2);
    await stack.app.db.none(`UPDATE generation_jobs SET completed_at = now() - make_interval(secs => $2) WHERE id = $1`, [
      second.slice(4),
      LOSSLESS_MASTERS_DEADLINE_SECONDS + 1,
    ]);
    const givenUp = await statusOf(alice, second);
    assert.ok(givenUp.status === JOB_STATUS.completed);
    assert.equal(givenUp.lossless, null, 'past the deadline the masters will not come');
  });

  it('an upload: refusals store and charge nothing; a WAV made by ffmpeg, repainted 4-6 s, keeps the rest and names the upload', async (t) => {
    const carol = await stack.app.login();
    const dir = await makeTempDir('uploads');
    t.after(() => dir.remove());
    const ffmpeg = async (name: string, source: string, args: string[] = []): Promise<Uint8Array> => {
      const path = join(dir.path, name);
      await runReference('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', source, ...args, path]);
      return new Uint8Array(await readFile(path));
    };
    // An independent tool's file: 10 s of a stereo chord at the built-in model's rate, 16-bit.
    const wav = await ffmpeg('chord.wav', 'aevalsrc=0.4*sin(2*PI*220*t)+0.2*sin(2*PI*330*t)|0.4*sin(2*PI*277*t):d=10:s=44100', [
      '-c:a',
      'pcm_s16le',
    ]);
    const upload = (bytes: Uint8Array, rights = true) =>
      fetch(`${stack.app.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${carol.token}`,
          'content-type': 'application/octet-stream',
          ...(rights ? { 'Songmint-Rights-Confirmed': 'true' } : {}),
        },
        body: bytes,
      });

    // Refusals: each in the documented shape, nothing stored, no upload row, the hourly charge given back.
    const charged = async () =>
      (
        await stack.app.db.one<{ n: number }>(
          `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
          [`user:${carol.userId}`],
        )
      ).n;
    const stored = async () => {
      const listed = await stack.objectStore.list('uploads/');
      assert.ok(listed.ok);
      return listed.value.length;
    };
    const rows = async () => (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads')).n;
    const before = { charged: await charged(), stored: await stored(), rows: await rows() };
    const refusals: [string, number, Uint8Array, boolean][] = [
      ['UPLOAD_004', 400, wav, false],
      ['UPLOAD_001', 415, new TextEncoder().encode('not audio at all'), true],
      ['UPLOAD_001', 415, await ffmpeg('u8.wav', 'sine=d=2', ['-c:a', 'pcm_u8']), true],
      ['UPLOAD_002', 400, wav.subarray(0, 40), true],
      ['UPLOAD_003', 400, await ffmpeg('short.wav', 'sine=d=0.5', ['-c:a', 'pcm_s16le']), true],
      // The chord's WAV cut after its data chunk's header: a WAV without samples.
      ['UPLOAD_003', 400, wav.subarray(0, Buffer.from(wav).indexOf('data') + 8), true],
      ['UPLOAD_003', 400, new Uint8Array(0), true],
      ['GEN_004', 400, await ffmpeg('long.mp3', 'sine=d=31:sample_rate=8000', ['-c:a', 'libmp3lame', '-b:a', '8k']), true],
    ];
    for (const [code, status, bytes, rights] of refusals) {
      const res = await upload(bytes, rights);
      const body: unknown = await res.json();
      assert.equal(res.status, status, `${code}: ${JSON.stringify(body)}`);
      assertVariantAError(body, code);
    }
    // A name that does not decode, holds a control or bidi character or is too long: 400, nothing stored or charged (issue 51).
    // A bidi override would show its edits' titles reversed on public song pages (oracle/src/domain/shown-text.ts).
    for (const name of ['%E2%28', 'a%0Ab.wav', encodeURIComponent('x'.repeat(201)), encodeURIComponent('evil\u202Egnp.wav')]) {
      const res = await fetch(`${stack.app.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${carol.token}`, 'Songmint-Rights-Confirmed': 'true', 'Songmint-Upload-Name': name },
        body: wav,
      });
      const body: unknown = await res.json();
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(body)}`);
      assertVariantAError(body, 'VALIDATION_ERROR');
      assert.match(JSON.stringify(body), /Songmint-Upload-Name/);
    }
    // Any Content-Encoding is refused unread: the body is never inflated (a gzip bomb, or the real file gzipped).
    for (const coding of ['gzip', 'deflate', 'br', 'identity, gzip']) {
      const res = await fetch(`${stack.app.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${carol.token}`, 'Songmint-Rights-Confirmed': 'true', 'content-encoding': coding },
        body: gzipSync(wav),
      });
      const body: unknown = await res.json();
      assert.equal(res.status, 415, `${coding}: ${JSON.stringify(body)}`);
      assertVariantAError(body, 'UPLOAD_001');
      assert.match(JSON.stringify(body), /Content-Encoding/);
    }

    // Uploads in flight: 2 of one user's; one more is 429 UPLOAD_006 before its body is read. A body
    // still arriving holds only its sender's slots, never one of the process's 4 (issue 49).
    const inFlight = stack.app.deps.uploads?.inFlight;
    assert.ok(inFlight !== undefined);
    const held: ClientRequest[] = [];
    const trickles: NodeJS.Timeout[] = [];
    /**
     * An upload whose body keeps arriving (32 KiB every 100 ms, above the minimum rate) and never
     * finishes: it holds its slot until the client goes away.
     */
    const hold = async (who: LoggedIn) => {
      const request = httpRequest(`${stack.app.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}`, 'Songmint-Rights-Confirmed': 'true', 'content-length': String(MAX_UPLOAD_BYTES) },
      });
      request.on('error', () => {});
      request.write(wav.subarray(0, 1000));
      trickles.push(setInterval(() => request.write(new Uint8Array(32 * 1024)), 100));
      held.push(request);
      const expected = held.length;
      await waitFor(`${expected} uploads in flight`, async () => (inFlight.count().taken === expected ? true : undefined));
    };
    const refusedInFlight = async (who: LoggedIn, whose: RegExp) => {
      const res = await fetch(`${stack.app.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}`, 'Songmint-Rights-Confirmed': 'true' },
        body: wav,
      });
      const body: unknown = await res.json();
      assert.equal(res.status, 429, JSON.stringify(body));
      assertVariantAError(body, 'UPLOAD_006');
      assert.equal(res.headers.get('retry-after'), '2');
      assert.match(JSON.stringify(body), whose);
    };
    const [erin, frank] = [await stack.app.login(), await stack.app.login()];
    await hold(carol);
    await hold(carol);
    await refusedInFlight(carol, /you have 2 uploads in flight/);
    await hold(erin);
    await hold(erin);
    assert.deepEqual(inFlight.count(), { taken: 4, admitted: 0 }, 'bodies still arriving hold none of the process slots');
    const frankRefused = await fetch(`${stack.app.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${frank.token}`, 'Songmint-Rights-Confirmed': 'true' },
      body: wav.subarray(0, 40),
    });
    const frankBody: unknown = await frankRefused.json();
    assert.equal(frankRefused.status, 400, `another user's upload is read and decoded: ${JSON.stringify(frankBody)}`);
    assertVariantAError(frankBody, 'UPLOAD_002');
    for (const trickle of trickles) clearInterval(trickle);
    for (const request of held) request.destroy();
    await waitFor('the held uploads to give their slots back', async () =>
      inFlight.count().taken === 0 && inFlight.count().admitted === 0 ? true : undefined,
    );
    assert.deepEqual({ charged: await charged(), stored: await stored(), rows: await rows() }, before, 'a refused upload leaves nothing');

    // The SDK's uploadAudio and editSong against this oracle.
    const api = withSession(createSongmintApi({ baseUrl: stack.app.baseUrl }), { token: carol.token });
    // Named as the file was (any characters, a path's last part): its edits are titled after it (issue 51).
    const taken = await uploadAudio(api, wav, { rightsConfirmed: true, name: 'C:\\takes\\chord — take 2.wav' });
    assert.equal(taken.name, 'chord — take 2.wav');
    const up = { upload_id: taken.uploadId, sha256: taken.sha256 };
    assert.deepEqual(
      [taken.format, taken.duration, taken.sampleRate, taken.channels, taken.bytes, taken.sha256],
      ['wav', 10, 44100, 2, wav.length, `0x${createHash('sha256').update(wav).digest('hex')}`],
    );
    assert.equal(taken.expiresAt.getTime() - taken.createdAt.getTime(), UPLOAD_RETENTION_DAYS * 86_400_000);
    const record = await stack.app.db.one<{ object_key: string; rights_statement: string; user_id: string; days: number }>(
      `SELECT object_key, rights_statement, user_id, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM uploads WHERE id = $1`,
      [up.upload_id.slice(4)],
    );
    assert.deepEqual(record, {
      object_key: `uploads/${up.upload_id}.wav`,
      rights_statement: RIGHTS_STATEMENT,
      user_id: carol.userId,
      days: UPLOAD_RETENTION_DAYS,
    });
    const head = await stack.objectStore.head(record.object_key);
    assert.equal(head.ok && head.value.cacheControl, 'private, no-store', 'an upload is a private object');

    // Edit refusals against the upload: not yours, the range, nothing charged.
    const dave = await stack.app.login();
    const daily = { carol: await dailyOf(carol.userId), dave: await dailyOf(dave.userId) };
    const notYours = await stack.app.request('/api/generate', {
      token: dave.token,
      body: { prompt: 'x', duration: 10, edit: { source_upload_id: up.upload_id, task: 'remix' } },
    });
    assert.equal(notYours.status, 404, notYours.text);
    assertVariantAError(notYours.body, 'EDIT_001');
    const both = await stack.app.request('/api/generate', {
      token: carol.token,
      body: { prompt: 'x', duration: 10, edit: { source_upload_id: up.upload_id, source_job_id: 'gen_x', task: 'remix' } },
    });
    assert.equal(both.status, 400, both.text);
    assertVariantAError(both.body, 'VALIDATION_ERROR');
    const outside = await stack.app.request('/api/generate', {
      token: carol.token,
      body: { prompt: 'x', duration: 10, edit: { source_upload_id: up.upload_id, task: 'repaint', start: 9, end: 11 } },
    });
    assert.equal(outside.status, 400, outside.text);
    assertVariantAError(outside.body, 'EDIT_004');
    assert.deepEqual({ carol: await dailyOf(carol.userId), dave: await dailyOf(dave.userId) }, daily);

    // The repaint, through the queue and the real worker, charged as a generation.
    const prompt = 'warm synth bridge at 100 bpm';
    const { jobId } = await editSong(api, {
      sourceUploadId: taken.uploadId,
      sourceDuration: taken.duration,
      task: 'repaint',
      start: 4,
      end: 6,
      prompt,
    });
    const done = await waitFor(`${jobId} finished`, async () => {
      const view = await statusOf(carol, jobId);
      return view.status === JOB_STATUS.completed || view.status === JOB_STATUS.failed ? view : undefined;
    });
    assert.ok(done.status === JOB_STATUS.completed, JSON.stringify(done));
    assert.equal(await dailyOf(carol.userId), daily.carol + 1);
    // Its status says where it came from: the upload, not a job; its name says what was done.
    assert.deepEqual(done.edit_of, { job_id: null, upload_id: up.upload_id, task: 'repaint', start: 4, end: 6, strength: null });
    await waitForMasters(carol, jobId);
    const listedEdit = jobListSchema.parse((await stack.app.request('/api/generate', { token: carol.token })).body).jobs[0];
    assert.deepEqual([listedEdit?.job_id, listedEdit?.title], [jobId, 'chord — take 2 (repainted 4–6 s)']);
    const listedUpload = (await listUploads(api)).uploads.find((listed) => listed.uploadId === taken.uploadId);
    assert.equal(listedUpload?.name, 'chord — take 2.wav');
    // Its owner plays it by the list's one-hour URL: the file exactly as uploaded (issue 51).
    assert.ok(listedUpload?.audioUrl !== null && listedUpload?.audioUrl !== undefined);
    const played = await fetch(listedUpload.audioUrl);
    assert.equal(played.status, 200);
    assert.deepEqual(new Uint8Array(await played.arrayBuffer()), wav);
    const link = downloadLinkSchema.parse((await stack.app.request(`/api/generate/${jobId}/download/wav`, { token: carol.token })).body);
    const editedWav = new Uint8Array(await (await fetch(link.url)).arrayBuffer());
    const [original, edited] = (await Promise.all([ffmpegDecode(wav, 'f32le'), ffmpegDecode(editedWav, 'f32le')])).map(
      (b) => new Float32Array(b.buffer, b.byteOffset, b.length / 4),
    );
    assert.equal(edited?.length, original?.length);
    const rate = 44100;
    const worst = (from: number, to: number) => {
      let max = 0;
      for (let i = from * rate * 2; i < to * rate * 2; i += 1) max = Math.max(max, Math.abs((edited?.[i] ?? 0) - (original?.[i] ?? 0)));
      return max;
    };
    // Kept: the uploaded samples, within the 16-bit rounding of the model's kept state (and the WAV's 24 bits).
    assert.ok(worst(0, 4) < 1e-4, `0-4 s kept (largest difference ${worst(0, 4)})`);
    assert.ok(worst(6, 10) < 1e-4, `6-10 s kept (largest difference ${worst(6, 10)})`);
    assert.ok(worst(4, 6) > 0.1, `4-6 s made anew (largest difference ${worst(4, 6)})`);

    // Its content credentials, read by c2pa-rs: the upload is the parentOf ingredient, by hash and format.
    const mp3 = await stack.objectStore.get(audioObjectKey(jobId.slice(4)));
    assert.ok(mp3.ok);
    const report = await readC2pa(mp3.value.bytes, stack.c2pa.caPem);
    assert.equal(report.validation_state, 'Trusted', JSON.stringify(report.validation_status));
    const manifest = report.manifests[report.active_manifest];
    assert.deepEqual(
      manifest?.ingredients?.map((i) => [i.relationship, i.title, i.format, i.active_manifest, i.metadata]),
      [['parentOf', up.upload_id, 'audio/wav', undefined, { 'com.songmint.uploadId': up.upload_id, 'com.songmint.sha256': up.sha256 }]],
    );
    const generation = manifest?.assertions.find((a) => a.label === 'com.songmint.generation')?.data as {
      editOf?: unknown;
      outsideAudio?: unknown;
    };
    assert.deepEqual(generation.editOf, {
      uploadId: up.upload_id,
      sha256: up.sha256,
      format: 'audio/wav',
      task: 'repaint',
      parameters: { start: 4, end: 6 },
    });
    // The upload's seconds it keeps verbatim: all but the repainted range.
    const keptOutside = {
      seconds: 8,
      spans: [
        [0, 4],
        [6, 10],
      ],
    };
    assert.deepEqual(generation.outsideAudio, keptOutside);
    const outsideRow = await stack.app.db.one<{ outside_material: boolean; outside_spans: unknown }>(
      'SELECT outside_material, outside_spans FROM generation_jobs WHERE id = $1',
      [jobId.slice(4)],
    );
    assert.deepEqual(outsideRow, { outside_material: true, outside_spans: keptOutside.spans });
    // 8 s of 10 is above the default MINT_MAX_OUTSIDE_SHARE (0.5): no mint signature.
    const tooMuch = await stack.app.request('/api/signature', {
      token: carol.token,
      body: { job_id: jobId, user_address: carol.address, metadata_uri: METADATA_URI },
    });
    assert.equal(tooMuch.status, 403, tooMuch.text);
    assertVariantAError(tooMuch.body, 'SIGN_008');
    // Its metadata's generation record names the upload too.
    const published = await stack.app.request('/api/metadata', { token: carol.token, body: { name: 'Bridge', audio_url: done.audio_url } });
    assert.equal(published.status, 201, published.text);
    const { cid } = metadataResponseSchema.parse(published.body);
    const document = await stack.app.db.one<{ document: { properties: { generation: { edit_of: unknown; outside_audio: unknown } } } }>(
      'SELECT document FROM song_metadata WHERE cid = $1',
      [cid],
    );
    assert.deepEqual(document.document.properties.generation.edit_of, {
      upload_id: up.upload_id,
      sha256: up.sha256,
      format: 'wav',
      task: 'repaint',
      start: 4,
      end: 6,
    });
    assert.deepEqual(document.document.properties.generation.outside_audio, keptOutside);

    // The list: the caller's live uploads, newest first, a page at a time, with the statement an upload confirms.
    // Two older ones, 2 and 3 hours old.
    const older = [randomUUID(), randomUUID()];
    for (const [index, id] of older.entries()) {
      await stack.app.db.none(
        `INSERT INTO uploads (id, user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement,
                              rights_confirmed_at, created_at, expires_at)
         VALUES ($1, $2, $3, 'wav', 44, $4, 44100, 1, 2.5, $5, now(), now() - make_interval(hours => $6), now() + interval '1 day')`,
        [id, carol.userId, `uploads/upl_${id}.wav`, `0x${'ab'.repeat(32)}`, RIGHTS_STATEMENT, 2 + index],
      );
    }
    // Neither someone else's nor an expired one is listed.
    await stack.app.db.none(
      `INSERT INTO uploads (user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement, rights_confirmed_at, expires_at)
       VALUES ($1, $2, 'wav', 44, $3, 44100, 1, 2, $4, now(), now() - interval '1 second'), ($5, $6, 'wav', 44, $3, 44100, 1, 2, $4, now(), now() + interval '1 day')`,
      [
        carol.userId,
        `uploads/expired-${randomUUID()}.wav`,
        `0x${'ab'.repeat(32)}`,
        RIGHTS_STATEMENT,
        dave.userId,
        `uploads/dave-${randomUUID()}.wav`,
      ],
    );
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listUploads(api, { limit: 2, ...(cursor === null ? {} : { cursor }) });
      assert.equal(page.rightsStatement, RIGHTS_STATEMENT, 'the statement, as recorded with each upload');
      listed.push(...page.uploads.map((u) => u.uploadId));
      cursor = page.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(listed, [taken.uploadId, ...older.map((id) => `upl_${id}`)]);
    const firstPage = await listUploads(api);
    const { audioUrl: listedUrl, ...asListed } = firstPage.uploads[0] ?? { audioUrl: null };
    assert.deepEqual(asListed, taken, 'each as the upload answered it, with a URL to play it by');
    assert.match(listedUrl ?? '', /^http.*uploads\/upl_.*\.wav\?/);
    // Bad queries in the error shape, nothing charged for them.
    const chargedBefore = await charged();
    // A job list's cursor is no upload list's.
    const aJobCursor = jobCursor.encode({ createdAt: '2026-01-01T00:00:00.000000Z', id: randomUUID() });
    for (const query of ['cursor=nonsense', `cursor=${aJobCursor}`, 'limit=0', 'limit=101', 'limit=two', 'sort=old']) {
      const res = await stack.app.request(`/api/uploads?${query}`, { token: carol.token });
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    assert.equal(await charged(), chargedBefore, 'a bad query is given back');

    // Delete: the owner's only; refused while an edit of it runs; the file goes, the edits made from it stay.
    const remove = (who: LoggedIn, id: string) => stack.app.request(`/api/uploads/${id}`, { token: who.token, method: 'DELETE' });
    for (const [who, id] of [
      [dave, up.upload_id],
      [carol, 'upl_not-a-uuid'],
      [carol, `upl_${randomUUID()}`],
      [carol, jobId],
    ] as const) {
      const res = await remove(who, id);
      assert.equal(res.status, 404, `${id}: ${res.text}`);
      assertVariantAError(res.body, 'NOT_FOUND');
    }
    const running = await stack.app.db.one<{ id: string }>(
      `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, edit, edit_upload_id)
       VALUES ($1, $2, 'queued edit', 10, 'free', $3, '{"task": "remix", "strength": 0.5}', $4) RETURNING id`,
      [carol.userId, carol.address, JOB_STATUS.queued, up.upload_id.slice(4)],
    );
    const busy = await remove(carol, up.upload_id);
    assert.equal(busy.status, 409, busy.text);
    assertVariantAError(busy.body, 'CONFLICT');
    assert.equal((busy.body as { error: { job_id?: string } }).error.job_id, `gen_${running.id}`);
    assert.equal((await stack.objectStore.head(record.object_key)).ok, true, 'nothing deleted while an edit runs');
    await stack.app.db.none(`UPDATE generation_jobs SET status = $2 WHERE id = $1`, [running.id, JOB_STATUS.cancelled]);
    await deleteUpload(api, up.upload_id);
    assert.equal((await stack.objectStore.head(record.object_key)).ok, false, 'the stored file is deleted');
    const gone = await stack.app.db.one<{ deleted: boolean }>('SELECT deleted_at IS NOT NULL AS deleted FROM uploads WHERE id = $1', [
      up.upload_id.slice(4),
    ]);
    assert.equal(gone.deleted, true, 'the record stays, marked, for the edits that name it');
    assert.deepEqual(
      (await listUploads(api)).uploads.map((u) => u.uploadId),
      older.map((id) => `upl_${id}`),
    );
    const again = await remove(carol, up.upload_id);
    assert.equal(again.status, 404, again.text);
    const editOfDeleted = await stack.app.request('/api/generate', {
      token: carol.token,
      body: { prompt: 'x', duration: 10, edit: { source_upload_id: up.upload_id, task: 'remix' } },
    });
    assert.equal(editOfDeleted.status, 410, editOfDeleted.text);
    assertVariantAError(editOfDeleted.body, 'EDIT_003');
    const edit = await statusOf(carol, jobId);
    assert.ok(edit.status === JOB_STATUS.completed, 'the edit made from it stays');
    assert.equal(edit.edit_of?.upload_id, up.upload_id);
  });

  it("a squatter's copy of another account's unsigned song (0.3 s trimmed, 6 dB quieter, 192 kbps), uploaded and extended, gets no mint signature by any route; the creator signs its song, re-uploads and extends it; the squatter's own songs and edits of unrelated uploads are signed", async (t) => {
    const [alice, bob] = [await stack.app.login(), await stack.app.login()];
    const dir = await makeTempDir('copies');
    t.after(() => dir.remove());
    const sign = (who: LoggedIn, jobId: string) =>
      stack.app.request('/api/signature', {
        token: who.token,
        body: { job_id: jobId, user_address: who.address, metadata_uri: METADATA_URI },
      });
    const bobApi = withSession(createSongmintApi({ baseUrl: stack.app.baseUrl }), { token: bob.token });
    const aliceApi = withSession(createSongmintApi({ baseUrl: stack.app.baseUrl }), { token: alice.token });
    const finished = (who: LoggedIn, jobId: string) =>
      waitFor(`${jobId} finished`, async () => {
        const view = await statusOf(who, jobId);
        return view.status === JOB_STATUS.completed || view.status === JOB_STATUS.failed ? view : undefined;
      });
    const registered = (jobId: string) =>
      stack.app.db.oneOrNone<{ user_id: string; made: boolean }>(
        `SELECT s.user_id, s.created_at = j.completed_at AS made
           FROM landmark_sounds s JOIN generation_jobs j ON j.id = s.job_id WHERE s.job_id = $1`,
        [jobId.slice(4)],
      );

    // Alice's song: its fingerprint on its row, in its content credentials (read by c2pa-rs), and
    // registered to her by the worker at its completion, unsigned.
    // 12 s: the copy is 11.7 s, extended by 2 s.
    const songId = await generate(alice, { prompt: 'bright synth pop hook in G', duration: 12, seed: 4401 });
    const song = await waitForStatus(alice, songId, JOB_STATUS.completed);
    assert.ok(song.status === JOB_STATUS.completed);
    assert.deepEqual(await registered(songId), { user_id: alice.userId, made: true }, 'registered as of its completion');
    const row = await stack.app.db.one<{ fingerprint: Buffer }>('SELECT fingerprint FROM generation_jobs WHERE id = $1', [songId.slice(4)]);
    const items = fingerprintFromBytes(row.fingerprint);
    assert.ok(Math.abs(items.length - (12 - 2.72) / ITEM_SECONDS) < 2, `${items.length} items for 12 s`);
    const record = fingerprintRecord(items);
    // Its public object (audio_url names it under the public audio/ prefix; the tests' store serves no public host).
    assert.equal(song.audio_url, stack.objectStore.publicUrl(audioObjectKey(songId.slice(4))));
    const served = await stack.objectStore.get(audioObjectKey(songId.slice(4)));
    assert.ok(served.ok);
    const mp3 = served.value.bytes;
    const credentials = await readC2pa(mp3, stack.c2pa.caPem);
    const assertion = credentials.manifests[credentials.active_manifest]?.assertions.find((a) => a.label === 'com.songmint.generation');
    assert.deepEqual((assertion?.data as { fingerprint?: unknown }).fingerprint, record);

    // Bob downloads it and makes his copy with ffmpeg. Uploaded before Alice signs anything: refused,
    // nothing kept, the charge given back.
    const original = join(dir.path, 'original.mp3');
    const copyPath = join(dir.path, 'copy.mp3');
    await writeFile(original, mp3);
    await runReference('ffmpeg', [
      ...['-v', 'error', '-i', original, '-af', 'atrim=start=0.3,asetpts=PTS-STARTPTS,volume=-6dB'],
      ...['-c:a', 'libmp3lame', '-b:a', '192k', copyPath],
    ]);
    const copy = new Uint8Array(await readFile(copyPath));
    const charged = async () =>
      (
        await stack.app.db.one<{ n: number }>(
          `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
          [`user:${bob.userId}`],
        )
      ).n;
    const kept = async () => ({
      rows: (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads WHERE user_id = $1', [bob.userId])).n,
      objects: ((await stack.objectStore.list('uploads/')) as { ok: true; value: unknown[] }).value.length,
      charged: await charged(),
    });
    const before = await kept();
    await assert.rejects(uploadAudio(bobApi, copy, { rightsConfirmed: true }), (error: unknown) => {
      assert.ok(error instanceof SongmintApiError, String(error));
      assert.deepEqual([error.code, error.status, error.earlierSong], ['UPLOAD_005', 409, { jobId: songId, tokenId: null }]);
      return true;
    });
    assert.deepEqual(await kept(), before, 'the refused upload left nothing and was not counted');

    // Even a copy that got in (as under issue 44's rule, which took it before Alice signed: stored
    // here as that upload was), extended by 2 s, registered to Bob at its completion: no route signs it.
    const earlyId = randomUUID();
    const earlyKey = `uploads/upl_${earlyId}.mp3`;
    assert.ok((await stack.objectStore.put(earlyKey, copy, { contentType: 'audio/mpeg', private: true })).ok);
    await stack.app.db.none(
      `INSERT INTO uploads (id, user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement,
                            rights_confirmed_at, expires_at)
       VALUES ($1, $2, $3, 'mp3', $4, $5, 44100, 2, 11.7, $6, now(), now() + interval '1 day')`,
      [earlyId, bob.userId, earlyKey, copy.length, `0x${createHash('sha256').update(copy).digest('hex')}`, RIGHTS_STATEMENT],
    );
    const extension = await editSong(bobApi, {
      sourceUploadId: `upl_${earlyId}`,
      sourceDuration: 11.7,
      task: 'extend',
      seconds: 2,
      prompt: 'outro in the same style',
    });
    const extended = await finished(bob, extension.jobId);
    assert.ok(extended.status === JOB_STATUS.completed, JSON.stringify(extended));
    assert.deepEqual(await registered(extension.jobId), { user_id: bob.userId, made: true });
    const squatterRoutes = async () => [
      await sign(bob, extension.jobId),
      await stack.app.request('/api/signature', { token: bob.token, body: { metadataURI: METADATA_URI, audioHash: extended.audio_hash } }),
      await stack.app.request('/v1/nft/mint', { token: bob.token, body: { job_id: extension.jobId, metadata_uri: METADATA_URI } }),
    ];
    const assertSquatterRefused = async (tokenId: string | null) => {
      for (const [i, refused] of (await squatterRoutes()).entries()) {
        assert.equal(refused.status, 409, `route ${i}: ${refused.text}`);
        const body = refused.body as { error: unknown; details?: { earlier_song?: unknown } };
        const error = typeof body.error === 'string' ? { code: body.error, earlier_song: body.details?.earlier_song } : body.error;
        assert.deepEqual(error && { code: (error as { code: string }).code, earlier: (error as { earlier_song?: unknown }).earlier_song }, {
          code: 'SIGN_007',
          earlier: { job_id: songId, token_id: tokenId },
        });
      }
    };
    await assertSquatterRefused(null);

    // Alice, later: her song is signed, her own re-upload of it is taken (Bob's copy holds her
    // earlier song, so it does not count against her), and her extension of it is signed.
    assert.equal((await sign(alice, songId)).status, 200, 'the creator signs its song');
    const reupload = await uploadAudio(aliceApi, mp3, { rightsConfirmed: true });
    const aliceEdit = await editSong(aliceApi, {
      sourceUploadId: reupload.uploadId,
      sourceDuration: reupload.duration,
      task: 'extend',
      seconds: 13,
      prompt: 'a bridge and a last chorus',
    });
    assert.equal((await finished(alice, aliceEdit.jobId)).status, JOB_STATUS.completed);
    const aliceSigned = await sign(alice, aliceEdit.jobId);
    assert.equal(aliceSigned.status, 200, aliceSigned.text);

    // Bob asks again, and once Alice's song is trashed and deleted for good: still refused (a
    // registration never stops counting).
    await assertSquatterRefused(null);
    await stack.app.db.none('UPDATE generation_jobs SET deleted_at = now() WHERE id = $1', [songId.slice(4)]);
    assert.equal(await markPurged(stack.app.db, songId.slice(4)), true);
    await assertSquatterRefused(null);
    const bobs = await stack.app.db.one<{ signatures: number }>(
      'SELECT count(*)::int AS signatures FROM mint_signatures WHERE user_id = $1',
      [bob.userId],
    );
    assert.deepEqual(bobs, { signatures: 0 });

    // Bob's own song, and an extension of unrelated audio he uploaded (5 s kept of 11 s: under
    // MINT_MAX_OUTSIDE_SHARE), are signed.
    const own = await generate(bob, { prompt: 'dark techno loop in D minor', duration: 5, seed: 4402 });
    await waitForStatus(bob, own, JOB_STATUS.completed);
    assert.equal((await sign(bob, own)).status, 200);
    const chordPath = join(dir.path, 'chord.wav');
    await runReference('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'aevalsrc=0.4*sin(2*PI*196*t)+0.2*sin(2*PI*247*t):d=5:s=44100'],
      ...['-c:a', 'pcm_s16le', chordPath],
    ]);
    const chord = await uploadAudio(bobApi, new Uint8Array(await readFile(chordPath)), { rightsConfirmed: true });
    const chordEdit = await editSong(bobApi, {
      sourceUploadId: chord.uploadId,
      sourceDuration: chord.duration,
      task: 'extend',
      seconds: 6,
      prompt: 'warm pad',
    });
    assert.equal((await finished(bob, chordEdit.jobId)).status, JOB_STATUS.completed);
    assert.equal((await sign(bob, chordEdit.jobId)).status, 200);

    // Alice's metadata carries the fingerprint in its generation record.
    await stack.app.db.none('UPDATE generation_jobs SET deleted_at = NULL, purged_at = NULL WHERE id = $1', [songId.slice(4)]);
    const published = await stack.app.request('/api/metadata', { token: alice.token, body: { name: 'Hook', audio_url: song.audio_url } });
    assert.equal(published.status, 201, published.text);
    const { cid } = metadataResponseSchema.parse(published.body);
    const document = await stack.app.db.one<{ document: { properties: { generation: { fingerprint: unknown } } } }>(
      'SELECT document FROM song_metadata WHERE cid = $1',
      [cid],
    );
    assert.deepEqual(document.document.properties.generation.fingerprint, record);
  });

  it('Variant B (`Prefer: wait`) answers lyrics and model too, and replays the same answer for the same Idempotency-Key', async () => {
    const carol = await stack.app.login();
    const key = randomUUID();
    const send = () =>
      stack.app.request('/api/generate', {
        token: carol.token,
        body: { prompt: 'short ambient drone', duration: 5 },
        headers: { prefer: 'wait', 'idempotency-key': key },
      });
    const first = await send();
    assert.equal(first.status, 200, first.text);
    const song = generateVariantBResultSchema.parse(first.body);
    assert.equal(song.lyrics, null, 'Variant B never asks for lyrics');
    assert.ok(song.model !== null && song.model.name.length > 0);
    // The synchronous answer names the credentials embedded in the file it points at.
    const songFile = /gen_([0-9a-f-]+)\.mp3$/.exec(song.audioUrl)?.[1];
    assert.ok(songFile !== undefined, song.audioUrl);
    const served = await stack.objectStore.get(audioObjectKey(songFile));
    assert.ok(served.ok);
    const embedded = await readC2pa(served.value.bytes, stack.c2pa.caPem);
    assert.equal(song.contentCredentials?.manifest, embedded.active_manifest);
    const again = await send();
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.headers.get('preference-applied'), 'wait');
    const jobs = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [carol.userId]);
    assert.equal(jobs.n, 1);
  });

  it('the library: search by name, prompt or lyrics, filters, paging, rename, trash and restore; each refusal in the error shape with its LIBRARY_ code', async () => {
    const erin = await stack.app.login();
    const hex = (bytes: number) =>
      `0x${randomUUID()
        .replaceAll('-', '')
        .repeat(5)
        .slice(0, bytes * 2)}`;
    /** A job of erin's written as it would stand (the worker never sees it: no queue message). */
    const song = async (prompt: string, fields: Record<string, unknown> = {}): Promise<string> => {
      const completed = (fields.status ?? JOB_STATUS.completed) === JOB_STATUS.completed;
      const row = await stack.app.db.one<{ id: string }>(
        `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, audio_url, audio_hash, audio_key, completed_at,
                                      used_lyrics, title, error_code, error_message, edit_source_id, edit)
         VALUES ($1, $2, $3, 10, 'free', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [
          erin.userId,
          erin.address,
          prompt,
          fields.status ?? JOB_STATUS.completed,
          completed ? `http://storage.test/${prompt}.mp3` : null,
          completed ? hex(32) : null,
          completed ? `audio/gen_${randomUUID()}.mp3` : null,
          completed ? new Date() : null,
          fields.used_lyrics ?? null,
          fields.title ?? null,
          fields.status === JOB_STATUS.failed ? 'GEN_005' : null,
          fields.status === JOB_STATUS.failed ? 'model error' : null,
          fields.edit_source_id ?? null,
          fields.edit === undefined ? null : JSON.stringify(fields.edit),
        ],
      );
      return `gen_${row.id}`;
    };
    const rain = await song('rainy lo-fi piano', { used_lyrics: '[verse]\nneon umbrellas' });
    const desert = await song('desert synthwave');
    const ocean = await song('ocean ambient');
    const broken = await song('broken drums', { status: JOB_STATUS.failed });
    const repaint = await song('brighter bridge', {
      title: 'rainy lo-fi piano (repainted 4–6 s)',
      edit_source_id: rain.slice(4),
      edit: { task: 'repaint', start: 4, end: 6 },
    });
    const cooking = await song('still cooking', { status: JOB_STATUS.queued });
    // `ocean` minted as "Moon Harbour": its signature claimed by the chain watcher, its metadata indexed.
    const mint = async (jobId: string, name: string, tokenId: number) => {
      const audio = await stack.app.db.one<{ audio_hash: string }>('SELECT audio_hash FROM generation_jobs WHERE id = $1', [
        jobId.slice(4),
      ]);
      const cid = `bafkrei${randomUUID().replaceAll('-', '')}`;
      await stack.app.db.none(
        `INSERT INTO song_metadata (user_id, job_id, cid, metadata_uri, metadata_hash, document) VALUES ($1, $2, $3, $4, $5, $6)`,
        [erin.userId, jobId.slice(4), cid, `ipfs://${cid}`, hex(32), JSON.stringify({ name })],
      );
      await stack.app.db.none(
        `INSERT INTO mint_signatures (job_id, user_id, minter, metadata_uri, audio_hash, signature, signer_address, issued_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $3, now(), now() + interval '1 hour')`,
        [jobId.slice(4), erin.userId, erin.address.toLowerCase(), `ipfs://${cid}`, audio.audio_hash, hex(65)],
      );
      return recordSongMinted(
        stack.app.db,
        {
          tokenId: BigInt(tokenId),
          minter: erin.address as Hex,
          audioHash: audio.audio_hash as Hex,
          metadataUri: `ipfs://${cid}`,
          txHash: hex(32) as Hex,
          blockNumber: 1n,
        },
        new Date(),
      );
    };
    assert.equal(await mint(ocean, 'Moon Harbour', 900_001), 'recorded');

    const list = async (query: string) => {
      const res = await stack.app.request(`/api/generate?${query}`, { token: erin.token });
      assert.equal(res.status, 200, res.text);
      return jobListSchema.parse(res.body);
    };
    const ids = async (query: string) => (await list(query)).jobs.map((job) => job.job_id);
    const everySong = [cooking, repaint, broken, ocean, desert, rain];
    assert.deepEqual(await ids(''), everySong);
    assert.equal((await list('')).total, 6);
    // Each view of the library.
    assert.deepEqual(await ids('filter=minted'), [ocean]);
    assert.deepEqual(await ids('filter=unminted'), [repaint, desert, rain]);
    assert.deepEqual(await ids('filter=edits'), [repaint]);
    assert.deepEqual(await ids('filter=failed'), [broken]);
    assert.deepEqual(await ids('filter=trash'), []);
    // Search, case-insensitive, in the lyrics, the minted name, the prompt and the title; with a view.
    assert.deepEqual(await ids('q=UMBRELLA'), [rain]);
    assert.deepEqual(await ids('q=moon%20harbour'), [ocean]);
    assert.deepEqual(await ids('q=Synthwave'), [desert]);
    assert.deepEqual(await ids('q=rainy'), [repaint, rain]);
    assert.deepEqual(await ids('q=rainy&filter=edits'), [repaint]);
    assert.deepEqual(await ids('q=%25'), [], 'a % is a character, not a wildcard');
    assert.equal((await list('')).jobs.find((job) => job.job_id === ocean)?.title, 'Moon Harbour', 'a minted song goes by its name');
    // Paging inside a search: 2 of 2, then the rest.
    const first = await list('q=r&limit=2');
    assert.deepEqual([first.jobs.length, first.total], [2, 5]);
    const rest = await list(`q=r&limit=2&cursor=${first.next_cursor ?? ''}`);
    assert.deepEqual(
      [first, rest].map((page) => page.jobs.map((job) => job.job_id)),
      [
        [repaint, broken],
        [ocean, desert],
      ],
    );
    for (const bad of ['filter=deleted', `q=${'x'.repeat(201)}`, 'q=a%00b']) {
      const refused = await stack.app.request(`/api/generate?${bad}`, { token: erin.token });
      assert.equal(refused.status, 400, bad);
      assertVariantAError(refused.body, 'VALIDATION_ERROR');
    }

    const call = (method: string, path: string, body?: unknown, who: LoggedIn = erin) =>
      stack.app.request(path, { method, token: who.token, ...(body === undefined ? {} : { body }) });
    const refusedWith = async (answer: Promise<{ status: number; text: string; body: unknown }>, status: number, code: string) => {
      const res = await answer;
      assert.equal(res.status, status, res.text);
      assertVariantAError(res.body, code);
    };
    // Rename: an unminted song; the title names its downloads and is found by search.
    const renamed = await call('PATCH', `/api/generate/${desert}`, { title: '  Dune Drive ' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(jobSummarySchema.parse(renamed.body).title, 'Dune Drive');
    assert.deepEqual(await ids('q=dune'), [desert]);
    await refusedWith(call('PATCH', `/api/generate/${ocean}`, { title: 'Another name' }), 409, 'LIBRARY_001');
    await refusedWith(call('PATCH', `/api/generate/${desert}`, { title: '   ' }), 400, 'VALIDATION_ERROR');
    await refusedWith(call('PATCH', `/api/generate/${desert}`, { title: 'x'.repeat(201) }), 400, 'VALIDATION_ERROR');
    await refusedWith(call('PATCH', `/api/generate/${desert}`, { title: 'Dune\u202EevirD' }), 400, 'VALIDATION_ERROR');
    await refusedWith(call('PATCH', `/api/generate/${desert}`, { name: 'Dune' }), 400, 'VALIDATION_ERROR');
    const stranger = await stack.app.login();
    await refusedWith(call('PATCH', `/api/generate/${desert}`, { title: 'Mine now' }, stranger), 404, 'NOT_FOUND');
    await refusedWith(call('DELETE', `/api/generate/${desert}`, undefined, stranger), 404, 'NOT_FOUND');
    await refusedWith(call('PATCH', '/api/generate/gen_not-a-job', { title: 'x' }), 404, 'NOT_FOUND');

    // Delete: to the trash, not a minted song, not one being made; again answers the same.
    await refusedWith(call('DELETE', `/api/generate/${ocean}`), 409, 'LIBRARY_001');
    await refusedWith(call('DELETE', `/api/generate/${cooking}`), 409, 'LIBRARY_004');
    const trashed = await call('DELETE', `/api/generate/${desert}`);
    assert.equal(trashed.status, 200, trashed.text);
    const deletedAt = jobSummarySchema.parse(trashed.body).deleted_at;
    assert.ok(deletedAt !== null);
    assert.equal(jobSummarySchema.parse((await call('DELETE', `/api/generate/${desert}`)).body).deleted_at, deletedAt, 'idempotent');
    assert.deepEqual(await ids(''), [cooking, repaint, broken, ocean, rain]);
    assert.deepEqual(await ids('filter=trash'), [desert]);
    assert.deepEqual(await ids('filter=trash&q=dune'), [desert]);
    // In the trash: no rename, no download, no mint signature, no edit until restored.
    await refusedWith(call('PATCH', `/api/generate/${desert}`, { title: 'x' }), 409, 'LIBRARY_002');
    await refusedWith(call('GET', `/api/generate/${desert}/download/mp3`), 409, 'LIBRARY_002');
    await refusedWith(
      call('POST', '/api/signature', { job_id: desert, user_address: erin.address, metadata_uri: METADATA_URI }),
      409,
      'LIBRARY_002',
    );
    await refusedWith(
      call('POST', '/api/generate', { prompt: 'more', duration: 20, edit: { source_job_id: desert, task: 'extend' } }),
      409,
      'LIBRARY_002',
    );
    const restored = await call('POST', `/api/generate/${desert}/restore`);
    assert.equal(restored.status, 200, restored.text);
    assert.equal(jobSummarySchema.parse(restored.body).deleted_at, null);
    assert.equal((await call('POST', `/api/generate/${desert}/restore`)).status, 200, 'restoring a song in the library: the same answer');
    assert.deepEqual(await ids(''), everySong);

    // Retention deletes a trashed song's audio 30 days after it was trashed (or 90 after it was
    // made); then it can no longer be restored.
    assert.equal((await call('DELETE', `/api/generate/${broken}`)).status, 200, 'a failed song goes to the trash too');
    assert.equal((await call('DELETE', `/api/generate/${rain}`)).status, 200);
    await stack.app.db.none(`UPDATE generation_jobs SET deleted_at = now() - interval '31 days' WHERE id = $1`, [rain.slice(4)]);
    const expired = (await findExpiredAudio(stack.app.db, 10_000)).map((row) => `gen_${row.id}`);
    assert.ok(expired.includes(rain), 'trashed 31 days ago: due');
    assert.ok(!expired.includes(desert) && !expired.includes(repaint), 'in the library, made today: not due');
    await stack.app.db.none('UPDATE generation_jobs SET purged_at = now() WHERE id = $1', [rain.slice(4)]);
    await refusedWith(call('POST', `/api/generate/${rain}/restore`), 410, 'LIBRARY_003');
    assert.equal((await call('POST', `/api/generate/${broken}/restore`)).status, 200);

    // A song minted with a signature issued before it was trashed leaves the trash (minted songs stay).
    assert.equal((await call('DELETE', `/api/generate/${repaint}`)).status, 200);
    assert.equal(await mint(repaint, 'Bridge', 900_002), 'recorded');
    const bridge = (await list('filter=minted')).jobs.find((job) => job.job_id === repaint);
    assert.deepEqual([bridge?.deleted_at, bridge?.title, bridge?.nft_token_id], [null, 'Bridge', '900002']);
    // The database keeps the rule too.
    await assert.rejects(
      stack.app.db.none('UPDATE generation_jobs SET deleted_at = now() WHERE id = $1', [ocean.slice(4)]),
      /generation_jobs_minted_not_deleted/,
    );
  });

  it('the profile says whether the live workers’ model sings: the built-in model does not (its heartbeat says so)', async () => {
    const frank = await stack.app.login();
    const profile = profileSchema.parse((await stack.app.request('/v1/user/profile', { token: frank.token })).body);
    assert.equal(profile.models.sings, false);
    assert.deepEqual(
      profile.models.live.map((model) => [model.name, model.sings, model.workers]),
      [['songmint-builtin-procedural', false, 1]],
    );
  });

  it('lists the caller’s jobs newest first, a page at a time, with an opaque cursor', async () => {
    const dave = await stack.app.login();
    const ids: string[] = [];
    // Written directly as failed jobs (the worker never picks them up), a second apart.
    for (let index = 0; index < 5; index += 1) {
      const row = await stack.app.db.one<{ id: string }>(
        `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, error_code, error_message, created_at)
         VALUES ($1, $2, $3, 10, 'free', $4, 'GEN_005', 'model error', now() - make_interval(secs => $5)) RETURNING id`,
        [dave.userId, dave.address, `song ${index}`, JOB_STATUS.failed, 10 - index],
      );
      ids.push(`gen_${row.id}`);
    }
    const newestFirst = [...ids].reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const res = await stack.app.request(`/api/generate${query}`, { token: dave.token });
      assert.equal(res.status, 200, res.text);
      const page = jobListSchema.parse(res.body);
      assert.ok(page.jobs.length <= 2);
      seen.push(...page.jobs.map((job) => job.job_id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null);
    assert.deepEqual(seen, newestFirst);
    assert.equal(pages, 3);

    const all = jobListSchema.parse((await stack.app.request('/api/generate', { token: dave.token })).body);
    assert.deepEqual(
      all.jobs.map((job) => job.job_id),
      newestFirst,
      'default limit 20 holds them all',
    );
    assert.equal(all.next_cursor, null);
    assert.deepEqual(all.jobs[0], {
      job_id: newestFirst[0],
      status: JOB_STATUS.failed,
      progress: 0,
      prompt: 'song 4',
      duration: 10,
      created_at: all.jobs[0]?.created_at,
      audio_url: null,
      audio_hash: null,
      error_code: 'GEN_005',
      edit_of: null,
      title: null,
      nft_token_id: null,
      deleted_at: null,
    });
    assert.equal(all.total, 5);
    const stranger = await stack.app.login();
    assert.deepEqual(jobListSchema.parse((await stack.app.request('/api/generate', { token: stranger.token })).body), {
      jobs: [],
      next_cursor: null,
      total: 0,
    });
  });
});
