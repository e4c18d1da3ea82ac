import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { UPLOAD_RETENTION_DAYS, uploadObjectKey } from '../../core/src/uploads.ts';
import { LOSSLESS_FORMATS, audioObjectKey, losslessObjectKey } from '../../core/src/generation-queue.ts';
import { queuePreview } from '../../core/src/jobs/preview-state.ts';
import { createPreview, previewExpiresAt, previewLink } from '../../core/src/previews.ts';
import { RETENTION_LOCK_KEY, sweepRetention } from '../../inference/src/retention/sweep.ts';
import { contentHash } from '../../core/src/content-hash.ts';
import type { Stack } from './helpers/stack.ts';
import { jobRow, startStack } from './helpers/stack.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';

describe('retention: unminted audio after 90 days, previews after 24 hours', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.stop();
  });

  /** A completed job with a published MP3 and its private WAV and FLAC, completed `daysAgo` days ago. */
  async function publishedJob(daysAgo: number, tokenId: number | null): Promise<{ id: string; key: string; losslessKeys: string[] }> {
    const id = await stack.enqueue({ prompt: `song ${daysAgo}` });
    const key = audioObjectKey(id);
    const bytes = randomBytes(64);
    assert.ok((await stack.store.put(key, bytes, { contentType: 'audio/mpeg' })).ok);
    const losslessKeys = LOSSLESS_FORMATS.map((format) => losslessObjectKey(id, format));
    for (const losslessKey of losslessKeys)
      assert.ok((await stack.store.put(losslessKey, randomBytes(96), { contentType: 'audio/flac', private: true })).ok);
    await stack.db.none(
      `UPDATE generation_jobs SET status = '${JOB_STATUS.completed}', audio_key = $2, audio_url = $3, audio_hash = $4, started_at = now() - make_interval(days => $5),
              completed_at = now() - make_interval(days => $5), nft_token_id = $6, lossless = $7 WHERE id = $1`,
      [
        id,
        key,
        stack.store.publicUrl(key),
        contentHash(bytes),
        daysAgo,
        tokenId,
        { sample_rate: 44100, bits_per_sample: 24, channels: 2, wav_bytes: 96, flac_bytes: 96 },
      ],
    );
    return { id, key, losslessKeys };
  }
  const exists = async (key: string): Promise<boolean> => (await stack.store.head(key)).ok;
  const sweep = () => sweepRetention(stack.db, stack.store, { abandonedAfterSeconds: 720 });

  it('deletes unminted audio (MP3, WAV, FLAC) older than 90 days, keeps minted and recent audio, and marks purged_at', async () => {
    const old = await publishedJob(91, null);
    const minted = await publishedJob(120, 1);
    const recent = await publishedJob(10, null);
    const report = await sweep();
    assert.equal(report.ran, true);
    assert.equal(report.audioPurged, 1);
    assert.deepEqual(report.errors, []);
    assert.deepEqual([await exists(old.key), await exists(minted.key), await exists(recent.key)], [false, true, true]);
    for (const [job, kept] of [
      [old, false],
      [minted, true],
      [recent, true],
    ] as const) {
      for (const losslessKey of job.losslessKeys) assert.equal(await exists(losslessKey), kept, losslessKey);
    }
    const purged = await stack.db.one<{ purged_at: Date | null; audio_hash: string | null; status: string }>(
      'SELECT purged_at, audio_hash, status FROM generation_jobs WHERE id = $1',
      [old.id],
    );
    assert.ok(purged.purged_at !== null);
    assert.ok(purged.audio_hash !== null, 'the hash is kept as the record');
    assert.equal(purged.status, JOB_STATUS.completed);
    assert.equal((await sweep()).audioPurged, 0, 'a second sweep finds nothing');
  });

  it('deletes uploads past their expiry (30 days after the upload) and keeps their record; keeps younger ones', async () => {
    const user = await stack.db.one<{ id: string }>('INSERT INTO users (wallet_address) VALUES ($1) RETURNING id', [
      `0x${randomBytes(20).toString('hex')}`,
    ]);
    const upload = async (daysAgo: number): Promise<{ id: string; key: string }> => {
      const id = randomUUID();
      const key = uploadObjectKey(id, 'wav');
      assert.ok((await stack.store.put(key, randomBytes(64), { contentType: 'audio/wav', private: true })).ok);
      await stack.db.none(
        `INSERT INTO uploads (id, user_id, object_key, format, bytes, sha256, sample_rate, channels, duration, rights_statement,
                              rights_confirmed_at, created_at, expires_at)
         VALUES ($1, $2, $3, 'wav', 64, $4, 44100, 2, 10, 'v1', now() - make_interval(days => $5), now() - make_interval(days => $5),
                 now() - make_interval(days => $5) + make_interval(days => $6))`,
        [id, user.id, key, `0x${'ab'.repeat(32)}`, daysAgo, UPLOAD_RETENTION_DAYS],
      );
      return { id, key };
    };
    const old = await upload(UPLOAD_RETENTION_DAYS + 1);
    const young = await upload(UPLOAD_RETENTION_DAYS - 1);
    const report = await sweep();
    assert.equal(report.uploadsDeleted, 1);
    assert.deepEqual(report.errors, []);
    assert.deepEqual([await exists(old.key), await exists(young.key)], [false, true]);
    const rows = await stack.db.map(
      'SELECT id, deleted_at IS NOT NULL AS deleted FROM uploads WHERE id = ANY($1::uuid[]) ORDER BY created_at',
      [[old.id, young.id]],
      (row: { id: string; deleted: boolean }) => [row.id, row.deleted],
    );
    assert.deepEqual(rows, [
      [old.id, true],
      [young.id, false],
    ]);
    assert.equal((await sweep()).uploadsDeleted, 0, 'a second sweep finds nothing');
  });

  it('stores previews privately behind one-hour signed URLs and deletes them after 24 hours', async () => {
    const mp3 = randomBytes(2048);
    const created = await createPreview(stack.db, stack.store, 'session_abc123', mp3);
    assert.ok(created.ok);
    assert.equal(created.value.key, 'preview/session_abc123.mp3');
    assert.equal(new URL(created.value.url).searchParams.get('X-Amz-Expires'), '3600');
    const head = await stack.store.head(created.value.key);
    assert.ok(head.ok && head.value.cacheControl === 'private, no-store');
    const fetched = await fetch(created.value.url);
    assert.equal(fetched.status, 200);
    assert.ok(Buffer.from(await fetched.arrayBuffer()).equals(mp3));
    assert.ok((await previewLink(stack.db, stack.store, 'session_abc123')).ok);
    assert.deepEqual(
      await createPreview(stack.db, stack.store, '../x', mp3).then((r) => (r.ok ? 'ok' : r.error.code)),
      'PREVIEW_INVALID_SESSION',
    );

    const fresh = await createPreview(stack.db, stack.store, 'session_fresh1', mp3);
    assert.ok(fresh.ok);
    await stack.db.none(`UPDATE audio_previews SET created_at = now() - interval '25 hours' WHERE session_id = 'session_abc123'`);
    const report = await sweep();
    assert.equal(report.previewsDeleted, 1);
    assert.equal(await exists('preview/session_abc123.mp3'), false);
    assert.equal(await exists('preview/session_fresh1.mp3'), true);
    const gone = await previewLink(stack.db, stack.store, 'session_abc123');
    assert.equal(gone.ok ? 'ok' : gone.error.code, 'PREVIEW_NOT_FOUND');
  });

  it('a second preview of a session replaces the first; a late upload of a dead attempt cannot replace it', async () => {
    const first = randomBytes(1024);
    const second = randomBytes(1536);
    assert.ok((await createPreview(stack.db, stack.store, 'session_again1', first)).ok);
    const again = await createPreview(stack.db, stack.store, 'session_again1', second);
    assert.ok(again.ok);
    assert.equal(again.value.audioHash, contentHash(second));
    const late = await stack.store.put(again.value.key, first, { contentType: 'audio/mpeg', private: true, ifAbsent: true });
    assert.equal(late.ok ? 'stored' : late.error.code, 'exists');
    const stored = await stack.store.sha256(again.value.key);
    assert.ok(stored.ok);
    assert.equal(`0x${stored.value.hex}`, again.value.audioHash, 'the stored bytes are the ones whose hash the client was given');
    assert.equal(stored.value.source, 'store_checksum', 'the upload carried its SHA-256');
    const link = await previewLink(stack.db, stack.store, 'session_again1');
    assert.equal(link.ok ? link.value.audioHash : link.error.code, contentHash(second));
  });

  it('a preview expires 24 hours after its request, whenever its clip was stored: status, links and sweep agree', async () => {
    const owner = await stack.db.one<{ id: string }>('INSERT INTO users (wallet_address, tier) VALUES ($1, $2) RETURNING id', [
      `0x${randomBytes(20).toString('hex')}`,
      'pro',
    ]);
    const request = (sessionId: string) =>
      stack.db.tx((tx) =>
        queuePreview(tx, stack.boss, {
          sessionId,
          userId: owner.id,
          prompt: 'a preview',
          duration: 5,
          steps: 27,
          withLyrics: false,
          tier: 'pro',
        }),
      );
    // Requested a day and a minute ago, its clip stored just now: expired.
    await request('session_requested_long_ago');
    await stack.db.none(
      `UPDATE preview_jobs SET created_at = now() - interval '24 hours 1 minute' WHERE session_id = 'session_requested_long_ago'`,
    );
    assert.ok((await createPreview(stack.db, stack.store, 'session_requested_long_ago', randomBytes(512))).ok);
    // Requested 23 hours ago, its clip row claiming an older store time: still live.
    await request('session_requested_lately');
    await stack.db.none(`UPDATE preview_jobs SET created_at = now() - interval '23 hours' WHERE session_id = 'session_requested_lately'`);
    assert.ok((await createPreview(stack.db, stack.store, 'session_requested_lately', randomBytes(512))).ok);
    await stack.db.none(`UPDATE audio_previews SET created_at = now() - interval '25 hours' WHERE session_id = 'session_requested_lately'`);

    const requestedAt = async (sessionId: string) =>
      (await stack.db.one<{ created_at: Date }>('SELECT created_at FROM preview_jobs WHERE session_id = $1', [sessionId])).created_at;
    const now = Date.now();
    assert.ok(previewExpiresAt(await requestedAt('session_requested_long_ago')).getTime() <= now, 'the status route calls it expired');
    assert.ok(previewExpiresAt(await requestedAt('session_requested_lately')).getTime() > now);
    const links = await Promise.all(
      ['session_requested_long_ago', 'session_requested_lately'].map((id) => previewLink(stack.db, stack.store, id)),
    );
    assert.deepEqual(
      links.map((link) => (link.ok ? 'ok' : link.error.code)),
      ['PREVIEW_NOT_FOUND', 'ok'],
    );
    await sweep();
    assert.deepEqual(
      [await exists('preview/session_requested_long_ago.mp3'), await exists('preview/session_requested_lately.mp3')],
      [false, true],
    );
  });

  it('fails a job abandoned on its last attempt (worker gone) with GEN_005', async () => {
    const id = await stack.enqueue({ prompt: 'abandoned' });
    const live = await stack.enqueue({ prompt: 'still retrying' });
    await stack.db.none(
      `UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', attempts = 3, started_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    await stack.db.none(
      `UPDATE generation_jobs SET status = '${JOB_STATUS.processing}', attempts = 2, started_at = now() - interval '1 hour' WHERE id = $1`,
      [live],
    );
    assert.equal((await sweep()).abandonedFailed, 1);
    const row = await jobRow(stack.db, id);
    assert.deepEqual([row.status, row.error_code], [JOB_STATUS.failed, 'GEN_005']);
    assert.equal((await jobRow(stack.db, live)).status, JOB_STATUS.processing, 'pg-boss still owns retries left');
  });

  it('runs one sweeper at a time (advisory lock)', async () => {
    const report = await stack.db.task(async (t) => {
      await t.one('SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
      try {
        return await sweep();
      } finally {
        await t.one('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
      }
    });
    assert.equal(report.ran, false);
    assert.equal((await sweep()).ran, true);
  });
});
