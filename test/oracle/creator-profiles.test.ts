/**
 * Creator profiles (issue 51 item 5, issue 53 item 5): PATCH /v1/user/profile over the real
 * PostgreSQL, s3rver and IPFS blockstore of the storage stack; the public reads
 * (GET /v1/public/creators/{address}, /v1/public/songs/{id}, GET /v1/user/profile); and the
 * linked fid's Farcaster user data from a loopback hub answering as a real hub's HTTP API does
 * (test/support/farcaster-hub.ts), with its timeout, its byte budget and a malformed answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import { createHubUserDataReader } from '../../oracle/src/domain/farcaster-user-data.ts';
import { COVER_MAX_BYTES } from '../../oracle/src/domain/cover-image.ts';
import { STORAGE_QUOTA_BYTES } from '../../core/src/storage-quota.ts';
import { publicProfileSchema } from '../../oracle/src/http/profile-schemas.ts';
import { creatorProfileSchema } from '../../oracle/src/http/routes/coins.ts';
import { publicSongSchema } from '../../oracle/src/http/routes/public-songs.ts';
import { profileSchema } from '../../oracle/src/http/schemas.ts';
import { startTestFarcasterHub } from '../support/farcaster-hub.ts';
import type { TestFarcasterHub } from '../support/farcaster-hub.ts';
import { assertVariantCError } from './helpers/shapes.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { PUBLIC_BASE_URL, coinsWithoutChain, dataUri, pngBytes, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';

/** Long enough for a loaded machine to answer from loopback; the slow hub answers ten times later. */
const HUB_TIMEOUT_MS = 1500;
const VAULT = '0x00000000000000000000000000000000000000f1' as Address;

describe('creator profiles', () => {
  let stack: StorageStack;
  let hub: TestFarcasterHub;
  let alice: LoggedIn;
  const hubWarnings: string[] = [];
  let clock = 1_000_000;

  before(async () => {
    hub = await startTestFarcasterHub();
    // The chain is not there: the creator route answers without it.
    stack = await startStorageStack({
      coins: coinsWithoutChain(VAULT),
      farcasterUserData: createHubUserDataReader(
        { hubUrl: hub.url, apiKey: 'hub-key', timeoutMs: HUB_TIMEOUT_MS, now: () => clock },
        { warn: (fields, message) => hubWarnings.push(`${message}: ${String(fields.err)}`) },
      ),
    });
    alice = await stack.app.login();
  });
  after(async () => {
    await stack.stop();
    await hub.stop();
  });

  const patch = (who: LoggedIn, body: unknown) => stack.app.request('/v1/user/profile', { method: 'PATCH', token: who.token, body });
  const own = async (who: LoggedIn) => {
    const response = await stack.app.request('/v1/user/profile', { token: who.token });
    assert.equal(response.status, 200, response.text);
    return profileSchema.parse(response.body).public_profile;
  };
  const creator = async (address: string) => {
    const response = await stack.app.request(`/v1/public/creators/${address}`);
    assert.equal(response.status, 200, response.text);
    return creatorProfileSchema.parse(response.body).profile;
  };
  const storedBytes = async (userId: string) =>
    Number((await stack.app.db.one<{ stored_bytes: string }>('SELECT stored_bytes FROM users WHERE id = $1', [userId])).stored_bytes);

  it('sets a name, a bio and an avatar checked like a cover; everyone reads them', async () => {
    const avatar = pngBytes(48, 48);
    const before = await storedBytes(alice.userId);
    const response = await patch(alice, {
      display_name: '  Alice   Smith  ',
      bio: 'Synthwave at night.\r\nBerlin.',
      avatar: dataUri('image/png', avatar),
    });
    assert.equal(response.status, 200, response.text);
    const profile = publicProfileSchema.parse(response.body);
    const cid = CID.createV1(raw.code, await sha256.digest(avatar)).toString();
    assert.equal(profile.display_name, 'Alice Smith');
    assert.equal(profile.name, 'Alice Smith');
    assert.equal(profile.bio, 'Synthwave at night.\nBerlin.');
    assert.equal(profile.avatar?.ipfs, `ipfs://${cid}`);
    assert.equal(profile.avatar?.content_type, 'image/png');
    assert.match(profile.avatar?.url ?? '', new RegExp(`^${PUBLIC_BASE_URL}/covers/avatar-${alice.userId}-[0-9a-f]{32}\\.png$`));
    assert.equal(profile.avatar_url, profile.avatar?.url);
    assert.equal(profile.farcaster, null);

    // The object store holds the bytes, IPFS the same bytes, and they count for the quota.
    const key = (profile.avatar?.url ?? '').slice(PUBLIC_BASE_URL.length + 1);
    const head = await stack.objectStore.head(key);
    assert.ok(head.ok && head.value.size === avatar.length, 'the avatar is stored');
    const content = await stack.ipfs.cat(CID.parse(cid), 1_000_000);
    assert.ok(content.ok);
    assert.deepEqual(Buffer.from(content.value), Buffer.from(avatar));
    assert.equal(await storedBytes(alice.userId), before + avatar.length);

    assert.deepEqual(await own(alice), profile);
    assert.deepEqual(await creator(alice.address.toUpperCase().replace('0X', '0x')), profile);
  });

  it('replaces and removes the avatar, deleting the old object and giving its bytes back', async () => {
    const first = (await own(alice)).avatar;
    assert.ok(first !== null);
    const jpegish = pngBytes(64, 64);
    const replaced = publicProfileSchema.parse((await patch(alice, { avatar: dataUri('image/png', jpegish) })).body);
    assert.notEqual(replaced.avatar?.url, first.url);
    assert.equal(replaced.display_name, 'Alice Smith', 'fields not sent stay as they are');
    const oldKey = first.url.slice(PUBLIC_BASE_URL.length + 1);
    const gone = await stack.objectStore.head(oldKey);
    assert.ok(!gone.ok && gone.error.code === 'not_found', 'the replaced avatar is deleted');
    assert.equal(await storedBytes(alice.userId), jpegish.length);

    const removed = publicProfileSchema.parse((await patch(alice, { avatar: null, bio: '' })).body);
    assert.deepEqual([removed.avatar, removed.avatar_url, removed.bio, removed.display_name], [null, null, null, 'Alice Smith']);
    assert.equal(await storedBytes(alice.userId), 0);
  });

  it('refuses bad names, bios and avatars with clear errors, changing nothing', async () => {
    const bob = await stack.app.login();
    await patch(bob, { display_name: 'Bob' });
    const refusals: Array<[unknown, number, string, RegExp]> = [
      [{ display_name: 'evil\u202Egnp.exe' }, 400, 'VALIDATION_ERROR', /bidi/],
      [{ display_name: 'tab\there' }, 400, 'VALIDATION_ERROR', /control/],
      [{ display_name: 'zero\u200Bwidth' }, 400, 'VALIDATION_ERROR', /invisible/],
      [{ display_name: 'x'.repeat(51) }, 400, 'VALIDATION_ERROR', /at most 50/],
      [{ bio: 'y'.repeat(281) }, 400, 'VALIDATION_ERROR', /at most 280/],
      [{ bio: 'bell\u0007' }, 400, 'VALIDATION_ERROR', /control/],
      [{}, 400, 'VALIDATION_ERROR', /at least one/],
      [{ display_name: 'Bobby', website: 'x' }, 400, 'VALIDATION_ERROR', /website|Unrecognized/i],
      [{ display_name: 42 }, 400, 'VALIDATION_ERROR', /display_name/],
      [{ avatar: 'https://example.com/me.png' }, 400, 'VALIDATION_ERROR', /./],
      [
        { avatar: dataUri('image/svg+xml', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')) },
        400,
        'VALIDATION_ERROR',
        /./,
      ],
      [{ avatar: dataUri('image/jpeg', pngBytes(8, 8)) }, 400, 'VALIDATION_ERROR', /./],
      [{ display_name: 'Bobby', avatar: dataUri('image/png', pngBytes(8, 8, COVER_MAX_BYTES + 1)) }, 413, 'PAYLOAD_TOO_LARGE', /./],
    ];
    const charged = async () =>
      (
        await stack.app.db.one<{ n: number }>(
          `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE category = 'general'`,
        )
      ).n;
    const chargedBefore = await charged();
    for (const [body, status, code, text] of refusals) {
      const response = await patch(bob, body);
      assert.equal(response.status, status, `${JSON.stringify(body).slice(0, 80)}: ${response.text.slice(0, 300)}`);
      assertVariantCError(response.body, code);
      assert.match(response.text, text);
    }
    assert.equal(await charged(), chargedBefore, 'no refusal used up the hourly limit');
    const after = await own(bob);
    assert.deepEqual([after.display_name, after.bio, after.avatar], ['Bob', null, null]);
    assert.equal(await storedBytes(bob.userId), 0);

    // An avatar past the storage quota: 409 STORAGE_001, nothing stored, the profile as it was.
    await stack.app.db.none(`UPDATE users SET stored_bytes = $2 WHERE id = $1`, [bob.userId, STORAGE_QUOTA_BYTES.free - 10]);
    const full = await patch(bob, { display_name: 'Bobby', avatar: dataUri('image/png', pngBytes(32, 32)) });
    assert.equal(full.status, 409, full.text);
    assertVariantCError(full.body, 'STORAGE_001');
    const listed = await stack.objectStore.list(`covers/avatar-${bob.userId}-`);
    assert.ok(listed.ok);
    assert.deepEqual(listed.value, [], 'nothing stored');
    assert.equal((await own(bob)).display_name, 'Bob');
    await stack.app.db.none(`UPDATE users SET stored_bytes = 0 WHERE id = $1`, [bob.userId]);

    const anonymous = await stack.app.request('/v1/user/profile', { method: 'PATCH', body: { display_name: 'Mallory' } });
    assert.equal(anonymous.status, 401);
    assertVariantCError(anonymous.body, 'AUTH_ERROR');
  });

  it('takes names in any script and emoji, and an empty name clears it', async () => {
    const carol = await stack.app.login();
    for (const name of ['Zoë Ångström', '日本語の名前', 'DJ 👩‍💻🎵', "O'Brien-Smith (live)"]) {
      const response = await patch(carol, { display_name: name });
      assert.equal(response.status, 200, `${name}: ${response.text}`);
      assert.equal(publicProfileSchema.parse(response.body).display_name, name);
    }
    const cleared = publicProfileSchema.parse((await patch(carol, { display_name: '   ' })).body);
    assert.deepEqual([cleared.display_name, cleared.name], [null, null]);
  });

  it("names the creator on the song's public read; an address no one signed in with has an empty profile", async () => {
    const dave = await stack.app.login();
    await patch(dave, { display_name: 'Dave' });
    const job = await stack.seedJob(dave.userId, dave.address);
    await stack.app.db.none(
      `INSERT INTO mint_signatures (job_id, user_id, minter, metadata_uri, audio_hash, signature, signer_address, issued_at, expires_at, token_id, used_at)
       VALUES ($1, $2, $3, 'ipfs://bafkreiexample', $4, $5, $6, now(), now() + interval '1 hour', 9001, now())`,
      [job.id, dave.userId, dave.address, job.audioHash, `0x${'11'.repeat(65)}`, `0x${'22'.repeat(20)}`],
    );
    const song = await stack.app.request('/v1/public/songs/9001');
    assert.equal(song.status, 200, song.text);
    const read = publicSongSchema.parse(song.body);
    assert.deepEqual([read.creator, read.creator_name], [getAddress(dave.address), 'Dave']);

    const nobody = await creator(`0x${'34'.repeat(20)}`);
    assert.deepEqual(nobody, { name: null, avatar_url: null, display_name: null, bio: null, avatar: null, farcaster: null });
  });

  describe('the linked fid’s Farcaster user data', () => {
    let nextFid = 7000;
    /** A fresh account linked to a fresh fid (as Sign In With Farcaster or a verified claim links one). */
    async function linked(): Promise<{ who: LoggedIn; fid: number }> {
      const who = await stack.app.login();
      nextFid += 1;
      await stack.app.db.none('UPDATE users SET social_fid = $1 WHERE id = $2', [nextFid, who.userId]);
      return { who, fid: nextFid };
    }

    it('fills in the name and picture the creator did not set, from the hub, cached', async () => {
      hub.setMode('ok');
      const { who, fid } = await linked();
      hub.setUser(fid, { username: 'erin', display: 'Erin ✨', pfp: 'https://i.imgur.com/erin.png', bio: 'not read' });
      const profile = await creator(who.address);
      assert.deepEqual(profile.farcaster, {
        fid: String(fid),
        username: 'erin',
        display_name: 'Erin ✨',
        pfp_url: 'https://i.imgur.com/erin.png',
      });
      assert.equal(profile.name, 'Erin ✨');
      assert.equal(profile.avatar_url, 'https://i.imgur.com/erin.png');
      assert.equal(profile.display_name, null);
      assert.equal(hub.lastApiKey(), 'hub-key');
      assert.deepEqual((await own(who)).farcaster, profile.farcaster);
      assert.equal(hub.requests(fid), 1, 'the second read came from the cache');

      // Their own name wins; the hub's picture still fills the avatar they did not set.
      const named = publicProfileSchema.parse((await patch(who, { display_name: 'Erin Songs' })).body);
      assert.deepEqual([named.name, named.avatar_url], ['Erin Songs', 'https://i.imgur.com/erin.png']);
      // With both of their own, the hub is not asked at all.
      clock += 60 * 60_000;
      const full = publicProfileSchema.parse((await patch(who, { avatar: dataUri('image/png', pngBytes(16, 16)) })).body);
      assert.equal(full.farcaster, null);
      assert.equal(full.avatar_url, full.avatar?.url);
      assert.equal(hub.requests(fid), 1);
    });

    it('falls back to the username, and leaves out values our rules refuse', async () => {
      hub.setMode('ok');
      const { who, fid } = await linked();
      hub.setUser(fid, { username: 'frank', display: 'frank\u202Eevil', pfp: 'javascript:alert(1)' });
      const profile = await creator(who.address);
      assert.deepEqual(profile.farcaster, { fid: String(fid), username: 'frank', display_name: null, pfp_url: null });
      assert.deepEqual([profile.name, profile.avatar_url], ['frank', null]);
      const { who: other, fid: otherFid } = await linked();
      hub.setUser(otherFid, { username: 'Not A Name!', pfp: 'http://plain.example/p.png' });
      const plain = await creator(other.address);
      assert.deepEqual([plain.name, plain.avatar_url, plain.farcaster?.username], [null, null, null]);
    });

    it('asks the hub for at most maxInFlight fids at once; a read past them answers without it, queued nowhere', async () => {
      hub.setMode('slow', 400);
      const warnings: string[] = [];
      const reader = createHubUserDataReader(
        { hubUrl: hub.url, timeoutMs: HUB_TIMEOUT_MS, maxInFlight: 2 },
        { warn: (_fields, message) => warnings.push(message) },
      );
      for (const fid of [9101, 9102, 9103]) hub.setUser(fid, { username: `u${fid}` });
      const reads = [9101, 9102, 9103].map((fid) => reader(String(fid)));
      assert.equal(await reads[2], null, 'the third read does not wait');
      assert.match(warnings.join('\n'), /busy/);
      assert.deepEqual(
        (await Promise.all(reads.slice(0, 2))).map((data) => data?.username),
        ['u9101', 'u9102'],
      );
      assert.equal((await reader('9103'))?.username, 'u9103', 'a refusal for being busy is not remembered');
      hub.setMode('ok');
    });

    for (const [mode, what, why] of [
      ['slow', 'does not answer within the timeout', /TimeoutError|aborted/],
      ['malformed', 'answers a body that is not the shape', /JSON|SyntaxError/],
      ['huge', 'answers past the byte budget', /an answer over 65536 bytes/],
      ['error', 'answers 500', /status 500/],
    ] as const) {
      it(`answers the profile without it when the hub ${what}`, async () => {
        const { who, fid } = await linked();
        hub.setUser(fid, { username: 'gina' });
        hub.setMode(mode, HUB_TIMEOUT_MS * 10);
        const warnings = hubWarnings.length;
        const changed = await patch(who, { bio: 'still here' });
        assert.equal(changed.status, 200, changed.text);
        assert.equal(publicProfileSchema.parse(changed.body).farcaster, null);
        assert.match(hubWarnings.slice(warnings).join('\n'), why, 'the failure is logged with its cause');
        const profile = await creator(who.address);
        assert.deepEqual([profile.farcaster, profile.name, profile.bio], [null, null, 'still here']);
        // The failure is remembered for a while (one timeout a fid a minute, not one a view) ...
        hub.setMode('ok');
        assert.equal((await creator(who.address)).farcaster, null);
        assert.equal(hub.requests(fid), 1);
        // ... and the hub is asked again after it.
        clock += 2 * 60_000;
        assert.equal((await creator(who.address)).farcaster?.username, 'gina');
      });
    }
  });
});
