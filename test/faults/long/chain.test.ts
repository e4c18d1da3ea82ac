/**
 * The chain RPC down and reorging (issue 12, item 2): an oracle process whose watcher reads the
 * local Base chain (scripts/local-chain.ts, SongNFT deployed by Ignition) through a loopback
 * proxy that can go down. While the RPC is down the watcher keeps its cursor and records nothing;
 * once it is back it resumes from the cursor and records the mint made meanwhile, once. A mint in
 * a block the chain then drops (a reorg shallower than CHAIN_CONFIRMATIONS) is never counted; the
 * same signature minted again on the new branch counts once. The RPC blackholed (calls get no
 * answer and no close, test/faults/support/blackhole-proxy.ts): each watcher call is given up at
 * its deadline (oracle/src/chain/rpc-transport.ts), the cursors of the mint watcher and of the
 * pool indexer hold, and after healing the mint, the launch and the swap made meanwhile are
 * recorded once each.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, createWalletClient, http, parseAbi, parseEther } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../../scripts/local-chain.ts';
import type { LocalChain } from '../../../scripts/local-chain.ts';
import { RPC_CALL_BOUND_MS } from '../../../oracle/src/chain/rpc-transport.ts';
import { poolCursorName } from '../../../oracle/src/chain/pool-indexer.ts';
import { buy, connectSongmint, launchSong } from '../../../sdk/src/index.ts';
import { startBlackholeProxy } from '../support/blackhole-proxy.ts';
import type { BlackholeProxy } from '../support/blackhole-proxy.ts';
import { recordFigure } from '../support/figures.ts';
import type { FaultCluster, OracleReplica, Session } from '../support/cluster.ts';
import { httpRequest, startFaultCluster, waitFor } from '../support/cluster.ts';

/** Hardhat's dev account #2 (funded on the local chain; public knowledge). */
const MINTER_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const CONFIRMATIONS = 2;
const SONG_NFT_ABI = parseAbi(['function mint(string metadataURI, bytes32 audioHash, bytes signature) returns (uint256)']);

interface RpcProxy {
  url: string;
  down: boolean;
  refused: number;
  close(): Promise<void>;
}

/** Forwards JSON-RPC to `target`; while `down`, drops every connection unanswered. */
async function startRpcProxy(target: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', down: false, refused: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    if (proxy.down) {
      proxy.refused++;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          res.statusCode = answer.status;
          res.setHeader('content-type', 'application/json');
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

describe('chain watcher with the RPC down and the chain reorging', { timeout: 600_000 }, () => {
  let cluster: FaultCluster;
  let chain: LocalChain;
  let proxy: RpcProxy;
  let blackhole: BlackholeProxy;
  let oracle: OracleReplica;
  let user: Session;
  before(async () => {
    // Blocks only on transactions and `hardhat_mine`: the test counts heights and confirmations itself.
    chain = await startLocalChain({ blockIntervalMs: 0 });
    proxy = await startRpcProxy(chain.rpcUrl);
    blackhole = await startBlackholeProxy({ port: Number(new URL(proxy.url).port) });
    cluster = await startFaultCluster();
    const nft = chain.contracts.SongNFT;
    const vault = chain.contracts.SongVault;
    const poolManager = chain.contracts.PoolManager;
    assert.ok(nft !== undefined && vault !== undefined && poolManager !== undefined);
    oracle = await cluster.startOracle({
      CHAIN_RPC_URL: `http://127.0.0.1:${blackhole.port}`,
      SONG_NFT_ADDRESS: nft,
      SONG_VAULT_ADDRESS: vault,
      POOL_MANAGER_ADDRESS: poolManager,
      CHAIN_CONFIRMATIONS: String(CONFIRMATIONS),
      PLATFORM_SIGNER_KEY: LOCAL_PLATFORM_SIGNER_KEY,
    });
    await cluster.startWorker();
    user = await cluster.login(oracle, { tier: 'pro', account: privateKeyToAccount(MINTER_KEY) });
  });
  after(async () => {
    await cluster?.stop();
    await blackhole?.close();
    await proxy?.close();
    await chain?.stop();
  });

  it('pauses while the RPC is down, resumes from its cursor, and never counts a reorged-out mint', async () => {
    const nft = chain.contracts.SongNFT as Address;
    const rpc = createPublicClient({ transport: http(chain.rpcUrl) });
    const wallet = createWalletClient({ account: user.account, transport: http(chain.rpcUrl) });
    const mine = (blocks: number) =>
      rpc.request({ method: 'hardhat_mine' as 'eth_blockNumber', params: [`0x${blocks.toString(16)}`] as unknown as undefined });

    const songs: Array<{ jobId: string; uri: string; audioHash: Hex; signature: Hex }> = [];
    for (let i = 0; i < 4; i++) {
      const created = await httpRequest(`${oracle.url}/api/generate`, { token: user.token, body: { prompt: `minted ${i}`, duration: 5 } });
      assert.equal(created.status, 202, created.text);
      const jobId = (created.body as { job_id: string }).job_id;
      const audioUrl = await waitFor(
        `${jobId}`,
        async () => {
          const body = (await httpRequest(`${oracle.url}/api/generate/${jobId}`, { token: user.token })).body as {
            status: string;
            audio_url?: string;
          };
          return body.status === 'completed' ? body.audio_url : undefined;
        },
        120_000,
        250,
      );
      const metadata = await httpRequest(`${oracle.url}/api/metadata`, {
        token: user.token,
        body: { name: `Song ${i}`, description: 'on chain', audio_url: audioUrl },
      });
      assert.equal(metadata.status, 201, metadata.text);
      const uri = (metadata.body as { metadata_uri: string }).metadata_uri;
      const signed = await httpRequest(`${oracle.url}/api/signature`, {
        token: user.token,
        body: { job_id: jobId, user_address: user.address, metadata_uri: uri },
      });
      assert.equal(signed.status, 200, signed.text);
      const { signature, audio_hash: audioHash } = signed.body as { signature: Hex; audio_hash: Hex };
      songs.push({ jobId, uri, audioHash, signature });
    }
    const mint = async (song: (typeof songs)[number]) => {
      const hash = await wallet.writeContract({
        address: nft,
        abi: SONG_NFT_ABI,
        functionName: 'mint',
        args: [song.uri, song.audioHash, song.signature],
        chain: null,
      });
      await rpc.waitForTransactionReceipt({ hash });
    };
    const used = (song: (typeof songs)[number]) =>
      cluster.db
        .one<{ signature_used: boolean }>('SELECT signature_used FROM generation_jobs WHERE id = $1', [song.jobId.replace(/^gen_/, '')])
        .then((row) => row.signature_used);
    const minted = () =>
      cluster.db
        .one<{ total_minted: number }>('SELECT total_minted FROM users WHERE id = $1', [user.userId])
        .then((row) => row.total_minted);
    const cursorOf = (name: string) =>
      cluster.db
        .oneOrNone<{ block: string }>('SELECT block_number::text AS block FROM chain_cursors WHERE name = $1', [name])
        .then((row) => (row === null ? -1n : BigInt(row.block)));
    const cursor = () => cursorOf(`SongMinted:${nft.toLowerCase()}`);
    const poolCursor = () => cursorOf(poolCursorName(chain.contracts.SongVault as Address));
    const poolRows = () =>
      cluster.db.one<{ pools: number; swaps: number; swap_tx: string | null }>(
        `SELECT (SELECT count(*)::int FROM song_pools WHERE song_id = 1) AS pools,
                (SELECT count(*)::int FROM pool_swaps) AS swaps,
                (SELECT min(tx_hash) FROM pool_swaps) AS swap_tx`,
      );
    const [first, second, third, fourth] = songs;
    assert.ok(first !== undefined && second !== undefined && third !== undefined && fourth !== undefined);

    await mint(first);
    await mine(CONFIRMATIONS);
    await waitFor('the first mint to be recorded', async () => ((await used(first)) ? true : undefined), 60_000, 250);

    // RPC down: a mint happens meanwhile; nothing moves until the RPC is back.
    proxy.down = true;
    const cursorWhileDown = await cursor();
    await mint(second);
    await mine(CONFIRMATIONS);
    await waitFor('the watcher to try the RPC while it is down', async () => (proxy.refused >= 2 ? true : undefined), 60_000, 250);
    assert.equal(await used(second), false);
    assert.equal(await cursor(), cursorWhileDown, 'the cursor holds while the RPC is down');
    assert.equal(oracle.child.exitCode, null, 'the oracle stays up');
    const live = await httpRequest(`${oracle.url}/health/live`);
    assert.equal(live.status, 200);
    proxy.down = false;
    await waitFor('the mint made while the RPC was down', async () => ((await used(second)) ? true : undefined), 60_000, 250);
    assert.equal(await minted(), 2);

    // RPC blackholed: every call of the mint watcher and of the pool indexer is given up at its
    // deadline (viem: "took too long"), both cursors hold, and the mint, the launch and the swap
    // made meanwhile are recorded once each after healing.
    const head = await rpc.getBlockNumber();
    await waitFor(
      'the pool indexer to catch up',
      async () => ((await poolCursor()) >= head - BigInt(CONFIRMATIONS) ? true : undefined),
      60_000,
      250,
    );
    const timeoutsBefore = oracle.output().split('took too long').length;
    blackhole.blackhole();
    const cursorWhileSilent = await cursor();
    const poolCursorWhileSilent = await poolCursor();
    await mint(fourth);
    // The first song, minted above by the same wallet, is launched and bought while the oracle hears nothing.
    const trader = connectSongmint({ rpcUrl: chain.rpcUrl, wallet: { account: user.account } });
    await launchSong(trader, { songId: 1n });
    const bought = await buy(trader, { songId: 1n, amountIn: parseEther('0.01') });
    await mine(CONFIRMATIONS);
    const silentSince = performance.now();
    await waitFor(
      'a call of each reader given up at its deadline',
      async () => (oracle.output().split('took too long').length > timeoutsBefore + 1 ? true : undefined),
      RPC_CALL_BOUND_MS * 6,
      250,
    );
    const gaveUpMs = Math.round(performance.now() - silentSince);
    assert.equal(await used(fourth), false);
    assert.equal(await cursor(), cursorWhileSilent, 'the watcher cursor holds while the RPC is silent');
    assert.equal(await poolCursor(), poolCursorWhileSilent, 'the pool indexer cursor holds while the RPC is silent');
    assert.deepEqual(await poolRows(), { pools: 0, swaps: 0, swap_tx: null });
    assert.equal((await httpRequest(`${oracle.url}/health/live`, { timeoutMs: 5000 })).status, 200);
    blackhole.heal();
    await waitFor('the mint made while the RPC was silent', async () => ((await used(fourth)) ? true : undefined), 60_000, 250);
    assert.equal(await minted(), 3);
    await waitFor(
      'the launch and swap made while the RPC was silent',
      async () => ((await poolRows()).swaps > 0 ? true : undefined),
      60_000,
      250,
    );
    assert.deepEqual(await poolRows(), { pools: 1, swaps: 1, swap_tx: bought.receipt.transactionHash.toLowerCase() });

    // A reorg shallower than the confirmations: the block holding the third mint is dropped.
    const snapshot = (await rpc.request({ method: 'evm_snapshot' as 'eth_blockNumber' })) as unknown as string;
    await mint(third);
    const reverted = (await rpc.request({
      method: 'evm_revert' as 'eth_blockNumber',
      params: [snapshot] as unknown as undefined,
    })) as unknown as boolean;
    assert.equal(reverted, true);
    await mine(CONFIRMATIONS + 2);
    const newHead = await rpc.getBlockNumber();
    await waitFor(
      'the watcher to pass the reorged height',
      async () => ((await cursor()) >= newHead - BigInt(CONFIRMATIONS) ? true : undefined),
      60_000,
      250,
    );
    assert.equal(await used(third), false, 'a mint the chain dropped is not counted');
    assert.equal(await minted(), 3);

    // The same signature, minted on the new branch: counted once.
    await mint(third);
    await mine(CONFIRMATIONS);
    await waitFor('the third mint', async () => ((await used(third)) ? true : undefined), 60_000, 250);
    assert.equal(await minted(), 4, 'each mint counted exactly once');
    const tokens = await cluster.db.many<{ nft_token_id: string }>(
      'SELECT nft_token_id::text FROM generation_jobs WHERE signature_used ORDER BY nft_token_id',
    );
    assert.deepEqual(
      tokens.map((row) => row.nft_token_id),
      ['1', '2', '3', '4'],
    );
    // Polled again and again since healing, the indexer still holds one launch and one swap.
    assert.deepEqual(await poolRows(), { pools: 1, swaps: 1, swap_tx: bought.receipt.transactionHash.toLowerCase() });
    recordFigure('chain-faults', {
      mintsRecorded: 4,
      rpcRequestsRefused: proxy.refused,
      reorgedOutMintsCounted: 0,
      rpcSilentGivenUpAfterMs: gaveUpMs,
      poolEventsRecordedOnceAfterSilence: 2,
    });
  });
});
