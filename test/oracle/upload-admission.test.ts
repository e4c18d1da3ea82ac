/**
 * POST /api/uploads admission (issue 49), against the real oracle, PostgreSQL, s3rver and decode
 * threads: a client that leaves cancels its decode and frees the thread for the next account; a
 * process slot is taken only once the body is here (a body still arriving never causes another
 * user's UPLOAD_006), and one refused after its body charges nothing; a decode past its time
 * budget is refused and charged (422 UPLOAD_007); a body that falls behind
 * the minimum rate is cut off (408 BODY_TOO_SLOW) and gives its slot back. Orders, codes and
 * counts are asserted, never durations.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { ClientRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createAudioProber } from '../../core/src/audio/audio-prober.ts';
import type { AudioProber, Probed } from '../../core/src/audio/audio-prober.ts';
import { createObjectStore } from '../../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../../core/src/testing/s3.ts';
import type { TestS3 } from '../../core/src/testing/s3.ts';
import { MAX_UPLOAD_BYTES } from '../../core/src/uploads.ts';
import { createUploadsInFlight } from '../../oracle/src/domain/uploads-in-flight.ts';
import type { UploadsInFlight } from '../../oracle/src/domain/uploads-in-flight.ts';
import { oneSampleFlac, wavHeader } from '../support/upload-bombs.ts';
import { startTestApp } from './helpers/test-app.ts';
import type { LoggedIn, TestApp } from './helpers/test-app.ts';
import { assertVariantAError } from './helpers/shapes.ts';
import { waitFor as pollFor } from '../support/wait-for.ts';

/**
 * 3,000,000 one-sample frames at 192 kHz (49 MB, 15.6 s of audio, within a free user's 30 s):
 * 5.3 s to decode on a quiet core (2026-11-30). 600,000 at 44.1 kHz took about 6 s when this test
 * was written and 1.1 s once the fingerprints got faster: then it passed the budget below.
 */
const slow = oneSampleFlac(3_000_000, 192_000);
/** 2 s of 8 kHz mono silence: decoded in milliseconds. */
const quick = (() => {
  const data = 2 * 8000 * 2;
  const wav = new Uint8Array(44 + data);
  wav.set(wavHeader(data, 8000, 1));
  return wav;
})();

/** Polls `probe` (every 20 ms, for at most 60 s) until it returns a value. */
const waitFor = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => pollFor(what, probe, { intervalMs: 20 });

/** What the stack's decode threads were asked and answered, in order: the real prober, watched. */
interface ProbeLog {
  started: string[];
  settled: { account: string; code: string }[];
}

function watched(prober: AudioProber, log: ProbeLog): Pick<AudioProber, 'probe'> {
  return {
    async probe(bytes, budget, options) {
      const account = options?.account ?? '';
      log.started.push(account);
      const probed: Probed = await prober.probe(bytes, budget, options);
      log.settled.push({ account, code: probed.result.ok ? 'ok' : probed.result.error.code });
      return probed;
    },
  };
}

describe('upload admission: slots held until the work ends, cancelled decodes, slow bodies', () => {
  let s3: TestS3;
  let app: TestApp;
  let prober: AudioProber;
  let inFlight: UploadsInFlight;
  const log: ProbeLog = { started: [], settled: [] };

  before(async () => {
    s3 = await startTestS3();
    const objectStore = createObjectStore(testObjectStoreOptions(s3, 'https://cdn.songmint.test'));
    // One decode thread (the fewest a host has): what one account's decode holds, every other waits
    // for; 2 s of decoding per upload, under half of what the slow FLAC needs here.
    prober = createAudioProber({ threads: 1, decodeSeconds: 2 });
    inFlight = createUploadsInFlight({ perUser: 2, perProcess: 2 });
    app = await startTestApp({ services: () => ({ uploads: { objectStore, prober: watched(prober, log), inFlight } }) });
  });
  after(async () => {
    await app.stop();
    await prober.close();
    await s3.stop();
  });

  const charged = async (who: LoggedIn) =>
    (
      await app.db.one<{ n: number }>(
        `SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE subject = $1 AND category = 'general'`,
        [`user:${who.userId}`],
      )
    ).n;
  const rowsOf = async (who: LoggedIn) =>
    (await app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads WHERE user_id = $1', [who.userId])).n;
  const upload = async (who: LoggedIn, bytes: Uint8Array) => {
    const res = await fetch(`${app.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'Songmint-Rights-Confirmed': 'true', 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    return { status: res.status, body: (await res.json()) as unknown, retryAfter: res.headers.get('retry-after') };
  };
  /** Sends `bytes` whole and keeps the connection open, not reading the answer: the caller destroys it. */
  const sendAndHold = (who: LoggedIn, bytes: Uint8Array): ClientRequest => {
    const request = httpRequest(`${app.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'Songmint-Rights-Confirmed': 'true', 'content-length': String(bytes.length) },
    });
    request.on('error', () => {});
    request.end(bytes);
    return request;
  };
  const idle = () => waitFor('every slot given back', async () => (inFlight.count().taken === 0 ? true : undefined));

  it("a client that leaves cancels its decode: the thread serves the next account's upload, the leaver's charge stands", async () => {
    // Start the decode thread (its first request loads it).
    const warm = await app.login();
    assert.equal((await upload(warm, quick)).status, 201);
    const [alice, bob] = [await app.login(), await app.login()];
    log.started.length = 0;
    log.settled.length = 0;
    const leaving = sendAndHold(alice, slow);
    await waitFor("alice's decode to start", async () => (log.started.includes(alice.userId) ? true : undefined));
    // Bob's upload waits behind it on the one thread.
    const bobs = upload(bob, quick);
    await waitFor("bob's decode to be queued", async () => (log.started.includes(bob.userId) ? true : undefined));
    leaving.destroy();
    const answered = await bobs;
    assert.equal(answered.status, 201, JSON.stringify(answered.body));
    assert.deepEqual(
      log.settled,
      [
        { account: alice.userId, code: 'cancelled' },
        { account: bob.userId, code: 'ok' },
      ],
      "alice's decode was cancelled, not finished, and bob's served after it",
    );
    await idle();
    assert.deepEqual(inFlight.count(), { taken: 0, admitted: 0 });
    assert.equal(await rowsOf(alice), 0, 'nothing stored for the leaver');
    assert.equal(await charged(alice), 1, 'an upload abandoned after its body counts against the hourly limit');
  });

  it('a decode past its time budget is 422 UPLOAD_007, stores nothing and keeps its hourly charge', async () => {
    const henry = await app.login();
    const refused = await upload(henry, slow);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assertVariantAError(refused.body, 'UPLOAD_007');
    assert.equal(await rowsOf(henry), 0);
    assert.equal(await charged(henry), 1, 'the time was spent: the charge stands');
    await idle();
  });

  it('bodies still arriving hold no process slot; an upload refused after its body (UPLOAD_006) is not charged', async () => {
    const [carol, dave] = [await app.login(), await app.login()];
    // Carol's two uploads are in (the process's 2 slots), decoding one after the other.
    const held = [sendAndHold(carol, slow), sendAndHold(carol, slow)];
    await waitFor("carol's uploads to hold the process's slots", async () => (inFlight.count().admitted === 2 ? true : undefined));
    const refused = await upload(dave, quick);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assertVariantAError(refused.body, 'UPLOAD_006');
    assert.match(JSON.stringify(refused.body), /this server has 2 uploads in flight/);
    assert.equal(refused.retryAfter, '2');
    assert.equal(await charged(dave), 0, 'the refusal is given back');
    for (const request of held) request.destroy();
    await idle();
    assert.deepEqual(
      log.settled.filter((entry) => entry.account === carol.userId).map((entry) => entry.code),
      ['cancelled', 'cancelled'],
    );
  });

  it('a body that falls behind the minimum rate is cut off (408 BODY_TOO_SLOW) and frees its slot; others are served meanwhile', async () => {
    const [erin, frank, grace] = [await app.login(), await app.login(), await app.login()];
    /** Headers for a 1 MiB body, then 1 KB of it, then nothing. */
    const trickle = (who: LoggedIn) =>
      new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
        const request = httpRequest(`${app.baseUrl}/api/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.token}`, 'Songmint-Rights-Confirmed': 'true', 'content-length': String(1024 * 1024) },
        });
        request.on('error', reject);
        request.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), closed: res.headers.connection === 'close' }),
          );
        });
        request.write(quick.subarray(0, 1000));
      });
    const trickles = [trickle(erin), trickle(erin), trickle(frank), trickle(frank)];
    await waitFor('four bodies arriving', async () => (inFlight.count().taken === 4 ? true : undefined));
    assert.equal(inFlight.count().admitted, 0);
    // Another user is served while they trickle: no UPLOAD_006 for anyone else.
    const served = await upload(grace, quick);
    assert.equal(served.status, 201, JSON.stringify(served.body));
    for (const cut of await Promise.all(trickles)) {
      assert.equal(cut.status, 408, cut.body);
      assertVariantAError(JSON.parse(cut.body) as unknown, 'BODY_TOO_SLOW');
      assert.ok(cut.closed, 'the connection is closed: the rest of the body is never read');
    }
    await idle();
    assert.deepEqual([await charged(erin), await charged(frank)], [0, 0], 'a body cut off is not charged');
    // A body declared larger than any upload is refused at once, unread.
    const huge = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${app.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${erin.token}`,
          'Songmint-Rights-Confirmed': 'true',
          'content-length': String(2 * MAX_UPLOAD_BYTES),
        },
      });
      request.on('error', reject);
      request.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.write(new Uint8Array(1024));
    });
    assert.equal(huge, 413);
    await idle();
  });
});
