import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createTestClient,
  createWalletClient,
  custom,
  formatEther,
  http,
  parseAbi,
  parseEther,
  parseEventLogs,
  type Address,
  type Block,
} from 'viem';
import {
  buy,
  connectSongmint,
  localBaseChain,
  quoteTrade,
  readPool,
  sell,
  songPoolHookAbi,
  songTokenAbi,
  type SwapResult,
} from '@songmint/sdk';
import { privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../core/src/testing/free-port.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../scripts/local-chain.ts';
import { baseContracts, expectedBaseCode, formatVerification, verifyBase } from '../../scripts/verify-base.ts';
import { localBase, localPublicClient } from './support/local-base.ts';

/** Hardhat's dev account #2: a creator with ETH on the local chain. */
const CREATOR_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

const songNftAbi = parseAbi([
  'function mint(string metadataURI, bytes32 audioHash, bytes signature) returns (uint256)',
  'function platformSigner() view returns (address)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'event SongMinted(uint256 indexed tokenId, address indexed minter, bytes32 indexed audioHash, string metadataURI)',
  'function approve(address to, uint256 tokenId)',
  'function ownerOf(uint256 tokenId) view returns (address)',
]);

const songVaultAbi = parseAbi([
  'function launch(uint256 songId, (uint16 allocationBps, address allocationRecipient) params) returns (address token)',
  'function tokenOf(uint256 songId) view returns (address)',
]);

/** The first block after `number`, waited for (the node mines one every 2 s). */
async function waitForBlockAfter(client: ReturnType<typeof localPublicClient>, number: bigint): Promise<Block> {
  for (;;) {
    const block = await client.getBlock({ blockTag: 'latest' });
    if (block.number > number) return block;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('scripts/local-chain.ts serves chain 8453 with the protocol deployed: mint with the local platform key, then launch on Uniswap v4', async () => {
  const port = await freePort();
  const chain = await startLocalChain({ port });
  try {
    assert.equal(chain.rpcUrl, `http://127.0.0.1:${port}`);
    assert.equal(chain.chainId, 8453);
    const songNft = chain.contracts.SongNFT;
    assert.ok(songNft, 'SongNFT address');

    const publicClient = localPublicClient(chain.rpcUrl);
    assert.equal(await publicClient.getChainId(), 8453);

    const platform = createMintSigner(LOCAL_PLATFORM_SIGNER_KEY);
    assert.equal(await publicClient.readContract({ address: songNft, abi: songNftAbi, functionName: 'platformSigner' }), platform.address);

    const creator = privateKeyToAccount(CREATOR_KEY);
    const wallet = createWalletClient({ account: creator, chain: localBase, transport: http(chain.rpcUrl) });
    const metadataUri = 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    const audioHash = `0x${'ab'.repeat(32)}` as const;
    const signature = await platform.sign({ minter: creator.address, metadataUri, audioHash });
    const hash = await wallet.writeContract({
      address: songNft,
      abi: songNftAbi,
      functionName: 'mint',
      args: [metadataUri, audioHash, signature],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    const [minted] = parseEventLogs({ abi: songNftAbi, eventName: 'SongMinted', logs: receipt.logs });
    assert.deepEqual(minted?.args, { tokenId: 1n, minter: creator.address, audioHash, metadataURI: metadataUri });
    assert.equal(await publicClient.readContract({ address: songNft, abi: songNftAbi, functionName: 'tokenURI', args: [1n] }), metadataUri);

    // Uniswap v4 sits at its Base address and the vault launches the song there.
    assert.equal(chain.contracts.PoolManager, '0x498581fF718922c3f8e6A244956aF099B2652b2b');
    assert.ok(((await publicClient.getCode({ address: chain.contracts.PoolManager })) ?? '0x').length > 2, 'PoolManager code');
    const vault = chain.contracts.SongVault;
    assert.ok(vault, 'SongVault address');
    const approval = await wallet.writeContract({ address: songNft, abi: songNftAbi, functionName: 'approve', args: [vault, 1n] });
    await publicClient.waitForTransactionReceipt({ hash: approval });
    const launch = await wallet.writeContract({
      address: vault,
      abi: songVaultAbi,
      functionName: 'launch',
      args: [1n, { allocationBps: 500, allocationRecipient: creator.address }],
    });
    assert.equal((await publicClient.waitForTransactionReceipt({ hash: launch })).status, 'success');
    assert.equal(await publicClient.readContract({ address: songNft, abi: songNftAbi, functionName: 'ownerOf', args: [1n] }), vault);
    const token = await publicClient.readContract({ address: vault, abi: songVaultAbi, functionName: 'tokenOf', args: [1n] });
    assert.ok(((await publicClient.getCode({ address: token })) ?? '0x').length > 2, 'song token deployed');

    // Like Base, the node makes a block every 2 s with no transaction: the launch fee decays
    // block by block, and the SDK reads it for the block a trade joins, not the latest one.
    const launchedIn = await publicClient.getBlockNumber();
    const idleBlock = await waitForBlockAfter(publicClient, launchedIn);
    assert.ok(idleBlock.transactions.length === 0, 'an interval block, without transactions');
    const trader = connectSongmint({ rpcUrl: chain.rpcUrl, wallet: { account: creator } });
    const pool = await readPool(trader, { songId: 1n });
    const hookFeeIn = (block: bigint) =>
      publicClient.readContract({
        address: pool.poolKey.hooks,
        abi: songPoolHookAbi,
        functionName: 'swapFeePips',
        args: [pool.launchedAt],
        blockNumber: block,
      });
    assert.ok(pool.swapFeePips < 500_000n && pool.swapFeePips > 10_000n, `decaying launch fee ${pool.swapFeePips}`);
    assert.ok(pool.feeBlock.timestamp > idleBlock.timestamp, 'the fee is for the next block');
    // Base's block times: a block every 2 s, each 2 s after the one before, and a transaction
    // joins the coming one, stamped as the pending block a quote reads.
    const nextIdle = await waitForBlockAfter(publicClient, idleBlock.number ?? 0n);
    assert.equal(nextIdle.timestamp - idleBlock.timestamp, 2n, 'interval blocks 2 s apart');
    // A quote, then the buy it describes (the quote before it as the app shows it): the buy joins
    // the block it was quoted for (quoted again when one began before it was sent), and the hook
    // fee quoted for that block is the one charged, to the wei; what arrived is within the
    // slippage shown.
    const shown = await quoteTrade(trader, { songId: 1n, side: 'buy', amountIn: parseEther('0.002'), slippageBps: 100 });
    assert.equal(shown.lpFeePips, 10_000n);
    assert.ok(shown.priceImpactPips > 0n && shown.priceImpactPips < 10_000n, `price impact ${shown.priceImpactPips} pips`);
    const bought = await buy(trader, { songId: 1n, amountIn: parseEther('0.002'), slippageBps: 100 });
    assert.ok(bought.amountOut >= shown.limit, 'within the slippage shown');
    assert.equal(bought.hookFeePips, await hookFeeIn(bought.receipt.blockNumber));
    assert.equal(bought.blockTimestamp, (await publicClient.getBlock({ blockNumber: bought.receipt.blockNumber })).timestamp);
    assert.equal(bought.blockTimestamp, bought.quoted.block.timestamp, 'the buy joined the block of its quote');
    assert.equal(bought.hookFeePips, bought.quoted.hookFeePips);
    assert.equal(bought.hookFee, bought.quoted.hookFee, 'the quoted hook fee to the wei');
    assert.equal(bought.amountOut, bought.quoted.amountOut);
    assert.ok(bought.hookFeePips <= shown.hookFeePips, 'the fee only falls after the quote');
    // A block that begins while the buy is being prepared (here: the wallet's nonce read held past
    // the next block, as a slow node or wallet would): the buy is quoted again before it is sent,
    // reports both quotes, and pays the new one's fee in the block it was quoted for.
    let holdNonceRead = true;
    const slowWallet = createWalletClient({
      account: creator,
      chain: localBaseChain(chain.rpcUrl),
      transport: custom({
        request: async ({ method, params }: { method: string; params?: unknown }) => {
          if (method === 'eth_getTransactionCount' && holdNonceRead) {
            holdNonceRead = false;
            await new Promise((resolve) => setTimeout(resolve, 2_500));
          }
          return publicClient.request({ method, params } as never);
        },
      }),
    });
    const requoted = await buy({ ...trader, walletClient: slowWallet }, { songId: 1n, amountIn: parseEther('0.001') });
    assert.ok(requoted.requotedFrom !== undefined, 'quoted again');
    assert.ok(requoted.requotedFrom.block.timestamp < requoted.quoted.block.timestamp, 'for a later block');
    assert.equal(requoted.blockTimestamp, requoted.quoted.block.timestamp, 'the buy joined the block of its new quote');
    assert.equal(requoted.hookFeePips, requoted.quoted.hookFeePips);
    assert.equal(requoted.hookFee, requoted.quoted.hookFee, 'the new quote’s hook fee to the wei');
    assert.ok(requoted.hookFeePips < requoted.requotedFrom.hookFeePips, 'the fee fell between the two quotes');

    // Selling more than the wallet holds, or more than the pool can fill, is refused in words
    // before anything is signed or sent.
    const nonce = await publicClient.getTransactionCount({ address: creator.address });
    const held = await publicClient.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [creator.address] });
    await assert.rejects(sell(trader, { songId: 1n, amountIn: held + 1n }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'INSUFFICIENT_BALANCE');
      assert.match(error.message, new RegExp(`You hold ${formatEther(held).replace('.', '\\.')} tokens .*; reduce the amount`));
      return true;
    });
    await assert.rejects(buy(trader, { songId: 1n, amountOut: 10n ** 27n }), { code: 'QUOTE_FAILED' });
    // A sale the pool would pay 0 ETH for (one token unit) is refused too: no Permit2 approval, no swap (issue 51).
    await assert.rejects(sell(trader, { songId: 1n, amountIn: 1n }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ZERO_QUOTE');
      assert.match(error.message, /the pool would pay 0 ETH for 0\.000000000000000001 tokens now: nothing was sent/);
      return true;
    });
    assert.equal(await publicClient.getTransactionCount({ address: creator.address }), nonce, 'nothing was sent');

    // The SDK trades it through the Universal Router at its Base address, every kind, once the
    // launch fee has decayed to 1%: what the quote said is what moved, the hook fee to the wei.
    assert.equal(chain.contracts.UniversalRouter, '0x6fF5693b99212Da76ad316178A184AB56D299b43');
    assert.equal(chain.contracts.Permit2, '0x000000000022D473030F116dDEE9F6B43aC78BA3');
    const testClient = createTestClient({ mode: 'hardhat', chain: localBase, transport: http(chain.rpcUrl) });
    // No block is mined here: quotes read the block a trade joins, so they see the decayed fee.
    await testClient.increaseTime({ seconds: 300 });
    const feeOf = (amount: bigint, onTop = false) => {
      const denominator = onTop ? 990_000n : 1_000_000n;
      return (amount * 10_000n + denominator - 1n) / denominator;
    };
    const ethSpent = async (trade: SwapResult) => {
      const { gasUsed, effectiveGasPrice, blockNumber } = trade.receipt;
      const [before, after] = await Promise.all([
        publicClient.getBalance({ address: creator.address, blockNumber: blockNumber - 1n }),
        publicClient.getBalance({ address: creator.address, blockNumber }),
      ]);
      return before - after - gasUsed * effectiveGasPrice;
    };
    const tokenBalance = () =>
      publicClient.readContract({ address: token, abi: songTokenAbi, functionName: 'balanceOf', args: [creator.address] });

    const startTokens = await tokenBalance();
    const buyIn = await buy(trader, { songId: 1n, amountIn: parseEther('0.01') });
    assert.equal(buyIn.receipt.to?.toLowerCase(), chain.contracts.UniversalRouter.toLowerCase());
    assert.deepEqual([buyIn.amountIn, buyIn.amountOut, buyIn.hookFee], [parseEther('0.01'), buyIn.quote, feeOf(parseEther('0.01'))]);
    assert.equal(await ethSpent(buyIn), parseEther('0.01'));
    assert.equal((await tokenBalance()) - startTokens, buyIn.amountOut);

    const buyOut = await buy(trader, { songId: 1n, amountOut: 1_000_000n * 10n ** 18n, slippageBps: 50 });
    assert.deepEqual([buyOut.amountOut, buyOut.amountIn], [1_000_000n * 10n ** 18n, buyOut.quote]);
    assert.equal(buyOut.limit, (buyOut.quote * 10_050n + 9_999n) / 10_000n);
    assert.equal(await ethSpent(buyOut), buyOut.amountIn, 'the change came back in the same transaction');
    assert.equal(await publicClient.getBalance({ address: chain.contracts.UniversalRouter }), 0n);

    const sellIn = await sell(trader, { songId: 1n, amountIn: buyIn.amountOut / 2n });
    assert.ok(sellIn.permit2ApprovalHash !== undefined, 'the first sale approves Permit2 once');
    assert.deepEqual([sellIn.amountIn, sellIn.amountOut], [buyIn.amountOut / 2n, sellIn.quote]);
    assert.equal(sellIn.hookFee, feeOf(sellIn.amountOut + sellIn.hookFee));
    assert.equal(await ethSpent(sellIn), -sellIn.amountOut);

    const sellOut = await sell(trader, { songId: 1n, amountOut: parseEther('0.001'), deadlineSeconds: 60 });
    assert.equal(sellOut.permit2ApprovalHash, undefined, 'Permit2 is approved already');
    assert.deepEqual(
      [sellOut.amountOut, sellOut.amountIn, sellOut.hookFee],
      [parseEther('0.001'), sellOut.quote, feeOf(parseEther('0.001'), true)],
    );
    // 60 s after the latest block when it was sent (an interval block may have come since).
    const sentAfter = (await publicClient.getBlock({ blockNumber: sellOut.receipt.blockNumber - 1n })).timestamp;
    assert.ok(sellOut.deadline - 60n <= sentAfter && sellOut.deadline - 60n >= sentAfter - 4n, `deadline ${sellOut.deadline}`);
    assert.equal(await ethSpent(sellOut), -parseEther('0.001'));
    assert.equal((await tokenBalance()) - startTokens, buyIn.amountOut + buyOut.amountOut - sellIn.amountIn - sellOut.amountIn);
    const allowance = (spender: Address) =>
      publicClient.readContract({ address: token, abi: songTokenAbi, functionName: 'allowance', args: [creator.address, spender] });
    assert.equal(await allowance(chain.contracts.UniversalRouter), 0n, 'nothing is approved to the router');
    assert.ok((await allowance(chain.contracts.Permit2)) > 0n);
    await assert.rejects(buy(trader, { songId: 1n, amountIn: 1n, amountOut: 1n } as never), { code: 'INVALID_ARGUMENT' });
    await assert.rejects(sell(trader, { songId: 1n, amountIn: 1n, slippageBps: 10_001 }), { code: 'INVALID_ARGUMENT' });

    // `npm run verify:base` against this chain (no Base endpoint here): every Base address holds
    // the code a fresh simulated chain builds; then a changed immutable and a changed byte of code
    // are each reported as such.
    const expected = await expectedBaseCode();
    const verified = await verifyBase(chain.rpcUrl, expected);
    assert.equal(verified.chainId, 8453);
    assert.deepEqual(
      verified.checks.map((check) => [check.name, check.status]),
      [
        ['PoolManager', 'identical'],
        ['UniversalRouter', 'identical'],
        ['Permit2', 'identical'],
        ['V4Quoter', 'identical'],
        ['CREATE2 deployment proxy', 'identical'],
      ],
    );
    assert.ok(verified.ok, formatVerification(verified));
    // `npm run verify:base -- --local` reports this comparison as what it is: two local builds.
    const localReport = formatVerification(verified, 'local').split('\n');
    assert.match(localReport[0]!, /^LOCAL ONLY: .*not Base\.$/);
    assert.equal(
      localReport.at(-1),
      'every address matches the local chain: two local builds compared, Base NOT checked (set BASE_RPC_URL for that)',
    );
    assert.equal(formatVerification(verified).split('\n').at(-1), 'every address matches Base');
    const router = verified.checks[1]!;
    const routerCode = expected.get(router.address)!;
    const immutable = baseContracts()[1]!.immutables[0]!;
    const at = 2 + immutable.start * 2;
    const otherWord = `0x${'11'.repeat(32)}` as const;
    await testClient.setCode({
      address: router.address,
      bytecode: `0x${routerCode.slice(2, at)}${otherWord.slice(2)}${routerCode.slice(at + 64)}`,
    });
    const quoter = verified.checks[3]!;
    const quoterCode = expected.get(quoter.address)!;
    await testClient.setCode({
      address: quoter.address,
      bytecode: `0x${quoterCode.slice(2, 20)}${quoterCode.slice(20, 22) === 'ff' ? '00' : 'ff'}${quoterCode.slice(22)}`,
    });
    const tampered = await verifyBase(chain.rpcUrl, expected);
    assert.equal(tampered.ok, false);
    const [, routerCheck, , quoterCheck] = tampered.checks;
    assert.equal(routerCheck?.status, 'immutables differ');
    assert.deepEqual(routerCheck?.immutables, [
      { offset: immutable.start, expected: `0x${routerCode.slice(at, at + 64)}`, served: otherWord },
    ]);
    assert.equal(quoterCheck?.status, 'code differs');
    assert.equal(quoterCheck?.firstDifference, 9);
    assert.match(
      formatVerification(tampered),
      /MISMATCH {2}UniversalRouter .* same code, other immutables:\n {12}byte \d+: built 0x[0-9a-f]{64}, served 0x(11){32}/,
    );
  } finally {
    await chain.stop();
  }
  await assert.rejects(fetch(`http://127.0.0.1:${port}`, { method: 'POST' }));
});
