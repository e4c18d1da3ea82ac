/**
 * Storage quotas (issue 49 item 4, core/src/storage-quota.ts): every byte an upload stores counts
 * (a WAV's LIST chunk too), a request that would pass the quota is refused STORAGE_001 before it
 * is stored or charged, the counter is exact under concurrent claims and goes back down when a
 * delete or retention removes the object.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { STORAGE_QUOTA_BYTES, claimStorage, releaseStorage, songBytesEstimate } from '../../core/src/storage-quota.ts';
import { sweepRetention } from '../../inference/src/retention/sweep.ts';
import { seededRandom } from '../../inference/src/model/seed.ts';
import { wav16 } from '../support/audio-copies.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';

/** `seconds` of stereo noise at 48 kHz as a 16-bit WAV with a LIST chunk of `listBytes` before its data. */
function wavWithList(seconds: number, listBytes: number, seed: number): Uint8Array {
  const random = seededRandom(BigInt(seed), 'storage-quota-test');
  const frames = Math.round(seconds * 48_000);
  const channel = () => Float32Array.from({ length: frames }, () => random.next() * 0.6 - 0.3);
  const plain = wav16([channel(), channel()], 48_000);
  const list = Buffer.alloc(8 + listBytes);
  list.write('LIST', 0);
  list.writeUInt32LE(listBytes, 4);
  list.write('INFO', 8);
  const out = Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
  out.writeUInt32LE(out.length - 8, 4);
  return new Uint8Array(out);
}

describe('storage quota: uploads, songs, covers count every byte against the tier quota (real oracle, PostgreSQL, S3)', () => {
  let stack: StorageStack;
  before(async () => {
    stack = await startStorageStack();
    await stack.app.addWorkerHeartbeat();
  });
  after(async () => {
    await stack.stop();
  });

  const stored = async (userId: string) => {
    const row = await stack.app.db.one<{ counter: string; objects: string }>(
      `SELECT u.stored_bytes AS counter, (SELECT coalesce(sum(bytes), 0) FROM stored_objects WHERE user_id = u.id) AS objects
         FROM users u WHERE u.id = $1`,
      [userId],
    );
    assert.equal(row.counter, row.objects, 'the counter is the sum of the stored objects');
    return Number(row.counter);
  };
  const upload = (who: LoggedIn, bytes: Uint8Array) =>
    fetch(`${stack.app.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'Songmint-Rights-Confirmed': 'true' },
      body: bytes,
    });
  const generalCharged = async (who: LoggedIn) =>
    (
      await stack.app.db.one<{ n: number }>(
        `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
        [`user:${who.userId}`],
      )
    ).n;

  it('a WAV costs its LIST chunk; past the quota: 409 STORAGE_001 before storing or charging; delete and retention give it back', async () => {
    const dana = await stack.app.login();
    const quota = STORAGE_QUOTA_BYTES.free;
    // What dana stores already, as if her earlier files filled all but 4 MiB.
    const filler = `test/filler-${randomUUID()}`;
    assert.deepEqual(await claimStorage(stack.app.db, dana.userId, filler, quota - 4 * 1024 * 1024), { ok: true });

    const small = wavWithList(1.5, 64 * 1024, 1);
    const taken = await upload(dana, small);
    assert.equal(taken.status, 201, await taken.clone().text());
    const { upload_id: uploadId, bytes } = (await taken.json()) as { upload_id: string; bytes: number };
    assert.equal(bytes, small.length);
    assert.equal(await stored(dana.userId), quota - 4 * 1024 * 1024 + small.length, 'every byte of the file, its LIST chunk included');

    const profile = async () => {
      const res = await stack.app.request('/v1/user/profile', { token: dana.token });
      assert.equal(res.status, 200, res.text);
      return res.body as {
        daily_generations: number;
        storage: { used_bytes: number; pending_bytes: number; quota_bytes: number; remaining_bytes: number };
      };
    };
    const shown = await profile();
    assert.deepEqual(shown.storage, {
      used_bytes: quota - 4 * 1024 * 1024 + small.length,
      pending_bytes: 0,
      quota_bytes: quota,
      remaining_bytes: 4 * 1024 * 1024 - small.length,
    });

    // 3.8 MiB of metadata and 1.5 s of audio: more than the 4 MiB less the small upload left.
    const uploadsBefore = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads WHERE user_id = $1', [dana.userId]);
    const chargedBefore = await generalCharged(dana);
    const big = wavWithList(1.5, 3.8 * 1024 * 1024, 2);
    const refused = await upload(dana, big);
    assert.equal(refused.status, 409);
    const refusal = (await refused.json()) as unknown;
    assertVariantAError(refusal, 'STORAGE_001');
    assert.match(
      (refusal as { error: { message: string } }).error.message,
      /Storage quota exceeded: this upload needs 4\.\d\d MiB, 3\.\d\d MiB of your 2\.00 GiB is free/,
    );
    assert.deepEqual(
      await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads WHERE user_id = $1', [dana.userId]),
      uploadsBefore,
      'nothing stored',
    );
    assert.equal(await stored(dana.userId), quota - 4 * 1024 * 1024 + small.length, 'nothing counted');
    assert.equal(await generalCharged(dana), chargedBefore, 'the hourly charge given back');

    // A song's files (MP3, masters, latents: about 7 MB for 10 s at the estimate) do not fit either.
    const song = await stack.app.request('/api/generate', { token: dana.token, body: { prompt: 'a song', duration: 10 } });
    assert.equal(song.status, 409, song.text);
    assertVariantAError(song.body, 'STORAGE_001');
    assert.equal((await profile()).daily_generations, shown.daily_generations, 'no daily generation charged');
    assert.equal(
      (await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE user_id = $1', [dana.userId])).n,
      0,
    );

    // Deleting the upload gives its bytes back, once.
    const deleted = await stack.app.request(`/api/uploads/${uploadId}`, { method: 'DELETE', token: dana.token });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(await stored(dana.userId), quota - 4 * 1024 * 1024);
    await releaseStorage(stack.app.db, [filler]);
    assert.equal(await stored(dana.userId), 0);

    // With room, a song is admitted and holds its estimate until a worker stores its files.
    const admitted = await stack.app.request('/api/generate', { token: dana.token, body: { prompt: 'a song', duration: 10 } });
    assert.equal(admitted.status, 202, admitted.text);
    assert.equal((await profile()).storage.pending_bytes, songBytesEstimate(10));

    // Retention deleting an expired upload gives its bytes back.
    const again = await upload(dana, small);
    assert.equal(again.status, 201);
    assert.equal(await stored(dana.userId), small.length);
    await stack.app.db.none(`UPDATE uploads SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [dana.userId]);
    const report = await sweepRetention(stack.app.db, stack.objectStore, { abandonedAfterSeconds: 720 });
    assert.equal(report.uploadsDeleted, 1, JSON.stringify(report));
    assert.equal(await stored(dana.userId), 0);
  });

  it('claims are exact across concurrent requests: 40 at once for a quota nine fit, nine taken; releases count once', async () => {
    const erin = await stack.app.login();
    const size = Math.floor(STORAGE_QUOTA_BYTES.free / 9);
    const keys = Array.from({ length: 40 }, (_, i) => `test/race-${i}-${randomUUID()}`);
    const claims = await Promise.all(keys.map((key) => claimStorage(stack.app.db, erin.userId, key, size)));
    assert.equal(claims.filter((claim) => claim.ok).length, 9);
    assert.equal(await stored(erin.userId), 9 * size);
    await Promise.all([releaseStorage(stack.app.db, keys), releaseStorage(stack.app.db, keys), releaseStorage(stack.app.db, keys)]);
    assert.equal(await stored(erin.userId), 0);
  });
});
