import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, createWalletClient, http, parseEther, parseEventLogs } from 'viem';
import type { Address, Hex, PublicClient, TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { pino } from 'pino';
import { freePort } from '../../core/src/testing/free-port.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { createClaimableFeesReader } from '../../oracle/src/chain/pool-fees.ts';
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
  getPool,
  getPoolHistory,
  getPools,
  getPublicSong,
  listPublicSongs,
  launchSong,
  mintSong,
  poolManagerAbi,
  readAllocation,
  readPool,
  sell,
  setPayoutRecipient,
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
    assert.ok(bought.hookFee > 0n && sold.hookFee > 0n);
    assert.equal(afterSell.fees.swap_fees_eth, (bought.hookFee + sold.hookFee).toString());
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

  it('holds the launch allocation until the launch fee is at its floor, then claimAllocation (SDK) mints it to its recipient once', async () => {
    const launcher = developmentAccount().address;
    const token = (await readPool(sdk, { songId: 1n })).token;
    const balance = () => sdk.publicClient.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [launcher] });
    const held = await readAllocation(sdk, { songId: 1n });
    assert.equal(held.recipient, launcher);
    assert.ok(held.amount >= (10n ** 27n * 5n) / 100n, '5% of the supply');
    const { timestamp } = await sdk.publicClient.getBlock({ blockTag: 'latest' });
    if (timestamp < held.claimableAt) {
      assert.equal(held.claimable, false);
      await assert.rejects(claimAllocation(sdk, { songId: 1n }), /AllocationLocked/);
      await rpc('evm_increaseTime', [Number(held.claimableAt - timestamp)]);
      await rpc('evm_mine');
    }
    assert.equal((await readAllocation(sdk, { songId: 1n })).claimable, true);
    const before = await balance();
    const claimed = await claimAllocation(sdk, { songId: 1n });
    assert.equal(claimed.recipient, launcher);
    assert.equal(claimed.amount, held.amount);
    assert.equal((await balance()) - before, held.amount);
    assert.deepEqual(await readAllocation(sdk, { songId: 1n }), {
      songId: 1n,
      recipient: null,
      amount: 0n,
      claimableAt: held.claimableAt,
      claimable: false,
    });
    await assert.rejects(claimAllocation(sdk, { songId: 1n }), /NoAllocation/);
  });
});
