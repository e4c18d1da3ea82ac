/**
 * The reference dApp for `npm start`: its build (app/ with Vite, into app/dist), made when it is
 * missing or older than its sources, so a fresh clone needs only `npm install && npm start`, and
 * the router that serves it at /app with the stack's chain in /app/config.json.
 *
 *   npx tsx scripts/dev-app.ts      # build now
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import type { Request, Response } from 'express';
import { renderEmbedCard } from './embed-card.ts';
import type { EmbedCard } from './embed-card.ts';
import { miniAppEmbedTags } from './miniapp-embed.ts';
import { escapeMarkup } from './escape-markup.ts';
import { withDirectoryLock } from './directory-lock.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const APP_DIST = join(ROOT, 'app', 'dist');
/** Everything the build reads from this repository. */
const SOURCES = ['app/index.html', 'app/vite.config.ts', 'app/src', 'sdk/src', 'sdk/package.json', 'package-lock.json'].map((path) =>
  join(ROOT, path),
);

async function newestMtime(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  const times = await Promise.all(entries.map((entry) => newestMtime(join(path, entry))));
  return Math.max(info.mtimeMs, ...times);
}

/** True when app/dist is missing or older than a source. */
export async function appBuildIsStale(): Promise<boolean> {
  const built = await stat(join(APP_DIST, 'index.html')).catch(() => undefined);
  if (built === undefined) return true;
  const sources = await Promise.all(SOURCES.map(newestMtime));
  return Math.max(...sources) > built.mtimeMs;
}

/**
 * Builds app/dist when stale; returns whether it built. One process builds at a time (the others
 * wait, then find it fresh). The build goes to a fresh folder that takes app/dist's place by two
 * renames, so a running server never sees half a build, nor none for longer than between them.
 */
export async function ensureAppBuilt(): Promise<boolean> {
  if (!(await appBuildIsStale())) return false;
  return withDirectoryLock(`${APP_DIST}.lock`, async () => {
    if (!(await appBuildIsStale())) return false;
    const { build } = await import('vite');
    const staging = `${APP_DIST}.building-${process.pid}`;
    const previous = `${APP_DIST}.previous-${process.pid}`;
    try {
      // logLevel error: viem's optional Tempo code names node:worker_threads, which the page never loads.
      await build({ configFile: join(ROOT, 'app', 'vite.config.ts'), logLevel: 'error', build: { outDir: staging, emptyOutDir: true } });
      if (existsSync(APP_DIST)) await rename(APP_DIST, previous);
      await rename(staging, APP_DIST);
    } finally {
      await Promise.all([staging, previous].map((path) => rm(path, { recursive: true, force: true })));
    }
    return true;
  });
}

/** What the page reads from ./config.json (app/src/config.ts). */
export interface DevAppConfig {
  rpcUrl: string;
  contracts: Readonly<Record<string, string>>;
  developmentWallet: boolean;
  /**
   * Farcaster sign-in: `relayUrl` (AuthKit's relay) only when the API verifies Sign In With
   * Farcaster (FARCASTER_RPC_URL set); `quickAuthOrigin` is the Quick Auth server a Mini App asks.
   */
  farcaster?: { relayUrl?: string; quickAuthOrigin: string };
}

/** What a shared song link's preview card shows (GET /v1/public/songs/{songId} answers it). */
export interface SongCard {
  title: string | null;
  description: string | null;
  /** `ipfs://…` or http(s). */
  image: string | null;
  audio: string | null;
}

/** What a shared creator link's preview card shows (GET /v1/public/creators/{address} answers it). */
export interface CreatorCard {
  /** EIP-55. */
  address: string;
  /** The display name the creator set (PATCH /v1/user/profile); null: the short address. */
  name: string | null;
  /** The bio the creator set; null: the card says what they made. */
  bio: string | null;
  songs: number;
  coins: number;
  /** The creator's avatar, else the newest song's cover: `ipfs://…` or http(s), if there is one. */
  image: string | null;
}

export interface DevAppOptions {
  /**
   * The song behind /app/song/<id>: its tags go into the page's head; null when there is no such
   * song (the page answers 404); a rejection when that cannot be told now (the plain page, 200).
   */
  songCard?: (songId: bigint) => Promise<SongCard | null>;
  /** The creator behind /app/creator/<address>, for its tags; null or a rejection: the plain page. */
  creatorCard?: (address: string) => Promise<CreatorCard | null>;
  /** The bytes of a cover (`ipfs://…` or http(s)) for the embed pictures; null when it cannot be had. */
  coverBytes?: (uri: string) => Promise<Uint8Array | null>;
  /** The coin's value line for a song's embed picture ("Market cap 1.25 ETH"); null before launch. */
  coinValue?: (songId: bigint) => Promise<string | null>;
}

/**
 * Open Graph and Twitter card tags of a song page, so a shared link previews with its title,
 * cover and audio (crawlers read the served HTML; they run no script). ipfs:// URIs go through
 * this server's gateway; every URL is absolute, as the protocols require.
 */
export function songHeadTags(card: SongCard, pageUrl: string, origin: string): string {
  const absolute = (uri: string) =>
    uri.startsWith('ipfs://') ? `${origin}/ipfs/${uri.slice('ipfs://'.length)}` : new URL(uri, origin).href;
  const title = card.title ?? 'A song on Songmint';
  const description = card.description ?? 'An AI-generated song, minted on Songmint.';
  const tags: Array<[string, string, string]> = [
    ['property', 'og:type', 'music.song'],
    ['property', 'og:site_name', 'Songmint'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', pageUrl],
    ['name', 'description', description],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ];
  if (card.image !== null) {
    const image = absolute(card.image);
    tags.push(['property', 'og:image', image], ['property', 'og:image:alt', `Cover of ${title}`], ['name', 'twitter:image', image]);
  }
  if (card.audio !== null) {
    const audio = absolute(card.audio);
    tags.push(
      ['property', 'og:audio', audio],
      ['property', 'og:audio:type', 'audio/mpeg'],
      ['name', 'twitter:card', 'player'],
      ['name', 'twitter:player', pageUrl],
      ['name', 'twitter:player:width', '480'],
      ['name', 'twitter:player:height', '480'],
      ['name', 'twitter:player:stream', audio],
      ['name', 'twitter:player:stream:content_type', 'audio/mpeg'],
    );
  } else tags.push(['name', 'twitter:card', card.image === null ? 'summary' : 'summary_large_image']);
  return [
    `<title>${escapeMarkup(title)} · Songmint</title>`,
    ...tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeMarkup(value)}">`),
    ...miniAppEmbedTags({ imageUrl: `${pageUrl}/embed.png`, buttonTitle: 'Listen on Songmint', url: pageUrl, appName: 'Songmint' }),
  ].join('\n  ');
}

const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** Open Graph and Twitter card tags of a creator's profile page (scripts/dev-app.ts serves them). */
export function creatorHeadTags(card: CreatorCard, pageUrl: string, origin: string): string {
  const title = `${card.name ?? shortAddress(card.address)} on Songmint`;
  const made = `${card.songs} ${card.songs === 1 ? 'song' : 'songs'} minted, ${card.coins} ${card.coins === 1 ? 'coin' : 'coins'} launched on Songmint.`;
  const description = card.bio === null ? made : `${card.bio} · ${made}`;
  const tags: Array<[string, string, string]> = [
    ['property', 'og:type', 'profile'],
    ['property', 'og:site_name', 'Songmint'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', pageUrl],
    ['name', 'description', description],
    ['name', 'twitter:card', card.image === null ? 'summary' : 'summary_large_image'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ];
  if (card.image !== null) {
    const image = card.image.startsWith('ipfs://')
      ? `${origin}/ipfs/${card.image.slice('ipfs://'.length)}`
      : new URL(card.image, origin).href;
    tags.push(['property', 'og:image', image], ['property', 'og:image:alt', `Picture of ${title}`], ['name', 'twitter:image', image]);
  }
  return [
    `<title>${escapeMarkup(title)}</title>`,
    ...tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeMarkup(value)}">`),
    ...miniAppEmbedTags({ imageUrl: `${pageUrl}/embed.png`, buttonTitle: 'Open on Songmint', url: pageUrl, appName: 'Songmint' }),
  ].join('\n  ');
}

const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/**
 * The built page with a song's tags in its head; `missing` when there is no such song; the plain
 * page when that cannot be told now (the API down: the app reads the chain itself).
 */
async function songPage(req: Request, songId: bigint, options: DevAppOptions): Promise<{ html: string; missing: boolean }> {
  const page = await readFile(join(APP_DIST, 'index.html'), 'utf8');
  const card = await options.songCard?.(songId).catch(() => undefined);
  if (card === null) return { html: page, missing: true };
  if (card === undefined) return { html: page, missing: false };
  const origin = originOf(req);
  return {
    // A replacer function: a replacement string would read `$'`, `$&` or `$1` in a title as patterns.
    html: page.replace('<title>Songmint</title>', () => songHeadTags(card, `${origin}${req.baseUrl}${req.path}`, origin)),
    missing: false,
  };
}

/** The built page with a creator's tags in its head (the plain page when they cannot be read). */
async function creatorPage(req: Request, address: string, options: DevAppOptions): Promise<string> {
  const page = await readFile(join(APP_DIST, 'index.html'), 'utf8');
  const card = await options.creatorCard?.(address).catch(() => null);
  if (card === undefined || card === null) return page;
  const origin = originOf(req);
  return page.replace('<title>Songmint</title>', () => creatorHeadTags(card, `${origin}${req.baseUrl}${req.path}`, origin));
}

const coverOf = async (uri: string | null, options: DevAppOptions) =>
  uri === null ? null : ((await options.coverBytes?.(uri).catch(() => null)) ?? null);

/** A song's embed picture; null when there is no such song. */
async function songEmbedCard(songId: bigint, options: DevAppOptions): Promise<EmbedCard | null> {
  const card = await options.songCard?.(songId).catch(() => undefined);
  if (card === null) return null;
  const [cover, value] = await Promise.all([
    coverOf(card?.image ?? null, options),
    options.coinValue?.(songId).catch(() => null) ?? Promise.resolve(null),
  ]);
  return { title: card?.title ?? `Song #${songId}`, subtitle: null, value, cover };
}

/** A creator's embed picture: their avatar (else their newest cover), their name (else the address), their songs and coins. */
async function creatorEmbedCard(address: string, options: DevAppOptions): Promise<EmbedCard | null> {
  const card = await options.creatorCard?.(address).catch(() => null);
  if (card === undefined || card === null) return null;
  return {
    title: card.name ?? shortAddress(card.address),
    subtitle: `${card.songs} ${card.songs === 1 ? 'song' : 'songs'}, ${card.coins} ${card.coins === 1 ? 'coin' : 'coins'}`,
    value: null,
    cover: await coverOf(card.image, options),
  };
}

function sendEmbedCard(res: Response, card: EmbedCard | null): void {
  if (card === null) {
    res.status(404).type('text/plain').send('no such page');
    return;
  }
  // Clients cache the picture; a price moves, so not for long.
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('png').send(renderEmbedCard(card));
}

/**
 * Serves app/dist, its config.json and its routes (/discover, /uploads, /portfolio, /song/<tokenId> and
 * /creator/<address> with their card tags; a 404 page for a song that does not exist and for any
 * other path); mount at /app.
 */
export function devAppRouter(config: DevAppConfig, options: DevAppOptions = {}): Router {
  const router = Router();
  router.get('/config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(config);
  });
  router.use(express.static(APP_DIST, { index: 'index.html' }));
  // The app's own routes (app/src/main.ts: `routeOf`) are the same page: a shared song link opens.
  router.get(['/discover', '/uploads', '/portfolio'], (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(APP_DIST, 'index.html'));
  });
  router.get(/^\/song\/[1-9][0-9]{0,76}$/, (req, res, next) => {
    songPage(req, BigInt(req.path.slice('/song/'.length)), options).then(({ html, missing }) => {
      // No such song: 404, with the app's page, which shows its not-found view.
      res.status(missing ? 404 : 200).setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    }, next);
  });
  // The 3:2 pictures of the pages' fc:miniapp embeds (./embed-card.ts).
  router.get(/^\/song\/[1-9][0-9]{0,76}\/embed\.png$/, (req, res, next) => {
    const songId = BigInt(req.path.slice('/song/'.length, -'/embed.png'.length));
    songEmbedCard(songId, options).then((card) => sendEmbedCard(res, card), next);
  });
  router.get(/^\/creator\/0x[0-9a-fA-F]{40}\/embed\.png$/, (req, res, next) => {
    const address = req.path.slice('/creator/'.length, -'/embed.png'.length);
    creatorEmbedCard(address, options).then((card) => sendEmbedCard(res, card), next);
  });
  router.get(/^\/creator\/0x[0-9a-fA-F]{40}$/, (req, res, next) => {
    creatorPage(req, req.path.slice('/creator/'.length), options).then((html) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    }, next);
  });
  // Any other page a browser asks for is the app's own not-found view (app/src/main.ts: `routeOf`
  // gives `missing`), answered 404; other clients (scripts, missing assets) get the API's 404.
  router.get(/.*/, (req, res, next) => {
    if (req.accepts(['json', 'html']) !== 'html') {
      next();
      return;
    }
    res.status(404).setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(APP_DIST, 'index.html'));
  });
  return router;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureAppBuilt().then(
    (built) => console.log(built ? `built ${APP_DIST}` : `${APP_DIST} is up to date`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
