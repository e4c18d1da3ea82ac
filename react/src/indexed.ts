import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** How often, and how many times, a read the oracle answers from its chain index is asked again after a transaction. */
const INDEX_POLL_MS = 1_000;
const INDEX_POLLS = 30;

type Indexed = { indexed_through_block?: string | null } | undefined;

const behind = (data: Indexed, block: bigint): boolean =>
  data !== undefined &&
  (data.indexed_through_block === undefined || data.indexed_through_block === null || BigInt(data.indexed_through_block) < block);

/**
 * After a transaction mined in `block`: the shown queries under `queryKey` that the oracle answers
 * from its index (coins, portfolios, creators: `indexed_through_block`) are fetched again until
 * their index has reached the block, once a second and at most 30 times, since the indexer
 * follows the chain a few confirmations behind. Queries nobody shows are only marked stale.
 */
export async function followIndex(queryClient: QueryClient, queryKey: QueryKey, block: bigint): Promise<void> {
  for (let poll = 0; poll < INDEX_POLLS; poll++) {
    await queryClient.invalidateQueries({ queryKey });
    const shown = queryClient.getQueryCache().findAll({ queryKey, type: 'active' });
    if (!shown.some((query) => behind(query.state.data as Indexed, block))) return;
    await new Promise((resolve) => setTimeout(resolve, INDEX_POLL_MS));
  }
}
