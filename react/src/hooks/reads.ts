import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, UseInfiniteQueryResult, UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { changeProfile, getCoin, getCoinTrades, getCreator, getPortfolio, getProfile } from '@songmint/sdk';
import type {
  ChangeProfileParameters,
  Coin,
  CoinTrades,
  CreatorProfile,
  Portfolio,
  PublicProfile,
  SongmintError,
  UserProfile,
} from '@songmint/sdk';
import type { Address } from 'viem';
import { useConnectedAddress, useSongmintContext } from '../provider.ts';
import { songmintKeys } from '../query-keys.ts';
import { requireSignedIn, useSignedIn } from './signed-in.ts';

/** The signed-in user's profile: tier, limits left, statistics. */
export function useProfile(): UseQueryResult<UserProfile, SongmintError> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useQuery<UserProfile, SongmintError>({
    queryKey: signedIn === undefined ? ['songmint', 'profile', 'none'] : songmintKeys.profile(signedIn.address),
    queryFn: ({ signal }) => run(() => getProfile(requireSignedIn(signedIn).api, { signal })),
    enabled: signedIn !== undefined,
  });
}

/**
 * Sets the signed-in user's display name, bio or avatar; on success the account's profile and its
 * creator page are read again (everything that shows the name).
 */
export function useChangeProfile(): UseMutationResult<PublicProfile, SongmintError, ChangeProfileParameters> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<PublicProfile, SongmintError, ChangeProfileParameters>({
    mutationFn: (parameters) => run(() => changeProfile(requireSignedIn(signedIn).api, parameters)),
    onSuccess: async () => {
      if (signedIn === undefined) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: songmintKeys.profile(signedIn.address) }),
        queryClient.invalidateQueries({ queryKey: songmintKeys.creator(signedIn.address) }),
      ]);
    },
  });
}

/** A launched song's coin page: price, market cap, volume, holders, the creator's earnings (public; NOT_FOUND until indexed). */
export function useCoin(songId: bigint | undefined): UseQueryResult<Coin, SongmintError> {
  const { api, run } = useSongmintContext();
  return useQuery<Coin, SongmintError>({
    queryKey: songId === undefined ? ['songmint', 'coin', 'none'] : songmintKeys.coin(songId),
    queryFn: ({ signal }) => run(() => getCoin(api, { songId: songId ?? 0n, signal })),
    enabled: songId !== undefined,
  });
}

/** A coin's trades, newest first, a cursor page at a time (public). */
export function useCoinTrades(
  songId: bigint | undefined,
  { limit = 50 }: { limit?: number } = {},
): UseInfiniteQueryResult<InfiniteData<CoinTrades, string | undefined>, SongmintError> {
  const { api, run } = useSongmintContext();
  return useInfiniteQuery<CoinTrades, SongmintError, InfiniteData<CoinTrades, string | undefined>, readonly unknown[], string | undefined>({
    queryKey: songId === undefined ? ['songmint', 'coin-trades', 'none'] : [...songmintKeys.coinTrades(songId), { limit }],
    queryFn: ({ pageParam, signal }) =>
      run(() => getCoinTrades(api, { songId: songId ?? 0n, limit, signal, ...(pageParam === undefined ? {} : { cursor: pageParam }) })),
    initialPageParam: undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    enabled: songId !== undefined,
  });
}

/** A creator's profile: name, bio and avatar, minted songs, launched coins, total earnings (public). */
export function useCreator(address: Address | undefined): UseQueryResult<CreatorProfile, SongmintError> {
  const { api, run } = useSongmintContext();
  return useQuery<CreatorProfile, SongmintError>({
    queryKey: address === undefined ? ['songmint', 'creator', 'none'] : songmintKeys.creator(address),
    queryFn: ({ signal }) => run(() => getCreator(api, { address: address ?? '0x', signal })),
    enabled: address !== undefined,
  });
}

/** A wallet's portfolio (the connected wallet's when `address` is left out): tokens held, fees and allocations owed (public). */
export function usePortfolio(address?: Address): UseQueryResult<Portfolio, SongmintError> {
  const { api, run } = useSongmintContext();
  const connected = useConnectedAddress();
  const wallet = address ?? connected;
  return useQuery<Portfolio, SongmintError>({
    queryKey: wallet === undefined ? ['songmint', 'portfolio', 'none'] : songmintKeys.portfolio(wallet),
    queryFn: ({ signal }) => run(() => getPortfolio(api, { address: wallet ?? '0x', signal })),
    enabled: wallet !== undefined,
  });
}
