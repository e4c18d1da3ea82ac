import type { Request } from 'express';
import { formatEther, getAddress } from 'viem';
import { z } from 'zod';
import { appError, fail, ok } from '../../domain/errors.ts';
import type { Result } from '../../domain/errors.ts';
import type { Queryable } from '../../../../core/src/db/database.ts';
import { findCoins, percentChange, tokensValueWei, weiPerMillionTokens } from '../../domain/coins.ts';
import { DISCOVER_SORTS, decodeDiscoverCursor, discoverSongIds, encodeDiscoverCursor } from '../../domain/discover.ts';
import type { DiscoverStart } from '../../domain/discover.ts';
import { poolPrices } from '../../domain/pools.ts';
import type { AppDeps, TradingServices } from '../deps.ts';
import { sendError } from '../error-response.ts';
import type { PublicCall, RouteDocs } from '../route.ts';
import { describeIssues, variantCErrorSchema } from '../schemas.ts';
import { noNul } from '../schema-parts.ts';
import { POOLS_DEFAULT_LIMIT, POOLS_MAX_LIMIT, pageQuerySchema } from './trading.ts';

/**
 * GET /v1/public/songs and /v1/public/songs/{songId} (extension): what a visitor without a wallet
 * sees of a song, read beside the spec's bearer routes (which keep their token): its title,
 * cover, audio and lyrics from the metadata this oracle published, and for launched songs the
 * price and volume. Everything here is public already (the token's metadata on IPFS, the pool on
 * chain); the route table charges it per client address (`ip`, trading), like the swap history.
 */
export type PublicSongsDeps = Pick<AppDeps, 'db' | 'now'> & TradingServices;

const uriField = (description: string) => z.string().nullable().meta({ description });

const songFields = {
  song_id: z.string().meta({ description: 'SongNFT token id.', example: '1' }),
  title: z.string().nullable().meta({ description: "The metadata's `name`; null when this oracle did not publish the metadata." }),
  description: z.string().nullable(),
  genre: z.string().nullable().meta({ description: 'The `genre` attribute, when the creator gave one.' }),
  image: uriField('The cover (`image`, usually `ipfs://…`: fetch through this API at `/ipfs/<cid>`).'),
  audio: uriField('The song (`animation_url`, usually `ipfs://…`), else the generated audio URL.'),
  creator: z.string().meta({ description: 'The address that minted it (EIP-55 checksummed).' }),
  creator_name: z.string().nullable().meta({
    description:
      'The display name the creator set (PATCH /v1/user/profile); null: none (show the address). Their Farcaster name, when they set none, is on GET /v1/public/creators/{address}.',
  }),
  minted_at: z.iso.datetime().nullable(),
  page_url: z.string().meta({ description: "The web app's page of the song.", example: '/app/song/1' }),
};

export const publicSongSchema = z
  .strictObject({
    ...songFields,
    lyrics: z
      .string()
      .nullable()
      .meta({ description: 'The lyrics the song was sung with (the generation record); null for instrumentals.' }),
    launched_at: z.iso.datetime().nullable().meta({ description: 'Null until its launch is indexed.' }),
  })
  .meta({ id: 'PublicSong' });

export const publicLaunchedSongSchema = z
  .strictObject({
    ...songFields,
    launched_at: z.iso.datetime(),
    tokens_per_eth: z.string().nullable().meta({ description: 'Song tokens per ETH at the latest indexed swap (or the launch).' }),
    price_eth_per_million_tokens: z
      .string()
      .nullable()
      .meta({ description: "ETH per 1,000,000 tokens at the same price, decimal (the app's price unit).", example: '0.010020' }),
    change_24h_percent: z.string().nullable().meta({
      description:
        "The price's change against 24 hours ago (the last swap before then, else the launch price), percent with two places, as the coin page's.",
      example: '-3.25',
    }),
    market_cap: z
      .string()
      .nullable()
      .meta({ description: 'Price times supply, wei; null before the launch price is indexed.', example: '10016000000000000000' }),
    volume_24h: z.strictObject({
      eth: z.string().meta({ description: 'Wei swapped in the last 24 hours.' }),
      trades: z.number().int(),
    }),
  })
  .meta({ id: 'PublicLaunchedSong' });

export const publicSongsSchema = z
  .strictObject({
    songs: z.array(publicLaunchedSongSchema).meta({ description: 'In the order `sort` asked for (newest launch first by default).' }),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .meta({ id: 'PublicSongs' });

export type SongFields = z.infer<z.ZodObject<typeof songFields>>;

export interface SongRow {
  token_id: string;
  minter: string;
  used_at: Date | null;
  audio_url: string | null;
  document: Record<string, unknown> | null;
  launched_at: Date | null;
  creator_name: string | null;
}

const SONG_ROWS = `
SELECT s.token_id::text AS token_id, s.minter, s.used_at, j.audio_url,
       (SELECT m.document FROM song_metadata m WHERE m.metadata_uri = s.metadata_uri ORDER BY m.created_at LIMIT 1) AS document,
       (SELECT p.launched_at FROM song_pools p WHERE p.song_id = s.token_id) AS launched_at,
       (SELECT u.display_name FROM users u WHERE u.wallet_address = s.minter) AS creator_name
  FROM mint_signatures s JOIN generation_jobs j ON j.id = s.job_id
 WHERE s.token_id = ANY($1::bigint[])`;

export async function songRows(db: Queryable, songIds: readonly string[]): Promise<Map<string, SongRow>> {
  if (songIds.length === 0) return new Map();
  const rows = await db.manyOrNone<SongRow>(SONG_ROWS, [songIds]);
  return new Map(rows.map((row) => [row.token_id, row]));
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function fieldsOf(songId: string, row: SongRow | undefined, creator: string): SongFields {
  const document = row?.document ?? {};
  const attributes = Array.isArray(document.attributes) ? (document.attributes as Array<{ trait_type?: unknown; value?: unknown }>) : [];
  return {
    song_id: songId,
    title: text(document.name),
    description: text(document.description),
    genre: text(attributes.find((attribute) => attribute.trait_type === 'genre' || attribute.trait_type === 'Genre')?.value),
    image: text(document.image),
    audio: text(document.animation_url) ?? row?.audio_url ?? null,
    creator: getAddress(row?.minter ?? creator),
    creator_name: row?.creator_name ?? null,
    minted_at: row?.used_at?.toISOString() ?? null,
    page_url: `/app/song/${songId}`,
  };
}

function lyricsOf(row: SongRow): string | null {
  const properties = row.document?.properties;
  const generation =
    typeof properties === 'object' && properties !== null ? (properties as { generation?: unknown }).generation : undefined;
  return typeof generation === 'object' && generation !== null ? text((generation as { lyrics?: unknown }).lyrics) : null;
}

export const publicSongsQuerySchema = pageQuerySchema('Songs', POOLS_MAX_LIMIT, POOLS_DEFAULT_LIMIT).extend({
  sort: z.enum(DISCOVER_SORTS).optional().meta({
    description:
      'The order: `newest` launch first (the default), `market_cap` largest first, `volume_24h` (ETH swapped in the last 24 hours) largest first; ties newest first. A cursor belongs to its order.',
  }),
  q: z.string().trim().min(1, 'must not be empty').max(80).refine(noNul, 'must not contain NUL characters').optional().meta({
    description: 'Keeps the songs whose title, genre or creator address contains it (any case); 1 to 80 characters.',
    example: 'piano',
  }),
});

export interface PublicSongsInput {
  start: DiscoverStart;
  query: string | undefined;
  limit: number;
}

/** GET /v1/public/songs's query: a bad sort, search, cursor (or one of another order) or limit is 400 before the charge. */
export function publicSongsInput(req: Request): Result<PublicSongsInput> {
  const query = publicSongsQuerySchema.safeParse(req.query);
  if (!query.success) return fail(appError('VALIDATION_ERROR', 'Invalid query', { details: describeIssues(query.error) }));
  const start = decodeDiscoverCursor(query.data.sort ?? 'newest', query.data.cursor);
  if (!start.ok) return start;
  return ok({ start: start.value, query: query.data.q, limit: query.data.limit ?? POOLS_DEFAULT_LIMIT });
}

/** GET /v1/public/songs: launched songs as a visitor sees them, in the order asked for, optionally searched. */
export function publicSongsHandler(deps: PublicSongsDeps): (call: PublicCall<PublicSongsInput>) => Promise<void> {
  return async ({ res, input: { start, query, limit } }) => {
    const now = deps.now();
    const listed = await discoverSongIds(deps.db, { start, query, limit: limit + 1, now });
    const page = listed.slice(0, limit);
    const ids = page.map((song) => song.songId);
    const [coins, rows] = await Promise.all([findCoins(deps.db, { songIds: ids, now }), songRows(deps.db, ids)]);
    const last = page.at(-1);
    res.json({
      songs: page.flatMap(({ songId }) => {
        const coin = coins.get(songId);
        if (coin === undefined) return [];
        const sqrt = coin.sqrt_price_x96 === null ? null : BigInt(coin.sqrt_price_x96);
        const perMillion = sqrt === null ? null : weiPerMillionTokens(sqrt);
        const before = coin.sqrt_price_x96_24h_ago === null ? null : weiPerMillionTokens(BigInt(coin.sqrt_price_x96_24h_ago));
        return [
          {
            ...fieldsOf(songId, rows.get(songId), coin.creator),
            launched_at: coin.launched_at.toISOString(),
            tokens_per_eth: sqrt === null ? null : poolPrices(sqrt).tokensPerEth,
            price_eth_per_million_tokens: perMillion === null ? null : formatEther(perMillion),
            change_24h_percent: perMillion === null ? null : percentChange(before, perMillion),
            market_cap: sqrt === null ? null : tokensValueWei(BigInt(coin.supply), sqrt).toString(),
            volume_24h: { eth: coin.volume_eth_24h, trades: coin.trades_24h },
          },
        ];
      }),
      next_cursor: listed.length > limit && last !== undefined ? encodeDiscoverCursor(start, last.position, page.length) : null,
    } satisfies z.infer<typeof publicSongsSchema>);
  };
}

/** Reads one minted song as a visitor sees it, or null when no such token is indexed (the app's page head uses it too). */
export async function findPublicSong(db: Queryable, songId: bigint): Promise<z.infer<typeof publicSongSchema> | null> {
  const row = (await songRows(db, [songId.toString()])).get(songId.toString());
  if (row === undefined) return null;
  return { ...fieldsOf(row.token_id, row, row.minter), lyrics: lyricsOf(row), launched_at: row.launched_at?.toISOString() ?? null };
}

/** GET /v1/public/songs/{songId}: one minted song, launched or not. */
export function publicSongHandler(deps: Pick<AppDeps, 'db'>): (call: PublicCall<bigint>) => Promise<void> {
  return async ({ req, res, input: songId }) => {
    const song = await findPublicSong(deps.db, songId);
    if (song === null) {
      sendError(
        req,
        res,
        appError('NOT_FOUND', 'Song not found', {
          details: 'no Songmint token with this id has been indexed',
          fields: { songId: songId.toString() },
        }),
      );
      return;
    }
    res.json(song satisfies z.infer<typeof publicSongSchema>);
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: variantCErrorSchema } } });

export const publicSongsDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Extension: launched songs as a visitor sees them (title, cover, audio, price, market cap, 24 h change), no token needed',
  description:
    'Public beside the bearer routes /v1/trading/pools and /v1/nft/{id}, which keep their token: Discover without a wallet, newest launch first or by market cap or 24 h volume, optionally searched by title, genre or creator address. Charged per client address at the hourly trading limit.',
  request: { query: publicSongsQuerySchema },
  responses: {
    200: { description: 'A page of launched songs.', content: { 'application/json': { schema: publicSongsSchema } } },
    400: error('VALIDATION_ERROR: a bad sort, search, cursor (or a cursor of another order) or limit'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};

export const publicSongDocs: RouteDocs = {
  tags: ['v1'],
  summary: 'Extension: one minted song as a visitor sees it (title, cover, audio, lyrics), no token needed',
  description: 'What a shared song link shows. Charged per client address at the hourly trading limit.',
  request: { params: z.object({ songId: z.string().meta({ description: 'SongNFT token id.', example: '1' }) }) },
  responses: {
    200: { description: 'The song.', content: { 'application/json': { schema: publicSongSchema } } },
    400: error('VALIDATION_ERROR'),
    404: error('NOT_FOUND'),
    429: error('RATE_002: the hourly trading limit of this client address'),
  },
};
