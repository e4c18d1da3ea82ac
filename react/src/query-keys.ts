import type { Address } from 'viem';
import type { DownloadFormat, JobListFilter, TradeSide } from '@songmint/sdk';

/** A key part for an address: lower case, so that checksummed and plain spellings share a cache entry. */
const who = (address: Address) => address.toLowerCase();

/**
 * Every query key the hooks use, for `invalidateQueries`, `setQueryData` and prefetching.
 * What belongs to a signed-in account sits under `account(address)` (its jobs, uploads,
 * previews, profile): signing out removes it in one call. Public reads (coins, creators,
 * portfolios) and chain reads (quotes, allocations) sit beside it. Amounts (bigint) are decimal
 * strings in keys: TanStack Query hashes keys as JSON.
 */
export const songmintKeys = {
  all: ['songmint'] as const,
  account: (address: Address) => ['songmint', 'account', who(address)] as const,
  profile: (address: Address) => [...songmintKeys.account(address), 'profile'] as const,
  /** Every job list of the account (all filters and searches). */
  jobLists: (address: Address) => [...songmintKeys.account(address), 'jobs'] as const,
  jobs: (address: Address, view: { filter?: JobListFilter; search?: string; limit?: number } = {}) =>
    [...songmintKeys.jobLists(address), { filter: view.filter ?? 'all', search: view.search ?? '', limit: view.limit ?? 20 }] as const,
  job: (address: Address, jobId: string) => [...songmintKeys.account(address), 'job', jobId] as const,
  preview: (address: Address, sessionId: string) => [...songmintKeys.account(address), 'preview', sessionId] as const,
  uploads: (address: Address) => [...songmintKeys.account(address), 'uploads'] as const,
  downloadLink: (address: Address, jobId: string, format: DownloadFormat) =>
    [...songmintKeys.account(address), 'download-link', jobId, format] as const,
  coin: (songId: bigint) => ['songmint', 'coin', songId.toString()] as const,
  coinTrades: (songId: bigint) => ['songmint', 'coin', songId.toString(), 'trades'] as const,
  creator: (address: Address) => ['songmint', 'creator', who(address)] as const,
  portfolio: (address: Address) => ['songmint', 'portfolio', who(address)] as const,
  /** Every quote of one song. */
  quotes: (songId: bigint) => ['songmint', 'quote', songId.toString()] as const,
  quote: (songId: bigint, side: TradeSide, amount: { amountIn?: bigint; amountOut?: bigint }, slippageBps: number) =>
    [
      ...songmintKeys.quotes(songId),
      {
        side,
        amountIn: amount.amountIn?.toString() ?? null,
        amountOut: amount.amountOut?.toString() ?? null,
        slippageBps,
      },
    ] as const,
  allocation: (songId: bigint) => ['songmint', 'allocation', songId.toString()] as const,
  launchTerms: () => ['songmint', 'launch-terms'] as const,
} as const;
