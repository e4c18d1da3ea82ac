import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient, UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { buy, claimAllocation, claimFees, launchSong, quoteTrade, readAllocation, readLaunchTerms, sell } from '@songmint/sdk';
import type {
  ClaimedAllocation,
  ClaimedFees,
  ClaimFeesParameters,
  HeldAllocation,
  LaunchedSong,
  LaunchSongParameters,
  LaunchTerms,
  QuoteParameters,
  SongmintError,
  SwapParameters,
  SwapResult,
  TradeQuote,
} from '@songmint/sdk';
import type { Address } from 'viem';
import { chainOf, readerOf } from '../chain.ts';
import { useConnectedAddress, useSongmintContext } from '../provider.ts';
import { followIndex } from '../indexed.ts';
import { songmintKeys } from '../query-keys.ts';

/** Base makes a block every 2 s; a shown quote is asked again at this pace while it is on screen. */
const QUOTE_REFRESH_MS = 4_000;

/** What a launch commits to (supply, allocation cap, fees), read from the contracts once. */
export function useLaunchTerms(): UseQueryResult<LaunchTerms, SongmintError> {
  const { run, config, contracts } = useSongmintContext();
  return useQuery<LaunchTerms, SongmintError>({
    queryKey: songmintKeys.launchTerms(),
    queryFn: () => run(() => readLaunchTerms(readerOf(config, contracts))),
    staleTime: Infinity,
  });
}

/**
 * After a launch, a trade or a claim mined in `block`: the chain reads it changed (quotes, the
 * allocation) are fetched again before the mutation settles; the oracle's indexed reads (the
 * coin, the wallet's portfolio and creator page) follow the index to that block in the background.
 */
async function refreshSong(queryClient: QueryClient, songId: bigint, wallet: Address | undefined, block: bigint): Promise<void> {
  void followIndex(queryClient, songmintKeys.coin(songId), block);
  if (wallet !== undefined) {
    void followIndex(queryClient, songmintKeys.portfolio(wallet), block);
    void followIndex(queryClient, songmintKeys.creator(wallet), block);
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: songmintKeys.quotes(songId) }),
    queryClient.invalidateQueries({ queryKey: songmintKeys.allocation(songId) }),
  ]);
}

/** Launches a minted song: its token, its Uniswap v4 pool with locked liquidity, the allocation held. */
export function useLaunchSong(): UseMutationResult<LaunchedSong, SongmintError, LaunchSongParameters> {
  const { run, config, contracts } = useSongmintContext();
  const wallet = useConnectedAddress();
  const queryClient = useQueryClient();
  return useMutation<LaunchedSong, SongmintError, LaunchSongParameters>({
    mutationFn: (parameters) => run(async () => launchSong(await chainOf(config, contracts), parameters)),
    onSuccess: (launched) => refreshSong(queryClient, launched.songId, wallet, launched.receipt.blockNumber),
  });
}

/**
 * A quote for a buy or a sell in the block a transaction sent now joins (the V4Quoter on the real
 * pool, fees included), asked again every 4 s while shown. Undefined parameters: no quote.
 */
export function useQuote(
  parameters: QuoteParameters | undefined,
  { refetchIntervalMs = QUOTE_REFRESH_MS }: { refetchIntervalMs?: number | false } = {},
): UseQueryResult<TradeQuote, SongmintError> {
  const { run, config, contracts } = useSongmintContext();
  const slippageBps = parameters?.slippageBps ?? 100;
  return useQuery<TradeQuote, SongmintError>({
    queryKey:
      parameters === undefined
        ? ['songmint', 'quote', 'none']
        : songmintKeys.quote(parameters.songId, parameters.side, parameters, slippageBps),
    queryFn: () => run(() => quoteTrade(readerOf(config, contracts), parameters ?? ({} as QuoteParameters))),
    enabled: parameters !== undefined,
    refetchInterval: refetchIntervalMs,
    retry: false,
  });
}

function useSwap(swap: typeof buy): UseMutationResult<SwapResult, SongmintError, SwapParameters> {
  const { run, config, contracts } = useSongmintContext();
  const wallet = useConnectedAddress();
  const queryClient = useQueryClient();
  return useMutation<SwapResult, SongmintError, SwapParameters>({
    mutationFn: (parameters) => run(async () => swap(await chainOf(config, contracts), parameters)),
    onSuccess: (result) => refreshSong(queryClient, result.songId, wallet, result.receipt.blockNumber),
  });
}

/**
 * Buys the song's token with ETH through the Universal Router (exact ETH in, or exact tokens out).
 * An unaffordable trade is INSUFFICIENT_BALANCE, one the pool cannot fill QUOTE_FAILED; nothing is sent.
 */
export function useBuy(): UseMutationResult<SwapResult, SongmintError, SwapParameters> {
  return useSwap(buy);
}

/** Sells the song's token for ETH through the Universal Router, the tokens moved by a Permit2 signature for this sale. */
export function useSell(): UseMutationResult<SwapResult, SongmintError, SwapParameters> {
  return useSwap(sell);
}

/** Collects and claims the wallet's fees of songs (creator share as payout recipient). */
export function useClaimFees(): UseMutationResult<ClaimedFees, SongmintError, ClaimFeesParameters> {
  const { run, config, contracts } = useSongmintContext();
  const wallet = useConnectedAddress();
  const queryClient = useQueryClient();
  return useMutation<ClaimedFees, SongmintError, ClaimFeesParameters>({
    mutationFn: (parameters) => run(async () => claimFees(await chainOf(config, contracts), parameters)),
    onSuccess: (claimed) =>
      Promise.all(claimed.claimed.map(({ songId }) => refreshSong(queryClient, songId, wallet, claimed.receipt.blockNumber))).then(
        () => undefined,
      ),
  });
}

/** The allocation the vault holds for a song's recipient, and from when it can be claimed. */
export function useAllocation(songId: bigint | undefined): UseQueryResult<HeldAllocation, SongmintError> {
  const { run, config, contracts } = useSongmintContext();
  return useQuery<HeldAllocation, SongmintError>({
    queryKey: songId === undefined ? ['songmint', 'allocation', 'none'] : songmintKeys.allocation(songId),
    queryFn: () => run(() => readAllocation(readerOf(config, contracts), { songId: songId ?? 0n })),
    enabled: songId !== undefined,
  });
}

/** Mints the song's held allocation to its recipient once the launch window has passed. */
export function useClaimAllocation(): UseMutationResult<ClaimedAllocation, SongmintError, { songId: bigint }> {
  const { run, config, contracts } = useSongmintContext();
  const wallet = useConnectedAddress();
  const queryClient = useQueryClient();
  return useMutation<ClaimedAllocation, SongmintError, { songId: bigint }>({
    mutationFn: (parameters) => run(async () => claimAllocation(await chainOf(config, contracts), parameters)),
    onSuccess: (claimed) => refreshSong(queryClient, claimed.songId, wallet, claimed.receipt.blockNumber),
  });
}
