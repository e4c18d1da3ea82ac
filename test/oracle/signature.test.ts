import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recoverMessageAddress } from 'viem';
import type { Address, Hex } from 'viem';
import { mintMessageHash } from '../../oracle/src/chain/mint-signer.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { signatureResponseSchema, signatureResponseVariantBSchema } from '../../oracle/src/http/routes/signature.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';
import { landmarksColumn, syntheticPeaks, withCopiedPeaks } from './helpers/fingerprints.ts';
import { registerSound } from '../../core/src/fingerprint/registry.ts';
import type { Peak } from '../../core/src/fingerprint/spectral-peaks.ts';
import { randomBytes } from 'node:crypto';
import { variantAErrorSchema } from '../../oracle/src/http/schemas.ts';

const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';

describe('POST /api/signature', () => {
  let stack: StorageStack;
  let alice: LoggedIn;
  let bob: LoggedIn;

  before(async () => {
    stack = await startStorageStack();
    alice = await stack.app.login();
    bob = await stack.app.login();
  });
  after(() => stack.stop());

  const sign = (who: LoggedIn, body: unknown) => stack.app.request('/api/signature', { token: who.token, body });

  it('signs a completed job of the caller with the platform key, for the contract message', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const before = Date.now();
    const response = await sign(alice, { job_id: job.publicId, user_address: alice.account.address, metadata_uri: METADATA_URI });
    assert.equal(response.status, 200, response.text);
    const body = signatureResponseSchema.parse(response.body);
    assert.equal(body.audio_hash, job.audioHash);
    assert.equal(body.job_id, job.publicId);
    assert.match(body.signature, /^0x[0-9a-f]{130}$/);

    const digest = mintMessageHash({ minter: alice.address as Address, metadataUri: METADATA_URI, audioHash: job.audioHash });
    const recovered = await recoverMessageAddress({ message: { raw: digest }, signature: body.signature as Hex });
    assert.equal(recovered, stack.signer.address);

    const expires = Date.parse(body.expires_at);
    assert.match(body.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(expires >= before + 3600_000 && expires <= Date.now() + 3600_000, 'expires one hour after issue');

    const row = await stack.app.db.one<{ signature: string; metadata_uri: string; signature_used: boolean }>(
      'SELECT signature, metadata_uri, signature_used FROM generation_jobs WHERE id = $1',
      [job.id],
    );
    assert.equal(row.signature, body.signature);
    assert.equal(row.metadata_uri, METADATA_URI);
    assert.equal(row.signature_used, false);
    const stored = await stack.app.db.one<{ minter: string; expires_at: Date; signer_address: string }>(
      'SELECT minter, expires_at, signer_address FROM mint_signatures WHERE job_id = $1',
      [job.id],
    );
    assert.equal(stored.minter, alice.address);
    assert.equal(stored.expires_at.toISOString(), body.expires_at);
    assert.equal(stored.signer_address, stack.signer.address.toLowerCase());

    const metrics = await stack.app.request('/metrics');
    assert.match(metrics.text, /^mint_signatures_issued_total [1-9]/m);
  });

  it('refuses a second signature for the same job with SIGN_002 (409)', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const body = { job_id: job.publicId, user_address: alice.address, metadata_uri: METADATA_URI };
    assert.equal((await sign(alice, body)).status, 200);
    const again = await sign(alice, { ...body, metadata_uri: `${METADATA_URI}/other.json` });
    assert.equal(again.status, 409);
    assertVariantAError(again.body, 'SIGN_002');
  });

  it("answers SIGN_001 (404) alike for another user's, an unknown and a malformed job id", async () => {
    const bobsJob = await stack.seedJob(bob.userId, bob.address);
    for (const jobId of [bobsJob.publicId, 'gen_00000000-0000-4000-8000-000000000000', 'gen_nope', bobsJob.id]) {
      const response = await sign(alice, { job_id: jobId, user_address: alice.address, metadata_uri: METADATA_URI });
      assert.equal(response.status, 404, jobId);
      assertVariantAError(response.body, 'SIGN_001');
    }
    const untouched = await stack.app.db.one<{ signature: string | null }>('SELECT signature FROM generation_jobs WHERE id = $1', [
      bobsJob.id,
    ]);
    assert.equal(untouched.signature, null);
  });

  it('checks in the spec order: ownership before status, signature before the audio hash', async () => {
    const bobsQueued = await stack.seedJob(bob.userId, bob.address, JOB_STATUS.queued);
    const foreign = await sign(alice, { job_id: bobsQueued.publicId, user_address: alice.address, metadata_uri: METADATA_URI });
    assertVariantAError(foreign.body, 'SIGN_001');

    const signed = await stack.seedJob(alice.userId, alice.address);
    const body = { job_id: signed.publicId, user_address: alice.address, metadata_uri: METADATA_URI };
    assert.equal((await sign(alice, body)).status, 200);
    await stack.objectStore.put(signed.audioKey, new Uint8Array([1, 2, 3]), { contentType: 'audio/mpeg' });
    assertVariantAError((await sign(alice, body)).body, 'SIGN_002');
  });

  it('refuses jobs that are not completed with SIGN_003 (409)', async () => {
    for (const status of [JOB_STATUS.queued, JOB_STATUS.processing, JOB_STATUS.failed]) {
      const job = await stack.seedJob(alice.userId, alice.address, status);
      const response = await sign(alice, { job_id: job.publicId, user_address: alice.address, metadata_uri: METADATA_URI });
      assert.equal(response.status, 409, status);
      assertVariantAError(response.body, 'SIGN_003');
    }
  });

  it('recomputes the audio hash from the stored object: tampered or missing audio gets SIGN_004 and no signature', async () => {
    const tampered = await stack.seedJob(alice.userId, alice.address);
    const changed = new Uint8Array(tampered.bytes);
    changed[100] = (changed[100] ?? 0) ^ 0xff;
    await stack.objectStore.put(tampered.audioKey, changed, { contentType: 'audio/mpeg' });
    const response = await sign(alice, { job_id: tampered.publicId, user_address: alice.address, metadata_uri: METADATA_URI });
    assert.equal(response.status, 409);
    assertVariantAError(response.body, 'SIGN_004');

    const missing = await stack.seedJob(alice.userId, alice.address);
    await stack.objectStore.delete(missing.audioKey);
    const gone = await sign(alice, { job_id: missing.publicId, user_address: alice.address, metadata_uri: METADATA_URI });
    assertVariantAError(gone.body, 'SIGN_004');

    const rows = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mint_signatures WHERE job_id IN ($1, $2)', [
      tampered.id,
      missing.id,
    ]);
    assert.equal(rows.n, 0);
  });

  it('issues only for the authenticated wallet (403 otherwise)', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const response = await sign(alice, { job_id: job.publicId, user_address: bob.address, metadata_uri: METADATA_URI });
    assert.equal(response.status, 403);
    assertVariantAError(response.body, 'FORBIDDEN');
    const ok = await sign(alice, {
      job_id: job.publicId,
      user_address: alice.address.toUpperCase().replace('0X', '0x'),
      metadata_uri: METADATA_URI,
    });
    assert.equal(ok.status, 200, 'the address comparison ignores hex case');
  });

  it('issues exactly one signature for 50 concurrent requests for one job', async () => {
    // A fresh user: 50 requests are half of the hourly metadata/NFT allowance.
    const carol = await stack.app.login();
    const job = await stack.seedJob(carol.userId, carol.address);
    const body = { job_id: job.publicId, user_address: carol.address, metadata_uri: METADATA_URI };
    const responses = await Promise.all(Array.from({ length: 50 }, () => sign(carol, body)));
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 409).length, 49);
    for (const r of responses.filter((x) => x.status === 409)) assertVariantAError(r.body, 'SIGN_002');
    const rows = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mint_signatures WHERE job_id = $1', [job.id]);
    assert.equal(rows.n, 1);
  });

  it('signs identical audio once, even across two jobs (the contract mints each audio hash once)', async () => {
    const first = await stack.seedJob(alice.userId, alice.address);
    const second = await stack.seedJob(alice.userId, alice.address);
    await stack.objectStore.put(second.audioKey, first.bytes, { contentType: 'audio/mpeg' });
    await stack.app.db.none('UPDATE generation_jobs SET audio_hash = $1 WHERE id = $2', [first.audioHash, second.id]);
    assert.equal((await sign(alice, { job_id: first.publicId, user_address: alice.address, metadata_uri: METADATA_URI })).status, 200);
    const dup = await sign(alice, { job_id: second.publicId, user_address: alice.address, metadata_uri: METADATA_URI });
    assert.equal(dup.status, 409);
    assertVariantAError(dup.body, 'SIGN_002');
    const job = await stack.app.db.one<{ signature: string | null }>('SELECT signature FROM generation_jobs WHERE id = $1', [second.id]);
    assert.equal(job.signature, null, 'the refused claim left no signature on the job');
  });

  it('Variant B: finds the job by audio hash and answers {signature, expiresAt}', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const response = await sign(alice, { metadataURI: METADATA_URI, audioHash: job.audioHash.toUpperCase().replace('0X', '0x') });
    assert.equal(response.status, 200, response.text);
    const body = signatureResponseVariantBSchema.parse(response.body);
    assert.ok(Number.isInteger(body.expiresAt));
    assert.ok(Math.abs(body.expiresAt - (Date.now() / 1000 + 3600)) < 60);
    const digest = mintMessageHash({ minter: alice.address as Address, metadataUri: METADATA_URI, audioHash: job.audioHash });
    assert.equal(await recoverMessageAddress({ message: { raw: digest }, signature: body.signature as Hex }), stack.signer.address);

    const again = await sign(alice, { metadataURI: METADATA_URI, audioHash: job.audioHash });
    assertVariantAError(again.body, 'SIGN_002');
    const foreign = await sign(bob, { metadataURI: METADATA_URI, audioHash: job.audioHash });
    assert.equal(foreign.status, 404);
    assertVariantAError(foreign.body, 'SIGN_001');
  });

  it('rejects malformed input with 400 in the Variant A shape and charges nothing', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const countBefore = await hourlyCount(alice.userId);
    const good = { job_id: job.publicId, user_address: alice.address, metadata_uri: METADATA_URI };
    const bad: unknown[] = [
      {},
      [],
      'text',
      null,
      42,
      { ...good, job_id: 7 },
      { ...good, job_id: '' },
      { ...good, user_address: 'alice' },
      { ...good, user_address: undefined },
      { ...good, metadata_uri: 'https://example.com/meta.json' },
      { ...good, metadata_uri: 'ipfs://not-a-cid' },
      { ...good, metadata_uri: `ipfs://${'b'.repeat(600)}` },
      { ...good, metadata_uri: undefined },
      { ...good, extra: true },
      { metadataURI: METADATA_URI },
      { metadataURI: METADATA_URI, audioHash: '0x1234' },
    ];
    for (const body of bad) {
      const response = await stack.app.request('/api/signature', {
        token: alice.token,
        rawBody: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.status, 400, `${JSON.stringify(body)} -> ${response.text}`);
      assertVariantAError(response.body, 'VALIDATION_ERROR');
    }
    const invalidJson = await stack.app.request('/api/signature', {
      token: alice.token,
      rawBody: '{"job_id":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(invalidJson.status, 400);
    assertVariantAError(invalidJson.body, 'VALIDATION_ERROR');

    const noToken = await stack.app.request('/api/signature', { body: good });
    assert.equal(noToken.status, 401);
    assertVariantAError(noToken.body, 'AUTH_ERROR');

    const row = await stack.app.db.one<{ signature: string | null }>('SELECT signature FROM generation_jobs WHERE id = $1', [job.id]);
    assert.equal(row.signature, null);
    assert.equal(await hourlyCount(alice.userId), countBefore, 'bad input never reaches the hourly counter');
  });

  const hourlyCount = async (userId: string) =>
    (
      await stack.app.db.oneOrNone<{ count: number }>(
        `SELECT count FROM rate_limit_counters WHERE subject = $1 AND category = 'metadata_nft' AND window_start = date_trunc('hour', now(), 'UTC')`,
        [`user:${userId}`],
      )
    )?.count ?? null;

  it('counts against the metadata_nft hourly limit in the statement that finds the job: 429 RATE_002 at the limit, nothing signed', async () => {
    const carol = await stack.app.login();
    const first = await stack.seedJob(carol.userId, carol.address);
    const signed = await sign(carol, { job_id: first.publicId, user_address: carol.address, metadata_uri: METADATA_URI });
    assert.equal(signed.status, 200);
    assert.equal(signed.headers.get('x-ratelimit-limit'), '100');
    assert.equal(signed.headers.get('x-ratelimit-remaining'), '99');
    // A refusal by the spec's checks counts as a request (only bad input does not).
    const unknown = await sign(carol, {
      job_id: 'gen_00000000-0000-4000-8000-000000000000',
      user_address: carol.address,
      metadata_uri: METADATA_URI,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('x-ratelimit-remaining'), '98');
    assert.equal(await hourlyCount(carol.userId), 2);

    await stack.app.db.none(`UPDATE rate_limit_counters SET count = 100 WHERE subject = $1 AND category = 'metadata_nft'`, [
      `user:${carol.userId}`,
    ]);
    const second = await stack.seedJob(carol.userId, carol.address);
    const refused = await sign(carol, { job_id: second.publicId, user_address: carol.address, metadata_uri: METADATA_URI });
    assert.equal(refused.status, 429);
    assertVariantAError(refused.body, 'RATE_002');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(await hourlyCount(carol.userId), 100);
    const row = await stack.app.db.one<{ signature: string | null }>('SELECT signature FROM generation_jobs WHERE id = $1', [second.id]);
    assert.equal(row.signature, null);
  });

  it('answers 401 for a token whose user no longer holds its wallet, before any charge', async () => {
    const dave = await stack.app.login();
    const job = await stack.seedJob(dave.userId, dave.address);
    await stack.app.db.none(`UPDATE users SET wallet_address = '0x000000000000000000000000000000000000dead' WHERE id = $1`, [dave.userId]);
    const response = await sign(dave, { job_id: job.publicId, user_address: dave.address, metadata_uri: METADATA_URI });
    assert.equal(response.status, 401);
    assertVariantAError(response.body, 'AUTH_ERROR');
    assert.equal(await hourlyCount(dave.userId), null);
  });

  describe('one mint per song, however re-encoded: the earlier creation wins (SIGN_007, docs/fingerprints.md)', () => {
    /**
     * A completed job of `who` whose sound has the landmark peaks `peaks`, registered to `who` as of
     * its completion in one transaction, as the worker's completion does; `outside` marks a song
     * whose edit chain starts from an upload, keeping `outsideSeconds` of it.
     */
    const seedSong = async (who: LoggedIn, peaks: Peak[], outside = false, outsideSeconds = 0) => {
      const job = await stack.seedJob(who.userId, who.address);
      await stack.app.db.tx(async (tx) => {
        await tx.none(
          `UPDATE generation_jobs SET landmarks = $2, completed_at = now(), outside_material = $3, outside_spans = $4 WHERE id = $1`,
          [job.id, landmarksColumn(peaks), outside, JSON.stringify(outsideSeconds > 0 ? [[0, outsideSeconds]] : [])],
        );
        await registerSound(tx, { jobId: job.id, userId: who.userId, landmarks: landmarksColumn(peaks) });
      });
      return job;
    };
    const signJob = (who: LoggedIn, job: { publicId: string }) =>
      sign(who, { job_id: job.publicId, user_address: who.address, metadata_uri: METADATA_URI });
    const recorded = async (jobId: string) =>
      stack.app.db.one<{ signatures: number; signature: string | null }>(
        `SELECT (SELECT count(*)::int FROM mint_signatures WHERE job_id = $1) AS signatures,
                (SELECT signature FROM generation_jobs WHERE id = $1) AS signature`,
        [jobId],
      );
    const refusal = (response: { status: number; text: string; body: unknown }, code: string) => {
      assert.equal(response.status, code === 'SIGN_008' ? 403 : 409, response.text);
      const { error } = variantAErrorSchema.parse(response.body);
      assert.equal(error.code, code);
      return error;
    };

    it("refuses a song carrying uploaded audio that holds a stretch of another account's earlier song, signed or not, naming it and its token", async () => {
      const erin = await stack.app.login();
      const frank = await stack.app.login();
      const original = syntheticPeaks(1, 30);
      const unsignedSong = await seedSong(erin, original);

      // 11 s of it inside frank's edit of an upload, 4 s in, re-encoded (a peak in ten lost).
      const copy = await seedSong(frank, withCopiedPeaks(syntheticPeaks(2, 38), original, 12, 11, 4), true);
      const error = refusal(await signJob(frank, copy), 'SIGN_007');
      assert.equal(error.job_id, copy.publicId);
      assert.deepEqual(error.earlier_song, { job_id: unsignedSong.publicId, token_id: null }, 'never signed, still first');
      assert.deepEqual(await recorded(copy.id), { signatures: 0, signature: null }, 'nothing recorded');

      assert.equal((await signJob(erin, unsignedSong)).status, 200);
      await stack.app.db.none('UPDATE mint_signatures SET token_id = 4401 WHERE job_id = $1', [unsignedSong.id]);
      const named = refusal(await signJob(frank, copy), 'SIGN_007');
      assert.deepEqual(named.earlier_song, { job_id: unsignedSong.publicId, token_id: '4401' });
      // Where: the copy's 4 s lie at the original's 12 s (8 s apart, wherever the agreeing stretch starts).
      const place = new RegExp(
        `^From (\\d+\\.\\d) s this song holds ${unsignedSong.publicId} \\(token 4401\\) \\(from its (\\d+\\.\\d) s\\)`,
      ).exec(named.details ?? '');
      assert.ok(place !== null, named.details);
      assert.ok(Math.abs(Number(place[2]) - Number(place[1]) - 8) <= 0.2, named.details);

      // A second of it (fewer agreeing triplets than a match needs) is no copy; nor is an unrelated upload's edit.
      const excerpt = await seedSong(frank, withCopiedPeaks(syntheticPeaks(3, 38), original, 12, 1, 4), true);
      assert.equal((await signJob(frank, excerpt)).status, 200);
      const unrelated = await seedSong(frank, syntheticPeaks(4, 38), true);
      assert.equal((await signJob(frank, unrelated)).status, 200);
    });

    it("a squatter's copy made later never gets ahead: the creator's song and its edits are signed, the squatter's copy is refused", async () => {
      const [victim, squatter] = [await stack.app.login(), await stack.app.login()];
      const song = syntheticPeaks(21, 30);
      const original = await seedSong(victim, song);
      // The squatter's extension of an upload of the song (made after it, never signed).
      const squat = await seedSong(squatter, withCopiedPeaks(syntheticPeaks(22, 38), song, 0, 30, 0), true);
      refusal(await signJob(squatter, squat), 'SIGN_007');
      assert.equal((await signJob(victim, original)).status, 200, 'the creator signs its song');
      // The creator's own edit of an upload of the song holds the squatter's later copy too: that
      // copy holds the creator's earlier song, so it does not count against the creator.
      const ownEdit = await seedSong(victim, withCopiedPeaks(syntheticPeaks(23, 35), song, 0, 30, 0), true);
      assert.equal((await signJob(victim, ownEdit)).status, 200, 'the creator signs its edit');
      const again = refusal(await signJob(squatter, squat), 'SIGN_007');
      assert.equal(again.earlier_song?.job_id, original.publicId, 'the squatter is refused, naming the creation');
    });

    it("keeps the creator's song its own when the creator has many earlier songs (the exception looked up, not compared one by one)", async () => {
      const [victim, squatter] = [await stack.app.login(), await stack.app.login()];
      // More earlier songs than the rule compares directly (16): the exception takes the index's path.
      for (let i = 0; i < 17; i += 1) await seedSong(victim, syntheticPeaks(500 + i, 12));
      const song = syntheticPeaks(520, 30);
      const original = await seedSong(victim, song);
      const squat = await seedSong(squatter, withCopiedPeaks(syntheticPeaks(521, 38), song, 0, 30, 0), true);
      refusal(await signJob(squatter, squat), 'SIGN_007');
      const ownEdit = await seedSong(victim, withCopiedPeaks(syntheticPeaks(522, 35), song, 0, 30, 0), true);
      assert.equal(
        (await signJob(victim, ownEdit)).status,
        200,
        "the squatter's copy holds her earlier song: it does not count against her",
      );
      assert.equal(refusal(await signJob(squatter, squat), 'SIGN_007').earlier_song?.job_id, original.publicId);
    });

    it("never refuses a song made from the prompt alone for resembling another account's, signed first or not", async () => {
      const [gina, hank] = [await stack.app.login(), await stack.app.login()];
      const tune = syntheticPeaks(31, 30);
      const first = await seedSong(gina, tune);
      assert.equal((await signJob(gina, first)).status, 200);
      const sibling = await seedSong(hank, withCopiedPeaks(syntheticPeaks(32, 33), tune, 0, 30, 1));
      assert.equal((await signJob(hank, sibling)).status, 200, "the service's own output is no copy");
    });

    it("passes an account's own edits and extensions of its songs, and songs made before fingerprints", async () => {
      const gina = await stack.app.login();
      const original = syntheticPeaks(11, 30);
      assert.equal((await signJob(gina, await seedSong(gina, original))).status, 200);
      const extension = await seedSong(gina, withCopiedPeaks(syntheticPeaks(12, 33), original, 0, 30, 0), true);
      assert.equal((await signJob(gina, extension)).status, 200, 'her own extension');
      const legacy = await stack.seedJob(gina.userId, gina.address);
      await stack.app.db.none('UPDATE generation_jobs SET outside_material = true WHERE id = $1', [legacy.id]);
      assert.equal((await signJob(gina, legacy)).status, 200, 'no landmark peaks: not checked');
    });

    it('of two accounts asking at once to sign copies of one song, the one made first is signed, whichever asks first', async () => {
      for (let round = 0; round < 6; round += 1) {
        const [hana, ivan] = [await stack.app.login(), await stack.app.login()];
        const tune = syntheticPeaks(100 + round, 30);
        const first = await seedSong(hana, withCopiedPeaks(syntheticPeaks(200 + round, 33), tune, 0, 30, 1), true);
        const second = await seedSong(ivan, withCopiedPeaks(syntheticPeaks(300 + round, 32), tune, 3, 25, 1), true);
        const answers = await Promise.all(
          round % 2 === 0 ? [signJob(hana, first), signJob(ivan, second)] : [signJob(ivan, second), signJob(hana, first)],
        );
        const [hanas, ivans] = round % 2 === 0 ? answers : [answers[1], answers[0]];
        assert.equal(hanas?.status, 200, `round ${round}: ${hanas?.text}`);
        refusal(ivans ?? { status: 0, text: '', body: null }, 'SIGN_007');
        const rows = await stack.app.db.one<{ signatures: number }>(
          'SELECT count(*)::int AS signatures FROM mint_signatures WHERE job_id IN ($1, $2)',
          [first.id, second.id],
        );
        assert.deepEqual(rows, { signatures: 1 });
      }
    });

    it('the same sound (PCM hash) is signed for the job that made it first, of any account, not the first to ask (SIGN_006)', async () => {
      const [jay, kim] = [await stack.app.login(), await stack.app.login()];
      const pcm = `0x${randomBytes(32).toString('hex')}`;
      const earlier = await stack.seedJob(jay.userId, jay.address);
      const later = await stack.seedJob(kim.userId, kim.address);
      await stack.app.db.none(
        `UPDATE generation_jobs SET pcm_hash = $3, completed_at = CASE WHEN id = $1 THEN now() - interval '1 minute' ELSE now() END
          WHERE id IN ($1, $2)`,
        [earlier.id, later.id, pcm],
      );
      refusal(await signJob(kim, later), 'SIGN_006');
      assert.deepEqual(await recorded(later.id), { signatures: 0, signature: null });
      assert.equal((await signJob(jay, earlier)).status, 200, 'the earlier creation is signed though it asked second');
      refusal(await signJob(kim, later), 'SIGN_006');
      // An earlier job retention deleted unsigned can never be signed: the sound is the later job's then.
      const [third, fourth] = [await stack.seedJob(jay.userId, jay.address), await stack.seedJob(kim.userId, kim.address)];
      const other = `0x${randomBytes(32).toString('hex')}`;
      await stack.app.db.none(
        `UPDATE generation_jobs SET pcm_hash = $3, completed_at = CASE WHEN id = $1 THEN now() - interval '1 minute' ELSE now() END,
                purged_at = CASE WHEN id = $1 THEN now() END
          WHERE id IN ($1, $2)`,
        [third.id, fourth.id, other],
      );
      assert.equal((await signJob(kim, fourth)).status, 200);
    });

    it('refuses a song more than MINT_MAX_OUTSIDE_SHARE (0.5) of which is uploaded audio kept verbatim, with 403 SIGN_008', async () => {
      const lena = await stack.app.login();
      // seedJob's songs last 29.6 s: 15 s kept is above half, 14 s is not.
      const mostly = await seedSong(lena, syntheticPeaks(41, 30), true, 15);
      const error = refusal(await signJob(lena, mostly), 'SIGN_008');
      assert.match(error.details ?? '', /15\.0 s of this 29\.6 s song is uploaded audio kept verbatim/);
      assert.deepEqual(await recorded(mostly.id), { signatures: 0, signature: null });
      const half = await seedSong(lena, syntheticPeaks(42, 30), true, 14);
      assert.equal((await signJob(lena, half)).status, 200);
    });
  });
});
