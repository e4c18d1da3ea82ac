import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { devAppRouter, ensureAppBuilt } from '../../scripts/dev-app.ts';
import type { CreatorCard, SongCard } from '../../scripts/dev-app.ts';

/** The web app as npm start serves it at /app (scripts/dev-app.ts), on loopback with its real build. */
describe('the web app server (/app)', () => {
  const named = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  let server: Server;
  let base: string;
  before(async () => {
    await ensureAppBuilt();
    const app = express();
    // Song 7 has a card (its title tries to break out of the attribute), 8 has none, 9's lookup fails;
    // npm start reads the card from GET /v1/public/songs/{id} (the browser walk covers that path).
    const cards = new Map<bigint, SongCard>([
      [7n, { title: 'Night "drive" <script>', description: null, image: 'ipfs://bafkreicover', audio: 'ipfs://bafkreiaudio' }],
    ]);
    const songCard = (songId: bigint) =>
      songId === 9n ? Promise.reject(new Error('API down')) : Promise.resolve(cards.get(songId) ?? null);
    // One creator has a card (a cover from IPFS), one a name and bio they set that try to break out
    // of the attribute; any other address has none.
    const creator = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const creatorCard = (address: string): Promise<CreatorCard | null> =>
      Promise.resolve(
        address === creator
          ? { address, name: null, bio: null, songs: 2, coins: 1, image: 'ipfs://bafkreicover' }
          : address === named
            ? {
                address,
                name: 'Zoë "DJ" <b>',
                bio: 'Night drives & <script>alert(1)</script>',
                songs: 1,
                coins: 0,
                image: 'ipfs://bafkreiavatar',
              }
            : null,
      );
    app.use('/app', devAppRouter({ rpcUrl: 'http://127.0.0.1:8545', contracts: {}, developmentWallet: false }, { songCard, creatorCard }));
    // Stands in for the API's JSON 404 that follows the app in scripts/dev-stack.ts.
    app.use((_req, res) => {
      res.status(404).json({ error: { code: 'NOT_FOUND' } });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const page = (path: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') => fetch(`${base}${path}`, { headers: { accept } });

  it("answers an unknown /app/ page with 404 and the app's own page (its not-found view), not the API's JSON", async () => {
    const known = await page('/app/discover');
    assert.equal(known.status, 200);
    const app = await known.text();
    const uploads = await page('/app/uploads');
    assert.equal(uploads.status, 200, 'the uploads view');
    assert.equal(await uploads.text(), app);
    for (const path of [
      '/app/no-such-page',
      '/app/song/0',
      '/app/songs/12/extra',
      '/app/song/8',
      '/app/creator/0x12',
      '/app/creator/not-an-address',
    ]) {
      const missing = await page(path);
      assert.equal(missing.status, 404, path);
      assert.match(missing.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(await missing.text(), app, 'the same app page, which renders "Page not found" for the path');
    }
  });

  it('leaves a missing asset or a JSON client to the JSON 404', async () => {
    const asset = await page('/app/assets/missing.js', '*/*');
    assert.equal(asset.status, 404);
    assert.match(asset.headers.get('content-type') ?? '', /^application\/json/);
    const api = await page('/app/no-such-page', 'application/json');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /^application\/json/);
  });

  it("serves a song page with its Open Graph and Twitter card tags in the head, escaped, ipfs:// through this server's gateway", async () => {
    const plain = await (await page('/app/discover')).text();
    const song = await page('/app/song/7');
    assert.equal(song.status, 200);
    const html = await song.text();
    const head = html.slice(0, html.indexOf('</head>'));
    assert.match(head, /<title>Night &#34;drive&#34; &#60;script&#62; · Songmint<\/title>/);
    assert.match(head, /<meta property="og:title" content="Night &#34;drive&#34; &#60;script&#62;">/);
    assert.match(head, new RegExp(`<meta property="og:url" content="${base}/app/song/7">`));
    assert.match(head, new RegExp(`<meta property="og:image" content="${base}/ipfs/bafkreicover">`));
    assert.match(head, new RegExp(`<meta property="og:audio" content="${base}/ipfs/bafkreiaudio">`));
    assert.match(head, /<meta name="twitter:card" content="player">/);
    assert.match(head, new RegExp(`<meta name="twitter:player:stream" content="${base}/ipfs/bafkreiaudio">`));
    assert.doesNotMatch(html, /<script>/, 'the title cannot open a script');
    // No answer (the API down): the plain page, still 200 (the app reads the chain itself).
    const unknown = await page('/app/song/9');
    assert.equal(unknown.status, 200);
    assert.equal(await unknown.text(), plain);
  });

  it("serves a creator's profile with its Open Graph tags, any address without a card as the plain page, and the portfolio page", async () => {
    const plain = await (await page('/app/discover')).text();
    const profile = await page('/app/creator/0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
    assert.equal(profile.status, 200);
    const head = (await profile.text()).split('</head>')[0] ?? '';
    assert.match(head, /<title>0x3C44…93BC on Songmint<\/title>/);
    assert.match(head, /<meta property="og:type" content="profile">/);
    assert.match(head, /<meta property="og:description" content="2 songs minted, 1 coin launched on Songmint.">/);
    assert.match(head, new RegExp(`<meta property="og:url" content="${base}/app/creator/0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC">`));
    assert.match(head, new RegExp(`<meta property="og:image" content="${base}/ipfs/bafkreicover">`));
    const other = await page(`/app/creator/0x${'ab'.repeat(20)}`);
    assert.equal(other.status, 200);
    assert.equal(await other.text(), plain);
    // A creator who set a name and a bio: the name titles the card, the bio describes it, escaped.
    const card = await page(`/app/creator/${named}`);
    const namedHead = (await card.text()).split('</head>')[0] ?? '';
    assert.match(namedHead, /<title>Zoë &#34;DJ&#34; &#60;b&#62; on Songmint<\/title>/);
    assert.match(namedHead, /<meta property="og:title" content="Zoë &#34;DJ&#34; &#60;b&#62; on Songmint">/);
    assert.match(
      namedHead,
      /<meta property="og:description" content="Night drives &#38; &#60;script&#62;alert\(1\)&#60;\/script&#62; · 1 song minted, 0 coins launched on Songmint.">/,
    );
    assert.match(namedHead, new RegExp(`<meta property="og:image" content="${base}/ipfs/bafkreiavatar">`));
    assert.match(namedHead, /<meta property="og:image:alt" content="Picture of Zoë &#34;DJ&#34; &#60;b&#62; on Songmint">/);
    assert.match(namedHead, /<meta name="fc:miniapp" content="[^"]*Open on Songmint/);
    assert.doesNotMatch(namedHead, /<script>|<b>/, 'nothing the creator typed opens an element');
    const portfolio = await page('/app/portfolio');
    assert.equal(portfolio.status, 200);
    assert.equal(await portfolio.text(), plain);
  });
});
