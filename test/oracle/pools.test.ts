import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, createWalletClient, formatEther, getAddress, http, parseAbi, parseEther, parseEventLogs } from 'viem';
import type { Address, Hex, PublicClient, TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { pino } from 'pino';
import { freePort } from '../../core/src/testing/free-port.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { createClaimableFeesReader } from '../../oracle/src/chain/pool-fees.ts';
import { createCoinChainReads } from '../../oracle/src/chain/coin-reads.ts';
import { createEthUsdReader } from '../../oracle/src/chain/eth-usd-feed.ts';
import type { EthUsdReader } from '../../oracle/src/chain/eth-usd-feed.ts';
import { coinSchema, coinTradesSchema, creatorProfileSchema, portfolioSchema } from '../../oracle/src/http/routes/coins.ts';
import { createPoolIndexer, poolCursorName } from '../../oracle/src/chain/pool-indexer.ts';
import type { PoolIndexer } from '../../oracle/src/chain/pool-indexer.ts';
import { createChainWatcher } from '../../oracle/src/chain/watcher.ts';
import { nftResponseSchema } from '../../oracle/src/http/routes/nft.ts';
import { poolHistorySchema } from '../../oracle/src/http/routes/pool-history.ts';
import { poolSchema, poolsResponseSchema } from '../../oracle/src/http/routes/trading.ts';
import { publicSongSchema, publicSongsSchema } from '../../oracle/src/http/routes/public-songs.ts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../scripts/local-chain.ts';
import type { LocalChain } from '../../scripts/local-chain.ts';
// The worktree's SDK (node_modules/@songmint/sdk may be another checkout's).
import {
  buy,
  claimAllocation,
  connectSongmint,
  createSongmintApi,
  DEVELOPMENT_PRIVATE_KEY,
  developmentAccount,
  getCoin,
  getCoinTrades,
  getCreator,
  getPool,
  getPoolHistory,
  getPortfolio,
  getPools,
  getPublicSong,
  listPublicSongs,
  launchSong,
  quoteSellMax,
  quoteTrade,
  mintSong,
  poolManagerAbi,
  readAllocation,
  readLaunchTerms,
  readPool,
  sell,
  setPayoutRecipient,
  songPoolHookAbi,
  songTokenAbi,
  songVaultAbi,
  withSession,
} from '../../sdk/src/index.ts';
import type { SongmintChain } from '../../sdk/src/index.ts';
import { dataUri, pngBytes, startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { assertVariantCError } from './helpers/shapes.ts';

/**
 * The pool indexer and /v1/trading/pools against the local chain of `npm start` (scripts/local-chain.ts:
 * chain 8453, Uniswap v4's real PoolManager, Universal Router, Permit2 and V4Quoter bytecode, the Songmint contracts
 * through Ignition): launch, buy and sell through the Universal Router with the SDK, collect fees, then a reorg
 * (evm_snapshot / evm_revert) and a restart.
 */
describe('pool indexer and GET /v1/trading/pools on the local chain with Uniswap v4', () => {
  let chain: LocalChain;
  let stack: StorageStack;
  let sdk: SongmintChain;
  /** The oracle's reads: no block-number cache, so each poll sees the block just mined. */
  let reader: PublicClient;
  let creator: LoggedIn;
  let vault: Address;
  let indexer: PoolIndexer;
  const logger = pino({ level: 'silent' });
  const swapReceipts: TransactionReceipt[] = [];
  let launchView: { tokensPerEth: number } | undefined;
  /** The coin routes' ETH/USD reader: none until the USD test deploys a feed. */
  let ethUsd: EthUsdReader = () => Promise.resolve(null);

  const rpc = <T>(method: string, params: unknown[] = []): Promise<T> =>
    fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
      .then((response) => response.json() as Promise<{ result: T }>)
      .then((body) => body.result);

  const newIndexer = () =>
    createPoolIndexer({
      db: stack.app.db,
      client: reader,
      songVaultAddress: vault,
      poolManagerAddress: chain.contracts.PoolManager as Address,
      confirmations: 0,
      startBlock: 0n,
      batchSize: 7n,
      logger,
    });

  /** The public swap history: no token. */
  const getHistory = async (songId: bigint, query = '') => {
    const response = await stack.app.request(`/v1/trading/pools/${songId}/history${query}`);
    assert.equal(response.status, 200, response.text);
    return poolHistorySchema.parse(response.body);
  };

  const getView = async (songId: bigint) => {
    const response = await stack.app.request(`/v1/trading/pools/${songId}`, { token: creator.token });
    assert.equal(response.status, 200, response.text);
    return poolSchema.parse(response.body);
  };

  /** |amount0| and |amount1| of the PoolManager's Swap events in these receipts. */
  const swapVolume = (receipts: ReadonlyArray<TransactionReceipt>) =>
    receipts
      .flatMap((receipt) => parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs }))
      .reduce(
        (sum, log) => ({
          eth: sum.eth + (log.args.amount0 < 0n ? -log.args.amount0 : log.args.amount0),
          token: sum.token + (log.args.amount1 < 0n ? -log.args.amount1 : log.args.amount1),
        }),
        { eth: 0n, token: 0n },
      );

  before(async () => {
    // Blocks only on transactions and `hardhat_mine`: the test counts heights and confirmations itself.
    chain = await startLocalChain({ port: await freePort(), blockIntervalMs: 0 });
    vault = chain.contracts.SongVault as Address;
    sdk = connectSongmint({ rpcUrl: chain.rpcUrl, wallet: { account: developmentAccount() } });
    reader = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
    stack = await startStorageStack({
      chain: { chainId: 8453, songNftAddress: chain.contracts.SongNFT as Address },
      signerKey: LOCAL_PLATFORM_SIGNER_KEY,
      vault: { cursorName: poolCursorName(vault), readClaimable: createClaimableFeesReader(reader, vault) },
      coins: {
        vaultAddress: vault,
        poolManagerAddress: chain.contracts.PoolManager as Address,
        chain: createCoinChainReads(reader, {
          vault,
          poolManager: chain.contracts.PoolManager as Address,
          quoter: chain.contracts.V4Quoter as Address,
        }),
        ethUsd: () => ethUsd(),
      },
    });
    // The development wallet mints song 1 through the API's signature, as a dApp would.
    creator = await stack.app.login(privateKeyToAccount(DEVELOPMENT_PRIVATE_KEY));
    const job = await stack.seedJob(creator.userId, creator.address);
    const uploaded = await stack.app.request('/api/metadata', {
      token: creator.token,
      body: {
        name: 'Pool song',
        description: 'traded in a test',
        audio_url: job.audioUrl,
        cover_image: dataUri('image/png', pngBytes(4, 4)),
        attributes: { genre: 'Lo-fi' },
      },
    });
    assert.equal(uploaded.status, 201, uploaded.text);
    const metadataUri = (uploaded.body as { metadata_uri: string }).metadata_uri;
    const signed = await stack.app.request('/api/signature', {
      token: creator.token,
      body: { job_id: job.publicId, user_address: creator.address, metadata_uri: metadataUri },
    });
    assert.equal(signed.status, 200, signed.text);
    const minted = await mintSong(sdk, { metadataUri, audioHash: job.audioHash, signature: (signed.body as { signature: Hex }).signature });
    assert.equal(minted.tokenId, 1n);
    await createChainWatcher({
      db: stack.app.db,
      client: reader,
      songNftAddress: chain.contracts.SongNFT as Address,
      confirmations: 0,
      startBlock: 0n,
      logger,
      now: () => new Date(),
    }).poll();
    await launchSong(sdk, { songId: 1n, allocationBps: 500 });
    indexer = newIndexer();
  });

  after(async () => {
    await indexer.stop();
    await stack?.stop();
    await chain?.stop();
  });

  it('indexes the launch: the pool at its launch price, no trades yet, linked from GET /v1/nft/{id}', async () => {
    const before = await stack.app.request('/v1/trading/pools/1', { token: creator.token });
    assert.equal(before.status, 404, 'not indexed before the first poll');
    // A range is written in one transaction: when its last rows (the token's transfers) fail to
    // write, its launch is not there either, and the next poll reads the range again.
    await stack.app.db.none(`CREATE FUNCTION refuse_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
                               BEGIN RAISE EXCEPTION 'token_transfers refused by the test'; END $$;
                             CREATE TRIGGER refuse_transfer BEFORE INSERT ON token_transfers FOR EACH ROW EXECUTE FUNCTION refuse_transfer()`);
    await assert.rejects(indexer.poll(), /token_transfers refused by the test/);
    const halfWritten = await stack.app.db.one<{ pools: number }>('SELECT count(*)::int AS pools FROM song_pools');
    assert.equal(halfWritten.pools, 0, 'no launch without its transfers');
    await stack.app.db.none('DROP TRIGGER refuse_transfer ON token_transfers; DROP FUNCTION refuse_transfer()');
    const polled = await indexer.poll();
    assert.equal(polled.launches, 1);

    const view = await getView(1n);
    const onChain = await readPool(sdk, { songId: 1n });
    assert.equal(view.pool_id, onChain.poolId);
    assert.equal(view.token, onChain.token);
    assert.equal(view.creator, sdk.walletClient.account?.address);
    assert.ok(view.price !== null);
    assert.equal(view.price.source, 'launch');
    assert.equal(view.price.sqrt_price_x96, onChain.sqrtPriceX96.toString());
    assert.equal(view.price.tick, onChain.tick);
    assert.equal(view.liquidity, onChain.liquidity.toString(), 'the single-sided launch position is out of range: 0');
    assert.deepEqual(view.volume_24h, { eth: '0', token: '0', trades: 0 });
    assert.equal(view.trades_total, 0);
    assert.equal(view.fees.swap_fees_eth, '0');
    assert.equal(view.url, '/v1/trading/pools/1');
    assert.ok(Math.abs(Number(view.price.tokens_per_eth) / onChain.tokensPerEth - 1) < 1e-9, 'tokens per ETH from sqrtPriceX96');
    launchView = { tokensPerEth: Number(view.price.tokens_per_eth) };

    const nft = await stack.app.request('/v1/nft/1', { token: creator.token });
    assert.equal(nft.status, 200, nft.text);
    const linked = nftResponseSchema.parse(nft.body);
    assert.equal(linked.pool_id, onChain.poolId);
    assert.equal(linked.pool_url, '/v1/trading/pools/1');
  });

  it('a buy and a sell through the Universal Router: price moves each way, volume, trade count and fees per party match the contracts', async () => {
    assert.ok(launchView !== undefined);
    const bought = await buy(sdk, { songId: 1n, amountIn: parseEther('0.1') });
    swapReceipts.push(bought.receipt);
    await indexer.poll();
    const afterBuy = await getView(1n);
    assert.ok(afterBuy.price !== null);
    assert.equal(afterBuy.price.source, 'swap');
    assert.ok(Number(afterBuy.price.tokens_per_eth) < launchView.tokensPerEth, 'a buy makes the token dearer: fewer tokens per ETH');
    assert.equal(afterBuy.trades_total, 1);

    const sold = await sell(sdk, { songId: 1n, amountIn: bought.amountOut / 2n });
    swapReceipts.push(sold.receipt);
    await indexer.poll();
    const afterSell = await getView(1n);
    assert.ok(afterSell.price !== null);
    assert.ok(Number(afterSell.price.tokens_per_eth) > Number(afterBuy.price.tokens_per_eth), 'a sell makes the token cheaper');

    const onChain = await readPool(sdk, { songId: 1n });
    assert.equal(afterSell.price.sqrt_price_x96, onChain.sqrtPriceX96.toString());
    assert.equal(afterSell.price.tick, onChain.tick);
    assert.equal(afterSell.liquidity, onChain.liquidity.toString());
    assert.ok(onChain.liquidity > 0n, 'the buy moved the price into the launch position');
    assert.equal(afterSell.trades_total, 2);
    const volume = swapVolume(swapReceipts);
    assert.deepEqual(afterSell.volume_24h, { eth: volume.eth.toString(), token: volume.token.toString(), trades: 2 });
    // The SDK and the indexer both read the fees from the PoolManager's mint logs; the vault counts them on chain.
    // Inside the launch window the part above the steady 1% is burnt: the song's fees are the rest.
    assert.ok(bought.hookFee > 0n && sold.hookFee > 0n);
    assert.ok(bought.launchFeeBurnt > 0n && sold.launchFeeBurnt > 0n, 'traded inside the launch window');
    assert.ok(bought.hookFee - bought.launchFeeBurnt <= parseEther('0.1') / 100n + 1n, 'the song keeps 1% of the ETH paid');
    const songsPart = bought.hookFee - bought.launchFeeBurnt + sold.hookFee - sold.launchFeeBurnt;
    assert.equal(afterSell.fees.swap_fees_eth, songsPart.toString());
    // The activity feed shows what each trader paid or got, the burnt part in its fee: the buy (exact
    // ETH in) was charged in beforeSwap (burn, song fee, Swap), the sale (exact tokens in) in afterSwap
    // (Swap, song fee, burn); the burns are indexed and paired with their swaps, never counted as earnings.
    const feed = await publicGet('/v1/public/coins/1/trades?limit=2', coinTradesSchema);
    assert.deepEqual(
      feed.trades.map((trade) => [trade.tx_hash, trade.side, trade.eth, trade.launch_fee?.eth]),
      [
        [sold.hash, 'sell', sold.amountOut.toString(), sold.hookFee.toString()],
        [bought.hash, 'buy', bought.amountIn.toString(), bought.hookFee.toString()],
      ],
    );
    assert.equal(bought.amountIn, parseEther('0.1'), 'the buyer paid what it sent, the burnt part included');
    assert.ok(Number(feed.trades[1]?.launch_fee?.percent) > 1, `an in-window fee: ${feed.trades[1]?.launch_fee?.percent}%`);
    const burntRows = await stack.app.db.map(
      'SELECT amount::text AS amount FROM pool_burnt_fees ORDER BY block_number, log_index',
      [],
      (row: { amount: string }) => row.amount,
    );
    assert.deepEqual(burntRows, [bought.launchFeeBurnt.toString(), sold.launchFeeBurnt.toString()]);
    assert.equal(afterSell.fees.swap_fees_eth, onChain.totalSwapFees.toString());
    assert.equal(afterSell.fees.uncollected_swap_fees_eth, onChain.uncollectedSwapFees.toString());
    assert.deepEqual(
      afterSell.fees.claimable?.creator,
      { account: onChain.payoutRecipient, eth: '0', token: '0' },
      'nothing collected yet',
    );

    // collectFees moves the hook fees and the LP fees into the parties' balances.
    const wallet = createWalletClient({ account: developmentAccount(), transport: http(chain.rpcUrl) });
    const collect = await wallet.writeContract({
      address: vault,
      abi: songVaultAbi,
      functionName: 'collectFees',
      args: [1n],
      chain: sdk.walletClient.chain,
    });
    const collectReceipt = await sdk.publicClient.waitForTransactionReceipt({ hash: collect });
    const [collected] = parseEventLogs({ abi: songVaultAbi, eventName: 'FeesCollected', logs: collectReceipt.logs });
    assert.ok(collected !== undefined);
    await indexer.poll();
    const afterCollect = await getView(1n);
    const fees = await readPool(sdk, { songId: 1n });
    const owner = await sdk.publicClient.readContract({ address: vault, abi: songVaultAbi, functionName: 'owner' });
    assert.equal(afterCollect.fees.uncollected_swap_fees_eth, '0');
    assert.deepEqual(afterCollect.fees.collected, {
      lp_fees_eth: collected.args.lpFeesEth.toString(),
      lp_fees_token: collected.args.lpFeesToken.toString(),
      swap_fees_eth: onChain.totalSwapFees.toString(),
    });
    assert.ok(collected.args.lpFeesEth > 0n && collected.args.lpFeesToken > 0n, 'the 1% LP fee was charged each way');
    // Inside the launch window (the trades came seconds after the launch) claim pays the ETH only:
    // the song-token credits wait for the window's end (SongVault.claimableFeesOf).
    const claimableBlock = afterCollect.fees.claimable?.block_number;
    assert.ok(claimableBlock !== undefined);
    const { timestamp } = await sdk.publicClient.getBlock({ blockNumber: BigInt(claimableBlock) });
    assert.ok(timestamp < fees.launchedAt + 120n, 'collected inside the launch window');
    assert.deepEqual(fees.claimable, {
      creator: { eth: fees.fees.creator.eth, token: 0n },
      platform: { eth: fees.fees.platform.eth, token: 0n },
    });
    assert.deepEqual(afterCollect.fees.claimable, {
      block_number: claimableBlock,
      creator: { account: fees.payoutRecipient, eth: fees.fees.creator.eth.toString(), token: '0' },
      platform: { account: owner, eth: fees.fees.platform.eth.toString(), token: '0' },
    });
    assert.deepEqual(afterCollect.fees.credited, {
      creator: { eth: fees.fees.creator.eth.toString(), token: fees.fees.creator.token.toString() },
      platform: { eth: fees.fees.platform.eth.toString(), token: fees.fees.platform.token.toString() },
    });
    assert.ok(
      fees.fees.platform.eth > 0n && fees.fees.creator.eth > fees.fees.platform.eth,
      '20% to the platform, the rest to the creator',
    );
  });

  it("reads what claim pays at the chain's head, not at a client's cached block number (a view just after a claim shows it paid)", async () => {
    // The oracle's client keeps viem's defaults: a block number is cached for the polling interval (4 s).
    const cachingClient = createPublicClient({ transport: http(chain.rpcUrl) });
    const readClaimable = createClaimableFeesReader(cachingClient, vault);
    const first = (await readClaimable([1n])).get(1n);
    await rpc('hardhat_mine', ['0x2']);
    const head = await reader.getBlockNumber();
    const second = (await readClaimable([1n])).get(1n);
    assert.equal(first?.blockNumber, head - 2n);
    assert.equal(second?.blockNumber, head, 'read at the head two blocks on, within the cache time');
  });

  it('a reorg that drops a swap removes it from the view; the next swap is indexed on the new chain', async () => {
    const settled = await getView(1n);
    const snapshot = await rpc<string>('evm_snapshot');
    const reverted = await buy(sdk, { songId: 1n, amountIn: parseEther('0.05') });
    await indexer.poll();
    const seen = await getView(1n);
    assert.equal(seen.trades_total, 3, 'the swap was indexed before the reorg');
    const seenHistory = await getHistory(1n, '?limit=1');
    assert.equal(seenHistory.swaps[0]?.tx_hash, reverted.hash);
    assert.ok(seenHistory.next_cursor !== null);
    assert.notEqual(seen.price?.sqrt_price_x96, settled.price?.sqrt_price_x96);

    assert.equal(await rpc<boolean>('evm_revert', [snapshot]), true);
    // The new chain grows past the old head without that swap.
    await rpc('hardhat_mine', ['0x3']);
    const rewound = await indexer.poll();
    assert.ok(rewound.rewoundTo !== null && rewound.rewoundTo < reverted.receipt.blockNumber, 'rewound below the reverted block');
    const after = await getView(1n);
    assert.deepEqual(
      after,
      { ...settled, fees: { ...settled.fees, claimable: after.fees.claimable } },
      'back to the view before the reverted swap',
    );
    assert.equal(after.trades_total, 2);
    const swapRow = await stack.app.db.oneOrNone('SELECT 1 FROM pool_swaps WHERE tx_hash = $1', [reverted.hash]);
    assert.equal(swapRow, null);
    assert.ok(reverted.launchFeeBurnt > 0n, 'the reverted buy burnt part of its launch fee');
    const burntAbove = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM pool_burnt_fees WHERE block_number >= $1', [
      reverted.receipt.blockNumber.toString(),
    ]);
    assert.equal(burntAbove.n, 0, "the reverted swap's burnt fee went with it");
    // The chart's history lost the rewound swap too; a cursor taken from it still pages on.
    const rewoundHistory = await getHistory(1n);
    assert.deepEqual(
      rewoundHistory.swaps.map((swap) => swap.tx_hash),
      swapReceipts.map((receipt) => receipt.transactionHash).reverse(),
    );
    assert.equal(rewoundHistory.swaps[0]?.sqrt_price_x96, settled.price?.sqrt_price_x96);
    const afterCursor = await getHistory(1n, `?cursor=${seenHistory.next_cursor}`);
    assert.deepEqual(afterCursor.swaps, rewoundHistory.swaps);

    const replacement = await buy(sdk, { songId: 1n, amountIn: parseEther('0.02') });
    swapReceipts.push(replacement.receipt);
    await indexer.poll();
    const grown = await getView(1n);
    assert.equal(grown.trades_total, 3);
    assert.equal(grown.price?.sqrt_price_x96, (await readPool(sdk, { songId: 1n })).sqrtPriceX96.toString());
    assert.equal(grown.volume_24h.eth, swapVolume(swapReceipts).eth.toString());
  });

  it('a restarted indexer resumes from the stored cursor without counting anything twice', async () => {
    await indexer.stop();
    const before = await getView(1n);
    const cursorBefore = await stack.app.db.one<{ block_number: string }>(
      'SELECT block_number::text AS block_number FROM chain_cursors WHERE name = $1',
      [poolCursorName(vault)],
    );

    const restarted = newIndexer();
    const idle = await restarted.poll();
    assert.equal(idle.swaps, 0);
    assert.equal(idle.launches, 0);
    assert.deepEqual(await getView(1n), { ...before, fees: { ...before.fees, claimable: (await getView(1n)).fees.claimable } });

    const more = await sell(sdk, { songId: 1n, amountIn: parseEther('1000') });
    swapReceipts.push(more.receipt);
    const resumed = await restarted.poll();
    assert.equal(resumed.swaps, 1, 'only the new swap');
    assert.ok(resumed.throughBlock !== null && resumed.throughBlock > BigInt(cursorBefore.block_number));
    assert.equal((await getView(1n)).trades_total, 4);

    // Even reading everything again from the start (a lost cursor, a second replica) counts each log once.
    await stack.app.db.none('DELETE FROM chain_cursors WHERE name = $1', [poolCursorName(vault)]);
    await stack.app.db.none('DELETE FROM chain_checkpoints WHERE cursor_name = $1', [poolCursorName(vault)]);
    const replay = await newIndexer().poll();
    assert.equal(replay.swaps, 0);
    const view = await getView(1n);
    assert.equal(view.trades_total, 4);
    assert.equal(view.volume_24h.eth, swapVolume(swapReceipts).eth.toString());
    indexer = restarted;
  });

  it('serves the swap history without a token: each swap as the chain logged it, newest first, paged by cursor; the SDK reads it without a session', async () => {
    const swaps = swapReceipts.flatMap((receipt) => parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs }));
    assert.equal(swaps.length, 4);
    const newestFirst = [...swaps].reverse();
    const first = await getHistory(1n, '?limit=3');
    assert.equal(first.swaps.length, 3);
    assert.ok(first.next_cursor !== null);
    const second = await getHistory(1n, `?limit=3&cursor=${first.next_cursor}`);
    assert.equal(second.next_cursor, null);
    const all = [...first.swaps, ...second.swaps];
    assert.deepEqual(
      all.map((swap) => ({
        tx: swap.tx_hash,
        block: swap.block_number,
        side: swap.side,
        eth: swap.eth,
        token: swap.token,
        sqrt: swap.sqrt_price_x96,
        tick: swap.tick,
      })),
      newestFirst.map((log) => ({
        tx: log.transactionHash,
        block: log.blockNumber.toString(),
        side: log.args.amount0 < 0n ? 'buy' : 'sell',
        eth: (log.args.amount0 < 0n ? -log.args.amount0 : log.args.amount0).toString(),
        token: (log.args.amount1 < 0n ? -log.args.amount1 : log.args.amount1).toString(),
        sqrt: log.args.sqrtPriceX96.toString(),
        tick: log.args.tick,
      })),
    );
    assert.deepEqual(
      all.map((swap) => swap.side),
      ['sell', 'buy', 'sell', 'buy'],
    );
    // The newest swap's price is the pool's price now; the launch point is the pool's Initialize.
    const view = await getView(1n);
    assert.equal(all[0]?.tokens_per_eth, view.price?.tokens_per_eth);
    assert.equal(
      first.launch?.sqrt_price_x96,
      (await stack.app.db.one<{ p: string }>('SELECT init_sqrt_price_x96::text AS p FROM song_pools WHERE song_id = 1')).p,
    );
    assert.ok(
      first.launch !== null && Number(first.launch.tokens_per_eth) > Number(all.at(-1)?.tokens_per_eth),
      'the first buy made the token dearer than at launch',
    );
    assert.equal(first.indexed_through_block, (await reader.getBlockNumber()).toString());
    assert.deepEqual(await getPoolHistory(createSongmintApi({ baseUrl: stack.app.baseUrl }), { songId: 1n, limit: 3 }), first);
  });

  it('lists pools newest launch first with an opaque cursor; the SDK reads the same pages', async () => {
    // Song 2: minted with the local platform key directly and launched by the same wallet.
    const signer = createMintSigner(LOCAL_PLATFORM_SIGNER_KEY);
    const metadataUri = 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    const audioHash = `0x${'cd'.repeat(32)}` as const;
    const account = developmentAccount();
    const minted = await mintSong(sdk, {
      metadataUri,
      audioHash,
      signature: await signer.sign({ minter: account.address, metadataUri, audioHash }),
    });
    await launchSong(sdk, { songId: minted.tokenId });
    await indexer.poll();

    const api = withSession(createSongmintApi({ baseUrl: stack.app.baseUrl }), { token: creator.token });
    const first = await getPools(api, { limit: 1 });
    poolsResponseSchema.parse(first);
    assert.deepEqual(
      first.pools.map((pool) => pool.song_id),
      [minted.tokenId.toString()],
    );
    assert.ok(first.next_cursor !== null);
    assert.equal(first.indexed_through_block, (await reader.getBlockNumber()).toString());
    const second = await getPools(api, { limit: 1, cursor: first.next_cursor });
    assert.deepEqual(
      second.pools.map((pool) => pool.song_id),
      ['1'],
    );
    assert.equal(second.next_cursor, null);
    const all = await getPools(api);
    assert.deepEqual(
      all.pools.map((pool) => pool.song_id),
      [minted.tokenId.toString(), '1'],
    );
    assert.equal(all.next_cursor, null);
    assert.deepEqual(await getPool(api, { songId: 1n }), await getView(1n));
    // Song 2's history holds none of song 1's swaps.
    const fresh = await getHistory(minted.tokenId);
    assert.deepEqual(fresh.swaps, []);
    assert.equal(fresh.next_cursor, null);
    assert.ok(fresh.launch !== null);

    // What a visitor sees, without a token: the same songs in the same order, with the
    // metadata this oracle published (song 2's metadata is not this oracle's: no title).
    const visitor = createSongmintApi({ baseUrl: stack.app.baseUrl });
    const songs = await stack.app.request('/v1/public/songs');
    assert.equal(songs.status, 200, songs.text);
    const page = publicSongsSchema.parse(songs.body);
    assert.deepEqual(
      page.songs.map((song) => [song.song_id, song.title, song.genre]),
      [
        [minted.tokenId.toString(), null, null],
        ['1', 'Pool song', 'Lo-fi'],
      ],
    );
    const one = page.songs[1];
    assert.equal(one?.tokens_per_eth, all.pools[1]?.price?.tokens_per_eth);
    assert.equal(one?.volume_24h.trades, all.pools[1]?.volume_24h.trades);
    assert.equal(one?.creator, account.address);
    assert.match(one?.image ?? '', /^ipfs:\/\//);
    assert.equal(one?.page_url, '/app/song/1');
    const firstPublic = await listPublicSongs(visitor, { limit: 1 });
    assert.deepEqual(firstPublic.songs, page.songs.slice(0, 1));
    assert.deepEqual((await listPublicSongs(visitor, { limit: 1, cursor: firstPublic.next_cursor ?? '' })).songs, page.songs.slice(1));
    // Discover's figures and orders (issue 51): the coin page's market cap and 24 h change on each card,
    // by market cap or 24 h volume, searched by title, genre or creator address.
    for (const listed of page.songs) {
      const coin = await publicGet(`/v1/public/coins/${listed.song_id}`, coinSchema);
      assert.deepEqual(
        [listed.market_cap, listed.change_24h_percent, listed.price_eth_per_million_tokens],
        [coin.market_cap?.eth ?? null, coin.price?.change_24h_percent ?? null, coin.price?.eth_per_million_tokens ?? null],
      );
    }
    const byCap = [...page.songs].sort((a, b) => (BigInt(b.market_cap ?? '0') > BigInt(a.market_cap ?? '0') ? 1 : -1));
    assert.notEqual(byCap[0]?.market_cap, byCap[1]?.market_cap, 'two different market caps to order');
    const capPage = await listPublicSongs(visitor, { sort: 'market_cap', limit: 1 });
    assert.deepEqual(capPage.songs, byCap.slice(0, 1));
    const capRest = await listPublicSongs(visitor, { sort: 'market_cap', cursor: capPage.next_cursor ?? '' });
    assert.deepEqual([capRest.songs, capRest.next_cursor], [byCap.slice(1), null]);
    assert.deepEqual(
      (await listPublicSongs(visitor, { sort: 'volume_24h' })).songs.map((listed) => listed.song_id),
      ['1', minted.tokenId.toString()],
      'the traded song first',
    );
    const found = async (q: string) => (await listPublicSongs(visitor, { q })).songs.map((listed) => listed.song_id);
    assert.deepEqual(await found('pool SONG'), ['1'], 'by title, any case');
    assert.deepEqual(await found('lo-fi'), ['1'], 'by genre');
    assert.deepEqual(await found(account.address.slice(2, 12).toUpperCase()), [minted.tokenId.toString(), '1'], 'by creator address');
    assert.deepEqual(await found('100%'), [], "a % is a character, not LIKE's wildcard");
    // A NUL reached PostgreSQL, which refuses it in text: a 503 (test:faults' fuzzer, 2026-12-01).
    for (const bad of [
      '?q=',
      '?q=%20%20',
      `?q=${'x'.repeat(81)}`,
      '?q=%00',
      '?limit=37&sort=market_cap&q=a%00b',
      '?sort=price',
      `?sort=market_cap&cursor=${firstPublic.next_cursor}`,
    ]) {
      const refused = await stack.app.request(`/v1/public/songs${bad}`);
      assert.equal(refused.status, 400, bad);
      assertVariantCError(refused.body, 'VALIDATION_ERROR');
    }
    const song = publicSongSchema.parse(await getPublicSong(visitor, { songId: 1n }));
    assert.equal(song.title, 'Pool song');
    assert.equal(song.description, 'traded in a test');
    assert.equal(song.launched_at, all.pools[1]?.launched_at);
    const missing = await stack.app.request('/v1/public/songs/999');
    assert.equal(missing.status, 404);
    assertVariantCError(missing.body, 'NOT_FOUND');
    assert.equal((await stack.app.request('/v1/public/songs?limit=0')).status, 400);
    // The spec's own routes keep their token.
    assert.equal((await stack.app.request('/v1/trading/pools')).status, 401);
    assert.equal((await stack.app.request('/v1/nft/1')).status, 401);
  });

  it('moves the payout role with setPayoutRecipient (SDK): the vault and the indexed claimable fees name the new recipient; anyone else is refused before sending', async () => {
    const recipient = privateKeyToAccount(LOCAL_PLATFORM_SIGNER_KEY).address;
    const changed = await setPayoutRecipient(sdk, { songId: 1n, recipient });
    assert.equal(changed.previousRecipient, developmentAccount().address);
    assert.equal(changed.newRecipient, recipient);
    assert.equal((await readPool(sdk, { songId: 1n })).payoutRecipient, recipient);
    assert.equal((await getView(1n)).fees.claimable?.creator.account, recipient);
    const nonceBefore = await sdk.publicClient.getTransactionCount({ address: developmentAccount().address });
    await assert.rejects(setPayoutRecipient(sdk, { songId: 1n, recipient: developmentAccount().address }), /NotPayoutRecipient/);
    assert.equal(
      await sdk.publicClient.getTransactionCount({ address: developmentAccount().address }),
      nonceBefore,
      'refused in simulation: nothing sent',
    );
  });

  it('vests the launch allocation: nothing before the cliff (the coin says so), then claimAllocation (SDK) mints what has vested, all of it at the end', async () => {
    const launcher = developmentAccount().address;
    const token = (await readPool(sdk, { songId: 1n })).token;
    const balance = () => sdk.publicClient.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [launcher] });
    const { launchedAt } = await readPool(sdk, { songId: 1n });
    const terms = await readLaunchTerms(sdk);
    const held = await readAllocation(sdk, { songId: 1n });
    assert.equal(held.recipient, launcher);
    assert.ok(held.total >= (10n ** 27n * 5n) / 100n, '5% of the supply');
    assert.deepEqual(
      [held.claimed, held.vested, held.unvested, held.claimableAmount, held.amount, held.claimable],
      [0n, 0n, held.total, 0n, held.total, false],
    );
    assert.equal(held.cliffEnd, launchedAt + terms.allocationCliffSeconds);
    assert.equal(held.vestingEnd, held.cliffEnd + terms.allocationVestingSeconds);
    assert.equal(held.claimableAt, held.cliffEnd + 1n);
    // Before the cliff: refused in simulation, nothing sent.
    await assert.rejects(claimAllocation(sdk, { songId: 1n }), /AllocationLocked/);
    // The coin tells a buyer what the creator holds and when it can sell it (issue 51).
    const coinBefore = await publicGet('/v1/public/coins/1', coinSchema);
    assert.deepEqual(coinBefore.allocation, {
      recipient: launcher,
      total: held.total.toString(),
      vested: '0',
      unvested: held.total.toString(),
      claimed: '0',
      claimable: '0',
      cliff_end: new Date(Number(held.cliffEnd) * 1000).toISOString(),
      vesting_end: new Date(Number(held.vestingEnd) * 1000).toISOString(),
      block_number: coinBefore.allocation?.block_number,
    });
    // The local chain's clock moves forward (evm_increaseTime, then a block at the new time).
    const moveTo = async (at: bigint) => {
      const { timestamp } = await sdk.publicClient.getBlock({ blockTag: 'latest' });
      if (timestamp < at) await rpc('evm_increaseTime', [Number(at - timestamp)]);
      await rpc('evm_mine');
    };
    // Half-way through the vesting: about half has vested; a claim pays what has vested by its block.
    await moveTo(held.cliffEnd + terms.allocationVestingSeconds / 2n);
    const half = await readAllocation(sdk, { songId: 1n });
    assert.equal(half.claimable, true);
    assert.ok(half.vested >= held.total / 2n && half.vested < (held.total * 51n) / 100n, `${half.vested} of ${held.total}`);
    const before = await balance();
    const first = await claimAllocation(sdk, { songId: 1n });
    assert.equal(first.recipient, launcher);
    assert.ok(first.amount >= half.vested && first.amount < (held.total * 51n) / 100n);
    assert.equal(first.remaining, held.total - first.amount);
    assert.equal((await balance()) - before, first.amount);
    // At the end: the rest; then nothing is left to claim.
    await moveTo(held.vestingEnd);
    const last = await claimAllocation(sdk, { songId: 1n });
    assert.deepEqual([last.amount, last.remaining], [held.total - first.amount, 0n]);
    assert.equal((await balance()) - before, held.total);
    const done = await readAllocation(sdk, { songId: 1n });
    assert.deepEqual(
      [done.recipient, done.total, done.claimed, done.vested, done.unvested, done.claimableAmount, done.amount, done.claimable],
      [launcher, held.total, held.total, held.total, 0n, 0n, 0n, false],
    );
    await assert.rejects(claimAllocation(sdk, { songId: 1n }), /NothingVested/);
  });

  // Coin pages, creator profiles and portfolios (issue 45): public, read from the same indexer.
  const otherWallet = () =>
    connectSongmint({
      rpcUrl: chain.rpcUrl,
      // Hardhat's public test account #5: a second trader.
      wallet: { account: privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba') },
    });
  const publicGet = async <T>(path: string, schema: { parse(body: unknown): T }): Promise<T> => {
    const response = await stack.app.request(path);
    assert.equal(response.status, 200, response.text);
    return schema.parse(response.body);
  };
  const tokenBalance = (token: Address, holder: Address) =>
    sdk.publicClient.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [holder] });

  it('the coin page: a buy by one wallet and a sale by another appear in the activity feed with wallet, amounts and launch fee; holders are the chain balances', async () => {
    const other = otherWallet();
    const otherAddress = other.walletClient.account?.address as Address;
    const creatorAddress = developmentAccount().address;
    const bought = await buy(other, { songId: 1n, amountIn: parseEther('0.01') });
    const sold = await sell(sdk, { songId: 1n, amountIn: parseEther('2000000') });
    swapReceipts.push(bought.receipt, sold.receipt);
    await indexer.poll();
    // The creator set a display name (PATCH /v1/user/profile writes this column): its trades and holding
    // carry it, so the coin page names it and links its profile; the other wallet has none (issue 51).
    await stack.app.db.none(
      `INSERT INTO users (wallet_address, tier, display_name) VALUES ($1, 'free', 'Pool Maker')
       ON CONFLICT (wallet_address) DO UPDATE SET display_name = EXCLUDED.display_name`,
      [creatorAddress.toLowerCase()],
    );

    const trades = await publicGet('/v1/public/coins/1/trades?limit=2', coinTradesSchema);
    assert.deepEqual(
      trades.trades.map((trade) => ({
        tx: trade.tx_hash,
        side: trade.side,
        wallet: trade.wallet,
        name: trade.wallet_name,
        token: trade.token,
        eth: trade.eth,
        fee: trade.launch_fee?.eth,
      })),
      [
        {
          tx: sold.hash,
          side: 'sell',
          wallet: creatorAddress,
          name: 'Pool Maker',
          token: sold.amountIn.toString(),
          eth: sold.amountOut.toString(),
          fee: sold.hookFee.toString(),
        },
        {
          tx: bought.hash,
          side: 'buy',
          wallet: otherAddress,
          name: null,
          token: bought.amountOut.toString(),
          eth: bought.amountIn.toString(),
          fee: bought.hookFee.toString(),
        },
      ],
      'each trade with the wallet behind the router, what it paid or got and the fee the SDK read from the receipt',
    );
    // Past the launch window every trade pays the 1% floor.
    assert.deepEqual(
      trades.trades.map((trade) => trade.launch_fee?.percent),
      ['1.00', '1.00'],
    );
    assert.equal(trades.trades[0]?.time, new Date(Number(sold.blockTimestamp) * 1000).toISOString());
    // Every swap once across the pages, each with its fee (the indexed fee mints, paired to their swaps).
    const all: string[] = [];
    let cursor: string | null = '';
    let feeTotal = 0n;
    while (cursor !== null) {
      const page: ReturnType<typeof coinTradesSchema.parse> = await publicGet(
        `/v1/public/coins/1/trades?limit=3${cursor === '' ? '' : `&cursor=${cursor}`}`,
        coinTradesSchema,
      );
      all.push(...page.trades.map((trade) => trade.tx_hash));
      feeTotal += page.trades.reduce((sum, trade) => sum + BigInt(trade.launch_fee?.eth ?? '-1'), 0n);
      cursor = page.next_cursor;
    }
    assert.deepEqual(all, swapReceipts.map((receipt) => receipt.transactionHash).reverse());
    const onChain = await readPool(sdk, { songId: 1n });
    const burnt = await sdk.publicClient.readContract({
      address: await sdk.publicClient.readContract({ address: vault, abi: songVaultAbi, functionName: 'hook' }),
      abi: songPoolHookAbi,
      functionName: 'burntLaunchFees',
    });
    assert.ok(burnt > 0n);
    assert.equal(
      feeTotal,
      onChain.totalSwapFees + burnt,
      "the fees of all trades are every fee the hook charged: the song's and the burnt",
    );

    const coin = await publicGet('/v1/public/coins/1', coinSchema);
    assert.equal(coin.token, onChain.token);
    assert.equal(coin.symbol, 'SONG1');
    assert.equal(coin.title, 'Pool song');
    const totalSupply = await sdk.publicClient.readContract({ address: onChain.token, abi: songTokenAbi, functionName: 'totalSupply' });
    assert.equal(coin.supply, (10n ** 27n).toString());
    assert.equal(totalSupply, 10n ** 27n, 'the allocation is claimed: the whole supply is minted');
    // Price per million tokens and the market cap against the chain's price (a float, independently).
    assert.ok(coin.price !== null && coin.market_cap !== null);
    const close = (actual: number, expected: number) => Math.abs(actual / expected - 1) < 1e-9;
    assert.ok(close(Number(coin.price.eth_per_million_tokens), 1e6 / onChain.tokensPerEth), coin.price.eth_per_million_tokens);
    assert.ok(close(Number(formatEther(BigInt(coin.market_cap.eth))), 1e9 / onChain.tokensPerEth), coin.market_cap.eth);
    // Launched less than a day ago: the change is against the launch price.
    assert.ok(launchView !== undefined);
    const expectedChange = (launchView.tokensPerEth / onChain.tokensPerEth - 1) * 100;
    assert.ok(
      Math.abs(Number(coin.price.change_24h_percent) - expectedChange) < 0.011,
      `${coin.price.change_24h_percent} vs ${expectedChange}`,
    );
    assert.equal(coin.volume_24h.eth, swapVolume(swapReceipts).eth.toString());
    assert.equal(coin.trades_total, swapReceipts.length);
    assert.equal(coin.price.usd_per_million_tokens, null, 'no ETH/USD feed: ETH only');
    assert.equal(coin.eth_usd, null);

    // Holders: every balance is the token's balanceOf, the two traders among them, and with what the
    // PoolManager and the vault hold (no holders a buyer counts: issue 51) they add up to the supply.
    const holders = new Map(coin.holders.top.map((holder) => [holder.address, holder]));
    const poolManager = getAddress(chain.contracts.PoolManager ?? '');
    assert.equal(coin.holders.count, coin.holders.top.length);
    const balances = coin.holders.top.map((holder) => BigInt(holder.balance));
    assert.deepEqual(
      balances,
      [...balances].sort((a, b) => (b > a ? 1 : b < a ? -1 : 0)),
      'largest first, as numbers',
    );
    for (const holder of coin.holders.top) {
      assert.equal(holder.balance, (await tokenBalance(onChain.token, holder.address as Address)).toString(), holder.address);
    }
    const [inPool, inVault] = await Promise.all([tokenBalance(onChain.token, poolManager), tokenBalance(onChain.token, vault)]);
    assert.ok(inPool > 0n && inVault > 0n, 'the pool holds tokens, and the collected LP fee tokens wait in the vault');
    assert.equal(coin.holders.top.reduce((sum, holder) => sum + BigInt(holder.balance), 0n) + inPool + inVault, totalSupply);
    assert.deepEqual([holders.has(poolManager), holders.has(getAddress(vault))], [false, false], 'no pool or vault among the holders');
    assert.ok(holders.has(otherAddress) && holders.has(creatorAddress));
    assert.deepEqual([holders.get(creatorAddress)?.name, holders.get(otherAddress)?.name], ['Pool Maker', null], 'known creators named');
    // The ETH the pool holds now: the locked position's, as the SDK reads it from the PoolManager (a float there).
    assert.ok(coin.pool.eth !== null && coin.pool.block_number !== null);
    assert.ok(onChain.reserves.eth > 0n);
    assert.ok(Math.abs(Number(coin.pool.eth) / Number(onChain.reserves.eth) - 1) < 1e-9, `${coin.pool.eth} vs ${onChain.reserves.eth}`);
    assert.equal(
      holders.get(otherAddress)?.share_percent,
      `${(bought.amountOut * 1_000_000n) / 10n ** 27n / 10_000n}.${(((bought.amountOut * 1_000_000n) / 10n ** 27n) % 10_000n).toString().padStart(4, '0')}`,
    );

    // The creator side's earnings: credited by collections plus its split of the hook fees not collected, as the vault splits.
    const [creatorPart] = await sdk.publicClient.readContract({
      address: vault,
      abi: songVaultAbi,
      functionName: 'splitFee',
      args: [onChain.uncollectedSwapFees],
    });
    const view = await getView(1n);
    assert.deepEqual(coin.creator_earnings, {
      recipient: onChain.payoutRecipient,
      credited: view.fees.credited.creator,
      uncollected_swap_fees_eth: creatorPart.toString(),
      total_eth: (BigInt(view.fees.credited.creator.eth) + creatorPart).toString(),
      total_usd: null,
    });
    assert.ok(creatorPart > 0n);

    // The SDK reads the same, without a session.
    const visitor = createSongmintApi({ baseUrl: stack.app.baseUrl });
    assert.deepEqual(await getCoin(visitor, { songId: 1n }), coin);
    assert.deepEqual(await getCoinTrades(visitor, { songId: 1n, limit: 2 }), trades);
    const missing = await stack.app.request('/v1/public/coins/999');
    assert.equal(missing.status, 404);
    assertVariantCError(missing.body, 'NOT_FOUND');
    assert.equal((await stack.app.request('/v1/public/coins/1/trades?cursor=nope')).status, 400);
  });

  it('a reorg that drops a trade takes it out of the holders and the activity feed', async () => {
    const before = await publicGet('/v1/public/coins/1', coinSchema);
    const feedBefore = await publicGet('/v1/public/coins/1/trades?limit=5', coinTradesSchema);
    const snapshot = await rpc<string>('evm_snapshot');
    const other = otherWallet();
    const dropped = await buy(other, { songId: 1n, amountIn: parseEther('0.003') });
    await indexer.poll();
    const seen = await publicGet('/v1/public/coins/1/trades?limit=1', coinTradesSchema);
    assert.equal(seen.trades[0]?.tx_hash, dropped.hash);
    assert.equal(await rpc<boolean>('evm_revert', [snapshot]), true);
    await rpc('hardhat_mine', ['0x3']);
    await indexer.poll();
    const after = await publicGet('/v1/public/coins/1', coinSchema);
    assert.deepEqual(after.holders, before.holders);
    assert.deepEqual((await publicGet('/v1/public/coins/1/trades?limit=5', coinTradesSchema)).trades, feedBefore.trades);
    assert.equal(await stack.app.db.oneOrNone('SELECT 1 FROM token_transfers WHERE tx_hash = $1', [dropped.hash]), null);
  });

  it("a creator's profile lists the songs minted or launched with their coins' market caps and earnings; a portfolio the tokens held, fees and allocations", async () => {
    // Song 3: launched with a 3% allocation, vesting after its cliff.
    const signer = createMintSigner(LOCAL_PLATFORM_SIGNER_KEY);
    const account = developmentAccount();
    const metadataUri = 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';
    const audioHash = `0x${'ef'.repeat(32)}` as const;
    const minted = await mintSong(sdk, {
      metadataUri,
      audioHash,
      signature: await signer.sign({ minter: account.address, metadataUri, audioHash }),
    });
    const launched = await launchSong(sdk, { songId: minted.tokenId, allocationBps: 300 });
    await indexer.poll();

    const profile = await publicGet(`/v1/public/creators/${account.address.toLowerCase()}`, creatorProfileSchema);
    assert.equal(profile.address, account.address);
    assert.equal(profile.page_url, `/app/creator/${account.address}`);
    assert.deepEqual(
      profile.songs.map((song) => [song.song_id, song.title, song.coin?.symbol]),
      [
        [minted.tokenId.toString(), null, `SONG${minted.tokenId}`],
        ['2', null, 'SONG2'],
        ['1', 'Pool song', 'SONG1'],
      ],
    );
    assert.equal(profile.songs_total, 3);
    assert.equal(profile.coins, 3);
    assert.ok(profile.songs[2]?.minted_at !== null, 'song 1 was minted through this oracle');
    let earned = 0n;
    for (const song of profile.songs) {
      const coin = await publicGet(`/v1/public/coins/${song.song_id}`, coinSchema);
      assert.deepEqual(song.coin?.market_cap, coin.market_cap, song.song_id);
      assert.equal(song.coin?.price_eth_per_million_tokens, coin.price?.eth_per_million_tokens);
      earned += BigInt(coin.creator_earnings.total_eth);
    }
    assert.equal(profile.earnings.eth, earned.toString());
    assert.ok(earned > 0n);
    const nobody = await publicGet(`/v1/public/creators/0x${'12'.repeat(20)}`, creatorProfileSchema);
    assert.deepEqual([nobody.songs, nobody.songs_total, nobody.earnings.eth], [[], 0, '0']);
    const bad = await stack.app.request('/v1/public/creators/not-an-address');
    assert.equal(bad.status, 400);
    assertVariantCError(bad.body, 'VALIDATION_ERROR');

    // The second trader: its song 1 tokens, valued at the pool price.
    const other = otherWallet().walletClient.account?.address as Address;
    const pool = await readPool(sdk, { songId: 1n });
    const held = await tokenBalance(pool.token, other);
    const portfolio = await publicGet(`/v1/public/portfolios/${other}`, portfolioSchema);
    assert.deepEqual(
      portfolio.holdings.map((holding) => [holding.song_id, holding.balance, holding.symbol]),
      [['1', held.toString(), 'SONG1']],
    );
    const value = Number(formatEther(BigInt(portfolio.holdings[0]?.value.eth ?? '0')));
    assert.ok(Math.abs(value / (Number(formatEther(held)) / pool.tokensPerEth) - 1) < 1e-9, `${value}`);
    assert.equal(portfolio.total_value.eth, portfolio.holdings[0]?.value.eth);
    // Beside the spot value, what selling it all pays now: the SDK's V4Quoter quote to the wei, fees included, and less than spot.
    const quoted = await quoteTrade(sdk, { songId: 1n, side: 'sell', amountIn: held });
    assert.deepEqual(portfolio.holdings[0]?.sale, { eth: quoted.amountOut.toString(), usd: null, fills: true });
    assert.ok(quoted.amountOut > 0n && quoted.amountOut < BigInt(portfolio.holdings[0]?.value.eth ?? '0'), 'a sale pays less than spot');
    assert.deepEqual(portfolio.total_sale, { eth: quoted.amountOut.toString(), usd: null, complete: true });
    assert.ok(Math.abs(Number(portfolio.holdings[0]?.pool_eth) / Number(pool.reserves.eth) - 1) < 1e-9);
    assert.deepEqual([portfolio.fees, portfolio.allocations], [[], []]);

    // The payout recipient of song 1 (moved earlier): what the vault would pay it now.
    const recipient = privateKeyToAccount(LOCAL_PLATFORM_SIGNER_KEY).address;
    const paid = await publicGet(`/v1/public/portfolios/${recipient}`, portfolioSchema);
    const owed = await readPool(sdk, { songId: 1n });
    assert.deepEqual(
      paid.fees.map((fee) => [fee.song_id, fee.claimable]),
      [['1', { eth: owed.fees.creator.eth.toString(), token: owed.fees.creator.token.toString() }]],
    );
    // The launcher: song 3's allocation, before its cliff: nothing vested; and song 2's, which took
    // none: what the vault holds for it is the launch position's rounding dust, vesting like any
    // allocation (song 1's is all claimed, so it is gone from the list).
    const mine = await publicGet(`/v1/public/portfolios/${account.address}`, portfolioSchema);
    const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();
    const allocations = await Promise.all([minted.tokenId, 2n].map((songId) => readAllocation(sdk, { songId })));
    const [allocation, dust] = allocations;
    assert.ok(allocation !== undefined && dust !== undefined && dust.total < 10n ** 4n);
    assert.deepEqual([allocation.vested, allocation.claimed], [0n, 0n]);
    assert.deepEqual(
      mine.allocations,
      allocations.map((held) => ({
        song_id: held.songId.toString(),
        title: null,
        image: null,
        page_url: `/app/song/${held.songId}`,
        amount: held.amount.toString(),
        claimable_at: iso(held.claimableAt),
        total: held.total.toString(),
        vested: held.vested.toString(),
        unvested: held.unvested.toString(),
        claimed: held.claimed.toString(),
        claimable: held.claimableAmount.toString(),
        cliff_end: iso(held.cliffEnd),
        vesting_end: iso(held.vestingEnd),
      })),
    );
    assert.equal(allocation.total, launched.allocation);
    // Song 1's claimed allocation is more than the buyers' ETH in its pool can buy back: no sale figure, said so.
    const creatorsSong1 = mine.holdings.find((holding) => holding.song_id === '1');
    const sellable = await quoteSellMax(sdk, { songId: 1n });
    assert.ok(creatorsSong1 !== undefined && sellable.maxTokens < BigInt(creatorsSong1.balance));
    assert.deepEqual(creatorsSong1.sale, { eth: null, usd: null, fills: false });
    assert.equal(mine.total_sale.complete, false);
    assert.equal((await stack.app.request('/v1/public/portfolios/0x123')).status, 400);
    const visitor = createSongmintApi({ baseUrl: stack.app.baseUrl });
    assert.deepEqual(await getCreator(visitor, { address: account.address }), profile);
    assert.deepEqual(await getPortfolio(visitor, { address: other }), portfolio);
  });

  it('shows USD figures only from a fresh ETH/USD feed: a Chainlink-shaped aggregator on the local chain, then a stale round and a contract that is no feed', async () => {
    const artifact = JSON.parse(
      await readFile('artifacts/contracts/test/EthUsdAggregatorDouble.sol/EthUsdAggregatorDouble.json', 'utf8'),
    ) as { abi: unknown[]; bytecode: Hex };
    const wallet = createWalletClient({ account: developmentAccount(), transport: http(chain.rpcUrl) });
    const deployed = await sdk.publicClient.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, chain: sdk.walletClient.chain }),
    });
    const feed = deployed.contractAddress as Address;
    const feedAbi = parseAbi(['function setRound(int256 answer, uint256 updatedAt)']);
    const setRound = async (answer: bigint, updatedAt: bigint) =>
      sdk.publicClient.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: feed,
          abi: feedAbi,
          functionName: 'setRound',
          args: [answer, updatedAt],
          chain: sdk.walletClient.chain,
        }),
      });
    const { timestamp } = await sdk.publicClient.getBlock({ blockTag: 'latest' });
    // The chain's clock may run ahead of this machine's (the allocation test moved it): judge age by the chain's.
    const now = () => new Date(Number(timestamp) * 1000 + 10_000);
    ethUsd = createEthUsdReader({ client: reader, feed, cacheMs: 0, now, logger });
    await setRound(300_012_345_678n, timestamp);
    const coin = await publicGet('/v1/public/coins/1', coinSchema);
    assert.deepEqual(coin.eth_usd, {
      price: '3000.12',
      updated_at: new Date(Number(timestamp) * 1000).toISOString(),
      feed: getAddress(feed),
    });
    const dollars = (wei: string) => Number(formatEther(BigInt(wei))) * 3000.12345678;
    assert.ok(coin.market_cap?.usd !== null && coin.market_cap !== null);
    assert.ok(Math.abs(Number(coin.market_cap.usd) - dollars(coin.market_cap.eth)) <= 0.01, coin.market_cap.usd);
    assert.ok(Math.abs(Number(coin.volume_24h.usd) - dollars(coin.volume_24h.eth)) <= 0.01);
    assert.ok(Math.abs(Number(coin.price?.usd_per_million_tokens) - dollars(coin.price?.wei_per_million_tokens ?? '0')) <= 0.01);
    assert.ok(Math.abs(Number(coin.creator_earnings.total_usd) - dollars(coin.creator_earnings.total_eth)) <= 0.01);
    const portfolio = await publicGet(`/v1/public/portfolios/${developmentAccount().address}`, portfolioSchema);
    assert.ok(Math.abs(Number(portfolio.total_value.usd) - dollars(portfolio.total_value.eth)) <= 0.01);

    // A round two hours old (the Base feed's heartbeat is 20 minutes): no USD rather than a stale one.
    await setRound(300_012_345_678n, timestamp - 7_200n);
    const stale = await publicGet('/v1/public/coins/1', coinSchema);
    assert.deepEqual([stale.eth_usd, stale.market_cap?.usd, stale.creator_earnings.total_usd], [null, null, null]);
    // A contract that is no ETH/USD feed (the song's token): no USD either, and the page still answers.
    ethUsd = createEthUsdReader({ client: reader, feed: (await readPool(sdk, { songId: 1n })).token, cacheMs: 0, now, logger });
    assert.equal((await publicGet('/v1/public/coins/1', coinSchema)).eth_usd, null);
    ethUsd = () => Promise.resolve(null);
  });
  it('quotes the most the pool can buy back (quoteSellMax): with its allocation the creator holds more, the quoted maximum sells, one more percent does not', async () => {
    const account = developmentAccount().address;
    const pool = await readPool(sdk, { songId: 1n });
    const held = await tokenBalance(pool.token, account);
    const max = await quoteSellMax(sdk, { songId: 1n });
    assert.ok(max.quote !== undefined && max.maxTokens > 0n);
    assert.ok(max.maxTokens < held, `the allocation is more than the buyers' ETH can buy back: ${max.maxTokens} < ${held}`);
    // The sale of the maximum pays out the pool's ETH (what buyers put in, less what sellers took), the hook fee from it.
    const poolEth = Number(formatEther(pool.reserves.eth));
    assert.ok(
      Math.abs(Number(formatEther(max.quote.amountOut + max.quote.hookFee)) / poolEth - 1) < 1e-6,
      `${max.quote.amountOut} vs ${poolEth}`,
    );
    await assert.rejects(quoteTrade(sdk, { songId: 1n, side: 'sell', amountIn: (max.maxTokens * 101n) / 100n }), /QUOTE_FAILED/);
    const sold = await sell(sdk, { songId: 1n, amountIn: max.maxTokens });
    assert.ok(sold.amountOut >= max.quote.limit);
    swapReceipts.push(sold.receipt);
    const after = await quoteSellMax(sdk, { songId: 1n });
    assert.ok(after.maxTokens < max.maxTokens / 1_000_000n, `next to nothing is left to sell into: ${after.maxTokens}`);
  });
});
