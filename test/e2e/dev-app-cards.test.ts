/**
 * The web app server's cards read from the database (scripts/dev-cards.ts, issue 49), as npm start
 * serves them, over real PostgreSQL with a minted song recorded as the chain watcher records it: a
 * burst of page views beyond the per-IP bucket of the public reads charges no bucket and keeps
 * every page's card, an unknown song stays 404, and a title holding `$'` (a `String.replace`
 * pattern) renders the head intact.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import type { Hex } from 'viem';
import { recordSongMinted } from '../../oracle/src/chain/watcher.ts';
import { HOURLY_LIMITS } from '../../oracle/src/domain/request-charge.ts';
import { devAppRouter, ensureAppBuilt } from '../../scripts/dev-app.ts';
import { databaseCards } from '../../scripts/dev-cards.ts';
import { startTestApp } from '../oracle/helpers/test-app.ts';
import type { TestApp } from '../oracle/helpers/test-app.ts';

const hex = (bytes: number) =>
  `0x${randomUUID()
    .replaceAll('-', '')
    .repeat(5)
    .slice(0, bytes * 2)}`;

/** A title that `String.replace` would read as patterns: `$'` (what follows), `$&` (the match), `$1`. */
const TITLE = "Rent's due $' $& $1 tonight";

describe('song pages read their cards from the database, charging no bucket', () => {
  let app: TestApp;
  let server: Server;
  let base: string;
  let creator: string;

  before(async () => {
    await ensureAppBuilt();
    app = await startTestApp();
    const erin = await app.login();
    creator = erin.address;
    const job = await app.db.one<{ id: string; audio_hash: string }>(
      `INSERT INTO generation_jobs (user_id, user_address, prompt, duration, tier, status, audio_url, audio_hash, audio_key, completed_at)
       VALUES ($1, $2, 'night drive', 10, 'free', 'completed', 'http://storage.test/night.mp3', $3, $4, now()) RETURNING id, audio_hash`,
      [erin.userId, erin.address, hex(32), `audio/gen_${randomUUID()}.mp3`],
    );
    const cid = `bafkrei${randomUUID().replaceAll('-', '')}`;
    await app.db.none(
      `INSERT INTO song_metadata (user_id, job_id, cid, metadata_uri, metadata_hash, document) VALUES ($1, $2, $3, $4, $5, $6)`,
      [erin.userId, job.id, cid, `ipfs://${cid}`, hex(32), JSON.stringify({ name: TITLE, image: 'ipfs://bafkreicover' })],
    );
    await app.db.none(
      `INSERT INTO mint_signatures (job_id, user_id, minter, metadata_uri, audio_hash, signature, signer_address, issued_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $3, now(), now() + interval '1 hour')`,
      [job.id, erin.userId, erin.address.toLowerCase(), `ipfs://${cid}`, job.audio_hash, hex(65)],
    );
    await recordSongMinted(
      app.db,
      {
        tokenId: 1n,
        minter: erin.address as Hex,
        audioHash: job.audio_hash as Hex,
        metadataUri: `ipfs://${cid}`,
        txHash: hex(32) as Hex,
        blockNumber: 1n,
      },
      new Date(),
    );
    const web = express();
    web.use('/app', devAppRouter({ rpcUrl: '', contracts: {}, developmentWallet: false }, databaseCards(app.db)));
    server = web.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.stop();
  });

  const head = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
    const html = await res.text();
    return { status: res.status, html, head: html.slice(0, html.indexOf('</head>')) };
  };

  it("renders a title holding $' and $& in the head as it is, once", async () => {
    const page = await head('/app/song/1');
    assert.equal(page.status, 200);
    assert.match(page.head, /<title>Rent&#39;s due \$&#39; \$&#38; \$1 tonight · Songmint<\/title>/);
    assert.match(page.head, /<meta property="og:title" content="Rent&#39;s due \$&#39; \$&#38; \$1 tonight">/);
    assert.equal(page.html.split('<title>').length, 2, 'one title: nothing of the page was pasted into the head');
    assert.equal(page.html.split('</html>').length, 2, 'the page is whole');
    const profile = await head(`/app/creator/${creator}`);
    assert.match(profile.head, /<meta name="description" content="1 song minted, 0 coins launched on Songmint.">/);
  });

  it("a creator's card carries the name, bio and picture they set; one with a name and no song has a card too", async () => {
    await app.db.none(
      `UPDATE users SET display_name = 'Erin $& Co', bio = 'Synthwave at night.',
              avatar_key = 'covers/avatar-erin.png', avatar_cid = 'bafkreiavatar', avatar_content_type = 'image/png'
        WHERE wallet_address = $1`,
      [creator.toLowerCase()],
    );
    const profile = await head(`/app/creator/${creator}`);
    assert.match(profile.head, /<title>Erin \$&#38; Co on Songmint<\/title>/);
    assert.match(
      profile.head,
      /<meta property="og:description" content="Synthwave at night. · 1 song minted, 0 coins launched on Songmint.">/,
    );
    assert.match(profile.head, new RegExp(`<meta property="og:image" content="${base}/ipfs/bafkreiavatar">`));

    const newcomer = await app.login();
    assert.equal((await head(`/app/creator/${newcomer.address}`)).head.includes('og:title'), false, 'nothing to show yet: the plain page');
    await app.db.none(`UPDATE users SET display_name = 'Newcomer' WHERE id = $1`, [newcomer.userId]);
    const named = await head(`/app/creator/${newcomer.address}`);
    assert.match(named.head, /<meta property="og:title" content="Newcomer on Songmint">/);
    assert.doesNotMatch(named.head, /og:image"/, 'no picture and no cover: no image tag');
  });

  it('a burst of page views beyond the per-IP bucket keeps every card and charges no bucket; an unknown song stays 404', async () => {
    const views = HOURLY_LIMITS.trading.free + 50;
    // Ten at a time, as a burst comes: nine of the song, one of a song that does not exist.
    for (let first = 0; first < views; first += 10) {
      const pages = await Promise.all(Array.from({ length: 10 }, (_, n) => head(n === 9 ? '/app/song/999' : '/app/song/1')));
      for (const [n, page] of pages.entries()) {
        if (n === 9) assert.equal(page.status, 404, `view ${first + n}: an unknown song`);
        else assert.match(page.head, /og:title/, `view ${first + n}: the card is there`);
      }
    }
    // The sign-in charged the general category; the public reads' category (trading) was never charged.
    const charged = await app.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM rate_limit_counters WHERE category = 'trading'`);
    assert.equal(charged.n, 0, 'no bucket was charged for the page views');
  });
});
