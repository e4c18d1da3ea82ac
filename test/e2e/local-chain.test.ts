import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWalletClient, http, parseAbi, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../core/src/testing/free-port.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../scripts/local-chain.ts';
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
  } finally {
    await chain.stop();
  }
  await assert.rejects(fetch(`http://127.0.0.1:${port}`, { method: 'POST' }));
});
