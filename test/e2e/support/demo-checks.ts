/**
 * The demo's flow (scripts/demo.ts) run in-process against a started stack, its figures checked
 * against the chain and the API, plus the SDK's two generated inputs that need a running stack:
 * the served OpenAPI document and the local deployment's addresses.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPublicClient, getAddress, http, parseEventLogs } from 'viem';
import { localBaseChain, poolManagerAbi, songmintAddresses, songNftAbi, songTokenAbi, songVaultAbi } from '@songmint/sdk';
import { servedOpenApiDocument } from '../../../oracle/src/http/served-openapi.ts';
import { runDemo } from '../../../scripts/demo.ts';
import type { NpmStartStack } from '../../support/npm-start.ts';

interface StackState {
  rpc: string;
  contracts: Record<string, string>;
}

export async function checkDemoAgainstChainAndApi(stack: NpmStartStack): Promise<void> {
  const state = JSON.parse(await readFile(join(stack.dataDir, 'dev-stack.json'), 'utf8')) as StackState;

  // What the SDK's types and addresses were generated from is what this stack serves and deploys.
  assert.deepEqual(
    await (await fetch(`${stack.baseUrl}/openapi.json`)).json(),
    servedOpenApiDocument(),
    'sdk/src/generated/api.ts source: run `npm run sdk:generate`',
  );
  for (const [name, address] of Object.entries(songmintAddresses.local)) {
    if (name !== 'chainId') assert.equal(state.contracts[name], address, `${name} moved: run \`npm run sdk:generate\``);
  }

  const lines: string[] = [];
  const result = await runDemo({ apiUrl: stack.baseUrl, rpcUrl: state.rpc, log: (line) => lines.push(line) });
  const client = createPublicClient({ chain: localBaseChain(state.rpc), transport: http(state.rpc) });
  const { SongNFT, SongVault } = songmintAddresses.local;

  assert.match(result.lyrics ?? '', /\[verse\]/, 'with_lyrics: the song has generated lyrics');
  assert.match(result.audioHash, /^0x[0-9a-f]{64}$/);
  // The demo's edit: the song extended by 5 s on the built-in model, its own audio.
  assert.equal(result.edited.duration, 15);
  assert.notEqual(result.edited.audioHash, result.audioHash);
  // The launched NFT is in the vault for good; its creator is the demo wallet.
  assert.equal(
    await client.readContract({ address: SongNFT, abi: songNftAbi, functionName: 'ownerOf', args: [result.tokenId] }),
    SongVault,
  );
  assert.equal(
    await client.readContract({ address: SongNFT, abi: songNftAbi, functionName: 'creatorOf', args: [result.tokenId] }),
    result.wallet,
  );
  assert.equal(
    await client.readContract({ address: SongNFT, abi: songNftAbi, functionName: 'tokenURI', args: [result.tokenId] }),
    result.metadataUri,
  );
  const token = await client.readContract({ address: SongVault, abi: songVaultAbi, functionName: 'tokenOf', args: [result.tokenId] });
  assert.equal(result.predictedToken, token);
  assert.equal(result.launched.token, token);

  // Every token the wallet holds is accounted for: bought - sold + claimed fees. The allocation is
  // still vesting (its cliff is days away): the demo cannot claim it.
  const claimedTokens = result.claimed.claimed.reduce((sum, entry) => sum + entry.token, 0n);
  const balance = await client.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [result.wallet] });
  assert.equal(balance, result.bought.amountOut - result.sold.amountIn + claimedTokens);
  assert.ok(result.bought.amountOut >= result.bought.limit && result.sold.amountOut >= result.sold.limit, 'slippage floors held');
  // Both trades went through the Universal Router at its Base address, the sell's tokens by a Permit2
  // signature: the PoolManager's Swap names it as sender, and its mints of the hook's fee (the hook
  // logs nothing of its own: to the song's token, and inside the launch fee window the part above
  // the steady rate to the hook itself, burnt) add up to the fee the SDK reported.
  for (const trade of [result.bought, result.sold]) {
    assert.equal(trade.receipt.to?.toLowerCase(), songmintAddresses.local.UniversalRouter.toLowerCase());
    const [swapped] = parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: trade.receipt.logs });
    assert.equal(swapped?.args.sender, songmintAddresses.local.UniversalRouter);
    const feeMints = parseEventLogs({ abi: poolManagerAbi, eventName: 'Transfer', logs: trade.receipt.logs }).filter(
      (log) =>
        log.args.caller === songmintAddresses.local.SongPoolHook &&
        (log.args.to === token || log.args.to === songmintAddresses.local.SongPoolHook) &&
        log.args.id === 0n,
    );
    assert.equal(
      feeMints.reduce((sum, log) => sum + log.args.amount, 0n),
      trade.hookFee,
    );
    assert.ok(trade.hookFee > 0n);
  }
  const permit2Allowance = await client.readContract({
    address: token,
    abi: songTokenAbi,
    functionName: 'allowance',
    args: [result.wallet, songmintAddresses.local.Permit2],
  });
  assert.equal(permit2Allowance > 0n, true, 'the token is approved to Permit2');
  const routerAllowance = await client.readContract({
    address: token,
    abi: songTokenAbi,
    functionName: 'allowance',
    args: [result.wallet, songmintAddresses.local.UniversalRouter],
  });
  assert.equal(routerAllowance, 0n, 'no token approval to the router');
  // The allocation vests after its cliff: the demo runs well inside it, so none of it exists yet.
  const [recipient, total, claimed, vested, cliffEnd, vestingEnd] = await client.readContract({
    address: SongVault,
    abi: songVaultAbi,
    functionName: 'allocationOf',
    args: [result.tokenId],
  });
  assert.deepEqual(
    { recipient, total, claimed, vested, cliffEnd, vestingEnd },
    {
      recipient: result.wallet,
      total: result.launched.allocation,
      claimed: 0n,
      vested: 0n,
      cliffEnd: result.launched.allocationCliffEnd,
      vestingEnd: result.launched.allocationVestingEnd,
    },
  );

  // The sell's ETH, read from events, is what the wallet's balance gained net of gas.
  const sellBlock = result.sold.receipt.blockNumber;
  const [before, after] = await Promise.all([
    client.getBalance({ address: result.wallet, blockNumber: sellBlock - 1n }),
    client.getBalance({ address: result.wallet, blockNumber: sellBlock }),
  ]);
  const receipt = result.sold.receipt as typeof result.sold.receipt & { l1Fee?: bigint | null };
  const gas = result.sold.receipt.gasUsed * result.sold.receipt.effectiveGasPrice + (receipt.l1Fee ?? 0n);
  assert.equal(after - before + gas, result.sold.amountOut);

  // Fees: every hook fee charged was collected, and the creator was paid all a claim pays now: its
  // ETH; its song-token fees only once the launch window is over (the demo claims within seconds
  // of its launch, so they may still be credited). Inside the launch window the part of the hook
  // fee above the steady 1% is burnt: the song's fees are the rest.
  assert.equal(
    result.pool.totalSwapFees,
    result.bought.hookFee - result.bought.launchFeeBurnt + result.sold.hookFee - result.sold.launchFeeBurnt,
  );
  assert.equal(result.pool.uncollectedSwapFees, 0n);
  assert.ok(result.claimed.ethPaid > 0n);
  assert.equal(result.pool.fees.creator.eth, 0n);
  assert.deepEqual(result.pool.claimable.creator, { eth: 0n, token: 0n });
  assert.equal(result.pool.payoutRecipient, result.wallet);

  // The API saw the mint (chain watcher) and counts it.
  assert.ok(result.nft !== null, '/v1/nft/{id} indexed the mint');
  assert.equal(getAddress(result.nft.minter), result.wallet);
  assert.equal(result.nft.audio_hash, result.audioHash);
  assert.equal(result.nft.metadata_uri, result.metadataUri);
  assert.ok(result.profile.total_minted >= 1 && result.profile.total_generations >= 1);
  // npm start runs the pool indexer: its view matches the chain after the buy, the sell and the claim.
  assert.ok(result.indexedPool !== null, '/v1/trading/pools/{id} indexed the pool');
  assert.equal(result.indexedPool.pool_id, result.launched.poolId);
  assert.equal(result.indexedPool.trades_total, 2);
  assert.equal(result.indexedPool.liquidity, result.pool.liquidity.toString());
  assert.equal(result.indexedPool.fees.swap_fees_eth, result.pool.totalSwapFees.toString());
  assert.deepEqual(result.indexedPool.fees.claimable?.creator, { account: result.wallet, eth: '0', token: '0' });
  assert.equal(result.indexedPool.fees.claimable?.platform.eth, result.pool.fees.platform.eth.toString());
  assert.ok(lines.some((line) => line.includes('== Launched on Uniswap v4')));
}
