import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { network } from 'hardhat';
import { createPublicClient, createWalletClient, custom, getAddress, parseEther } from 'viem';
import type { Abi, Address, Hex, PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { pino } from 'pino';
import { createChainWatcher, recordSongMinted } from '../../oracle/src/chain/watcher.ts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { dataUri, pngBytes, startStorageStack } from './storage-stack.ts';
import type { SeededJob, StorageStack } from './storage-stack.ts';

type Connection = Awaited<ReturnType<typeof network.connect>>;

/** The mint fields of a job status body. */
function pickMint(body: unknown): Record<string, unknown> {
  const { status, signature_used, nft_token_id } = body as Record<string, unknown>;
  return { status, signature_used, nft_token_id };
}

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

/**
 * The oracle's signatures against the real SongNFT bytecode on an in-process EDR chain (Base's
 * chainId), and the watcher reading the resulting SongMinted logs into the database.
 */
describe('chain watcher and API signatures on a real SongNFT', () => {
  let stack: StorageStack;
  let connection: Connection;
  let publicClient: PublicClient;
  let nft: Address;
  let artifact: Artifact;
  let alice: LoggedIn;
  let job: SeededJob;
  let metadataUri: string;
  let signature: Hex;

  before(async () => {
    const artifactText = await readFile('artifacts/contracts/SongNFT.sol/SongNFT.json', 'utf8').catch(() => {
      throw new Error('SongNFT artifact missing: run `npx hardhat build` first (`npm test` does)');
    });
    artifact = JSON.parse(artifactText) as Artifact;
    [connection, stack] = await Promise.all([network.connect({ network: 'base' }), startStorageStack({ chain: { chainId: 8453 } })]);
    // No block-number cache and fast receipt polling: the in-process chain answers at once.
    publicClient = createPublicClient({ transport: custom(connection.provider), pollingInterval: 20, cacheTime: 0 });
    const [deployer] = (await connection.provider.request({ method: 'eth_accounts' })) as Address[];
    assert.ok(deployer);
    const deployerWallet = createWalletClient({ account: deployer, transport: custom(connection.provider) });
    const hash = await deployerWallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [deployer, stack.signer.address, 500],
      chain: null,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.ok(receipt.contractAddress);
    nft = receipt.contractAddress;

    alice = await stack.app.login();
    await connection.provider.request({
      method: 'hardhat_setBalance',
      params: [alice.account.address, `0x${parseEther('1').toString(16)}`],
    });
    job = await stack.seedJob(alice.userId, alice.address);
    const uploaded = await stack.app.request('/api/metadata', {
      token: alice.token,
      body: {
        name: 'On chain',
        description: 'minted in a test',
        audio_url: job.audioUrl,
        cover_image: dataUri('image/png', pngBytes(4, 4)),
        attributes: { genre: 'Lo-fi' },
      },
    });
    assert.equal(uploaded.status, 201, uploaded.text);
    metadataUri = (uploaded.body as { metadata_uri: string }).metadata_uri;
    const signed = await stack.app.request('/api/signature', {
      token: alice.token,
      body: { job_id: job.publicId, user_address: alice.address, metadata_uri: metadataUri },
    });
    assert.equal(signed.status, 200, signed.text);
    signature = (signed.body as { signature: Hex }).signature;
  });

  after(async () => {
    await stack.stop();
    await connection.close();
  });

  const mint = (account: LoggedIn['account'], uri: string, audioHash: Hex, sig: Hex) =>
    createWalletClient({ account, transport: custom(connection.provider) }).writeContract({
      address: nft,
      abi: artifact.abi,
      functionName: 'mint',
      args: [uri, audioHash, sig],
      chain: null,
    });

  it('the API signature mints on SongNFT; reuse and foreign signatures revert with the spec texts', async () => {
    const hash = await mint(alice.account, metadataUri, job.audioHash, signature);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    const uri = await publicClient.readContract({ address: nft, abi: artifact.abi, functionName: 'tokenURI', args: [1n] });
    assert.equal(uri, metadataUri);

    await assert.rejects(mint(alice.account, metadataUri, job.audioHash, signature), /Signature used/);
    const other = await stack.seedJob(alice.userId, alice.address);
    const forged = await createMintSigner(generatePrivateKey()).sign({
      minter: alice.address as Address,
      metadataUri,
      audioHash: other.audioHash,
    });
    await assert.rejects(mint(alice.account, metadataUri, other.audioHash, forged), /Invalid signature/);
    const stranger = privateKeyToAccount(generatePrivateKey());
    await connection.provider.request({ method: 'hardhat_setBalance', params: [stranger.address, `0x${parseEther('1').toString(16)}`] });
    await assert.rejects(mint(stranger, metadataUri, job.audioHash, signature), /Invalid signature/, 'bound to the minter');
  });

  it('records the mint once it is confirmed deep enough, once only', async () => {
    const logger = pino({ level: 'silent' });
    const watcher = createChainWatcher({
      db: stack.app.db,
      client: publicClient,
      songNftAddress: nft,
      confirmations: 2,
      startBlock: 0n,
      batchSize: 3n,
      logger,
      now: () => new Date(),
    });
    const early = await watcher.poll();
    assert.equal(early.recorded, 0, 'the mint block is not 2 blocks deep yet');
    const before = await stack.app.db.one<{ signature_used: boolean }>('SELECT signature_used FROM generation_jobs WHERE id = $1', [
      job.id,
    ]);
    assert.equal(before.signature_used, false);
    const unconfirmed = await stack.app.request(`/api/generate/${job.publicId}`, { token: alice.token });
    assert.equal(unconfirmed.status, 200, unconfirmed.text);
    assert.deepEqual(pickMint(unconfirmed.body), { status: 'completed', signature_used: false, nft_token_id: null });

    await connection.provider.request({ method: 'hardhat_mine', params: ['0x2'] });
    const confirmed = await watcher.poll();
    assert.equal(confirmed.recorded, 1);
    const head = await publicClient.getBlockNumber();
    assert.equal(confirmed.throughBlock, head - 2n);

    const row = await stack.app.db.one<{ signature_used: boolean; nft_token_id: string }>(
      'SELECT signature_used, nft_token_id::text AS nft_token_id FROM generation_jobs WHERE id = $1',
      [job.id],
    );
    assert.deepEqual(row, { signature_used: true, nft_token_id: '1' });
    // The owner's status poll shows the mint, the token id as a string (uint256).
    const status = await stack.app.request(`/api/generate/${job.publicId}`, { token: alice.token });
    assert.equal(status.status, 200, status.text);
    assert.deepEqual(pickMint(status.body), { status: 'completed', signature_used: true, nft_token_id: '1' });
    const user = await stack.app.db.one<{ total_minted: number }>('SELECT total_minted FROM users WHERE id = $1', [alice.userId]);
    assert.equal(user.total_minted, 1);

    // A second replica starting from scratch sees the same log: counted once.
    const replica = createChainWatcher({
      db: stack.app.db,
      client: publicClient,
      songNftAddress: nft,
      confirmations: 0,
      startBlock: 0n,
      logger,
      now: () => new Date(),
    });
    await stack.app.db.none('DELETE FROM chain_cursors');
    const again = await replica.poll();
    assert.equal(again.recorded, 0);
    assert.equal(again.duplicates, 1);
    const still = await stack.app.db.one<{ total_minted: number }>('SELECT total_minted FROM users WHERE id = $1', [alice.userId]);
    assert.equal(still.total_minted, 1);
    const cursor = await stack.app.db.one<{ block_number: string }>('SELECT block_number::text AS block_number FROM chain_cursors');
    assert.equal(BigInt(cursor.block_number), await publicClient.getBlockNumber());
  });

  it('serves the indexed token on GET /v1/nft/{id}', async () => {
    const response = await stack.app.request('/v1/nft/1', { token: alice.token });
    assert.equal(response.status, 200, response.text);
    const body = response.body as Record<string, unknown>;
    assert.equal(body.token_id, '1');
    assert.equal(body.metadata_uri, metadataUri);
    assert.equal(body.minter, alice.address);
    assert.equal(body.audio_hash, job.audioHash);
    assert.equal(body.job_id, job.publicId);
    assert.match(String(body.mint_tx_hash), /^0x[0-9a-f]{64}$/);
    assert.equal((body.metadata as { name: string }).name, 'On chain');
    assert.equal(getAddress(alice.address), alice.account.address);
  });

  it('reports logs whose audio it never signed as unknown, without touching any job', async () => {
    const outcome = await recordSongMinted(
      stack.app.db,
      {
        tokenId: 99n,
        minter: alice.account.address,
        audioHash: `0x${'ab'.repeat(32)}`,
        metadataUri: 'ipfs://x',
        txHash: `0x${'cd'.repeat(32)}`,
        blockNumber: 5n,
      },
      new Date(),
    );
    assert.equal(outcome, 'unknown');
    const touched = await stack.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM generation_jobs WHERE nft_token_id = 99');
    assert.equal(touched.n, 0);
  });
});
