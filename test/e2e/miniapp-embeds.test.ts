import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { miniAppEmbedNextSchema, safeParseFrameEmbed } from '@farcaster/miniapp-core';
import express from 'express';
import { devAppRouter, ensureAppBuilt } from '../../scripts/dev-app.ts';
import type { SongCard } from '../../scripts/dev-app.ts';
import { EMBED_CARD_HEIGHT, EMBED_CARD_WIDTH } from '../../scripts/embed-card.ts';
import { RGB, encodePng } from '../../scripts/png.ts';

const CREATOR = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

interface Answer {
  status: number;
  type: string;
  body: Buffer;
}

/**
 * The song and creator pages as a Farcaster client fetches them through the operator's https
 * proxy (Host and X-Forwarded-Proto), with the page's fc:miniapp embed checked against the
 * published schema (@farcaster/miniapp-core), which takes https URLs on a named host only.
 */
describe('Farcaster Mini App embeds on shared pages', () => {
  let server: Server;
  let port: number;
  before(async () => {
    await ensureAppBuilt();
    const app = express();
    app.set('trust proxy', 'loopback');
    const cover = encodePng(8, 8, RGB, (x, y) => [x * 30, y * 30, 200]);
    const cards = new Map<bigint, SongCard>([
      [7n, { title: 'Night Drive', description: null, image: 'ipfs://bafkreicover', audio: 'ipfs://bafkreiaudio' }],
    ]);
    app.use(
      '/app',
      devAppRouter(
        { rpcUrl: 'http://127.0.0.1:8545', contracts: {}, developmentWallet: false },
        {
          songCard: (songId) => Promise.resolve(cards.get(songId) ?? null),
          creatorCard: (address) =>
            Promise.resolve(
              address === CREATOR ? { address, name: null, bio: null, songs: 2, coins: 1, image: 'ipfs://bafkreicover' } : null,
            ),
          coverBytes: (uri) => Promise.resolve(uri === 'ipfs://bafkreicover' ? cover : null),
          coinValue: (songId) => Promise.resolve(songId === 7n ? 'Market cap 1.25 ETH' : null),
        },
      ),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** GET through "the proxy": the public host and scheme in the headers a proxy sets. */
  const viaProxy = (path: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, headers: { host: 'songmint.test', 'x-forwarded-proto': 'https', accept: 'text/html' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  const unescape = (text: string) => text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

  function embedOf(html: string, name: string): unknown {
    const tag = new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html.split('</head>')[0] ?? '');
    assert.ok(tag?.[1] !== undefined, `the head has ${name}`);
    return JSON.parse(unescape(tag[1]));
  }

  function pngSize(bytes: Buffer): { width: number; height: number } {
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }

  for (const [page, button] of [
    ['/app/song/7', 'Listen on Songmint'],
    [`/app/creator/${CREATOR}`, 'Open on Songmint'],
  ] as const) {
    it(`${page} carries a valid fc:miniapp embed whose 3:2 picture and button open the page`, async () => {
      const answer = await viaProxy(page);
      assert.equal(answer.status, 200);
      const html = answer.body.toString('utf8');
      const parsed = miniAppEmbedNextSchema.safeParse(embedOf(html, 'fc:miniapp'));
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
      const embed = parsed.data;
      assert.equal(embed.aspectRatio, '3:2');
      assert.equal(embed.imageUrl, `https://songmint.test${page}/embed.png`);
      assert.equal(embed.button.title, button);
      assert.deepEqual(embed.button.action, { type: 'launch_miniapp', name: 'Songmint', url: `https://songmint.test${page}` });
      // The legacy name clients still read, with the legacy action.
      const frame = safeParseFrameEmbed(embedOf(html, 'fc:frame'));
      assert.ok(frame.success);
      assert.equal(frame.data.button.action.type, 'launch_frame');

      const picture = await viaProxy(`${page}/embed.png`);
      assert.equal(picture.status, 200);
      assert.match(picture.type, /^image\/png/);
      assert.deepEqual(pngSize(picture.body), { width: EMBED_CARD_WIDTH, height: EMBED_CARD_HEIGHT });
      assert.equal(EMBED_CARD_WIDTH * 2, EMBED_CARD_HEIGHT * 3, '3:2');
    });
  }

  it('answers 404 for the picture of a song or creator that does not exist', async () => {
    assert.equal((await viaProxy('/app/song/8/embed.png')).status, 404);
    assert.equal((await viaProxy(`/app/creator/0x${'ab'.repeat(20)}/embed.png`)).status, 404);
  });
});
