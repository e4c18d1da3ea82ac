/**
 * The ETH/USD price of the coin pages' USD figures, from a Chainlink price feed (an
 * AggregatorV3Interface proxy) when one is configured (`ETH_USD_FEED_ADDRESS`). On Base that is
 * Chainlink's ETH / USD proxy `BASE_ETH_USD_FEED` (8 decimals, a new round at least every 20
 * minutes, `heartbeat` 1,200 s). The local chain of `npm start` has none: its pages show ETH only.
 *
 * A price is used only when the feed says what it is (`description()` is "ETH / USD"), its answer
 * is positive and its round is fresh (`updatedAt` within `maxAgeSeconds`); otherwise the pages
 * leave USD out (null) rather than show a wrong or stale figure, and the reason is logged. One
 * answer is reused for `cacheMs`, so public page views do not each cost an RPC call.
 */
import { parseAbi } from 'viem';
import type { Address, PublicClient } from 'viem';
import type { Logger } from 'pino';

/** Chainlink's ETH / USD feed on Base mainnet (chain 8453): the EACAggregatorProxy to read. */
export const BASE_ETH_USD_FEED: Address = '0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70';
/** What an ETH/USD feed's `description()` returns. */
export const ETH_USD_DESCRIPTION = 'ETH / USD';
/** Base's ETH / USD heartbeat is 1,200 s; an answer older than this is refused by default. */
export const DEFAULT_ETH_USD_MAX_AGE_SECONDS = 3_600;
const DEFAULT_CACHE_MS = 30_000;

export const AGGREGATOR_V3_ABI = parseAbi([
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

export interface EthUsdPrice {
  /** USD per ETH is `answer / 10^decimals`. */
  answer: bigint;
  decimals: number;
  updatedAt: Date;
  feed: Address;
}

/** The current ETH/USD price, or null when the feed cannot be trusted or read now. */
export type EthUsdReader = () => Promise<EthUsdPrice | null>;

export interface EthUsdReaderOptions {
  client: Pick<PublicClient, 'readContract'>;
  feed: Address;
  maxAgeSeconds?: number;
  cacheMs?: number;
  now: () => Date;
  logger: Pick<Logger, 'warn'>;
}

export function createEthUsdReader(options: EthUsdReaderOptions): EthUsdReader {
  const { client, feed, now, logger } = options;
  const maxAgeMs = (options.maxAgeSeconds ?? DEFAULT_ETH_USD_MAX_AGE_SECONDS) * 1000;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  let decimals: number | undefined;
  let cached: { price: EthUsdPrice | null; at: number } | undefined;

  async function read(): Promise<EthUsdPrice | null> {
    if (decimals === undefined) {
      const [description, feedDecimals] = await Promise.all([
        client.readContract({ address: feed, abi: AGGREGATOR_V3_ABI, functionName: 'description' }),
        client.readContract({ address: feed, abi: AGGREGATOR_V3_ABI, functionName: 'decimals' }),
      ]);
      if (description !== ETH_USD_DESCRIPTION) {
        logger.warn({ feed, description }, `ETH_USD_FEED_ADDRESS is not an "${ETH_USD_DESCRIPTION}" feed: USD figures are left out`);
        return null;
      }
      decimals = feedDecimals;
    }
    const [, answer, , updatedAt] = await client.readContract({ address: feed, abi: AGGREGATOR_V3_ABI, functionName: 'latestRoundData' });
    const updated = new Date(Number(updatedAt) * 1000);
    if (answer <= 0n || now().getTime() - updated.getTime() > maxAgeMs) {
      logger.warn(
        { feed, answer: answer.toString(), updatedAt: updated.toISOString() },
        'the ETH/USD feed is stale or invalid: USD figures are left out',
      );
      return null;
    }
    return { answer, decimals, updatedAt: updated, feed };
  }

  return async () => {
    const at = now().getTime();
    if (cached !== undefined && at - cached.at < cacheMs) return cached.price;
    try {
      cached = { price: await read(), at };
    } catch (error) {
      logger.warn({ err: error, feed }, 'reading the ETH/USD feed failed: USD figures are left out');
      cached = { price: null, at };
    }
    return cached.price;
  };
}

/** `wei` in US dollars at `price`, a decimal string with two places, rounded down ("1234.56"). */
export function usdOf(wei: bigint, price: Pick<EthUsdPrice, 'answer' | 'decimals'>): string {
  const cents = (wei * price.answer * 100n) / 10n ** BigInt(18 + price.decimals);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
