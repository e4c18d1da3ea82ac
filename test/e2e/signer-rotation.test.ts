/**
 * Rotating the platform signer does not strand a song: after SongNFT's owner rotates the key, a
 * signature the old key issued for audio never minted can never be used, and the oracle (now on
 * the new key) issues a replacement that mints. Real chain (local Base with the protocol deployed
 * by Ignition), real PostgreSQL, S3 and the oracle's signature route.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWalletClient, http, parseAbi, parseEther, parseEventLogs, recoverMessageAddress } from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createMintSigner, mintMessageHash } from '../../oracle/src/chain/mint-signer.ts';
import { createSignerStatus } from '../../oracle/src/chain/signer-status.ts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../scripts/local-chain.ts';
import type { LocalChain } from '../../scripts/local-chain.ts';
import { assertVariantAError } from '../oracle/helpers/shapes.ts';
import type { LoggedIn, TestResponse } from '../oracle/helpers/test-app.ts';
import { startStorageStack } from '../oracle/storage-stack.ts';
import { localBase, localPublicClient } from './support/local-base.ts';
import type { SeededJob, StorageStack } from '../oracle/storage-stack.ts';
import { restartableSigner } from './support/restartable-signer.ts';

/** SongNFT's owner and the platform treasury in ignition/parameters/local.json (Hardhat account #0, unlocked). */
const OWNER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';

const songNftAbi = parseAbi([
  'function mint(string metadataURI, bytes32 audioHash, bytes signature) returns (uint256)',
  'function setPlatformSigner(address newSigner)',
  'function platformSigner() view returns (address)',
  'function isRetiredSigner(address signer) view returns (bool)',
  'event SongMinted(uint256 indexed tokenId, address indexed minter, bytes32 indexed audioHash, string metadataURI)',
]);

function expectError(response: TestResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.text);
  assertVariantAError(response.body, code);
}

describe('signer rotation: a stranded signature is re-issued by the new key and mints', () => {
  let chain: LocalChain;
  let chainRunning = false;
  let publicClient: ReturnType<typeof localPublicClient>;
  let stack: StorageStack;
  let creator: LoggedIn;
  let songNft: Address;
  const oldSigner = createMintSigner(LOCAL_PLATFORM_SIGNER_KEY);
  const newSigner = createMintSigner(generatePrivateKey());
  const oracleKey = restartableSigner(oldSigner);
  const creatorAccount = privateKeyToAccount(generatePrivateKey());

  const ask = (job: SeededJob) =>
    stack.app.request('/api/signature', {
      token: creator.token,
      body: { job_id: job.publicId, user_address: creatorAccount.address, metadata_uri: METADATA_URI },
    });
  const creatorWallet = () => createWalletClient({ account: creatorAccount, chain: localBase, transport: http(chain.rpcUrl) });
  const mint = async (job: SeededJob, signature: Hex) => {
    const hash = await creatorWallet().writeContract({
      address: songNft,
      abi: songNftAbi,
      functionName: 'mint',
      args: [METADATA_URI, job.audioHash, signature],
    });
    return publicClient.waitForTransactionReceipt({ hash });
  };
  const simulateMint = (job: SeededJob, signature: Hex) =>
    publicClient.simulateContract({
      account: creatorAccount,
      address: songNft,
      abi: songNftAbi,
      functionName: 'mint',
      args: [METADATA_URI, job.audioHash, signature],
    });

  before(async () => {
    chain = await startLocalChain();
    chainRunning = true;
    const address = chain.contracts.SongNFT;
    assert.ok(address, 'SongNFT deployed');
    songNft = address;
    publicClient = localPublicClient(chain.rpcUrl);
    const owner = createWalletClient({ account: OWNER, chain: localBase, transport: http(chain.rpcUrl) });
    await publicClient.waitForTransactionReceipt({
      hash: await owner.sendTransaction({ to: creatorAccount.address, value: parseEther('1') }),
    });
    stack = await startStorageStack({
      signer: oracleKey.signer,
      signerStatus: createSignerStatus({ client: publicClient, songNftAddress: songNft }),
      chain: { chainId: 8453, songNftAddress: songNft },
    });
    creator = await stack.app.login(creatorAccount);
  });
  after(async () => {
    await stack?.stop();
    if (chainRunning) await chain.stop();
  });

  it('rotate, re-ask, mint: exactly one replacement, by the new key; used audio and the current key stay SIGN_002', async () => {
    const stranded = await stack.seedJob(creator.userId, creator.address);
    const minted = await stack.seedJob(creator.userId, creator.address);
    const unreadable = await stack.seedJob(creator.userId, creator.address);
    const issued = new Map<SeededJob, Hex>();
    for (const job of [stranded, minted, unreadable]) {
      const response = await ask(job);
      assert.equal(response.status, 200, response.text);
      issued.set(job, (response.body as { signature: Hex }).signature);
    }
    assert.equal((await mint(minted, issued.get(minted) as Hex)).status, 'success');

    // Before the rotation the old key's signature is current: asking again is SIGN_002.
    expectError(await ask(stranded), 409, 'SIGN_002');

    const owner = createWalletClient({ account: OWNER, chain: localBase, transport: http(chain.rpcUrl) });
    const rotation = await owner.writeContract({
      address: songNft,
      abi: songNftAbi,
      functionName: 'setPlatformSigner',
      args: [newSigner.address],
    });
    assert.equal((await publicClient.waitForTransactionReceipt({ hash: rotation })).status, 'success');
    assert.equal(
      await publicClient.readContract({ address: songNft, abi: songNftAbi, functionName: 'isRetiredSigner', args: [oldSigner.address] }),
      true,
    );
    await oracleKey.restartWith(newSigner);

    // The old signature is dead on chain.
    await assert.rejects(simulateMint(stranded, issued.get(stranded) as Hex), /Invalid signature/);

    // Audio already minted is never re-signed.
    expectError(await ask(minted), 409, 'SIGN_002');

    // Concurrent re-asks give exactly one replacement.
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask(stranded)));
    const granted = answers.filter((response) => response.status === 200);
    assert.equal(granted.length, 1, answers.map((response) => `${response.status} ${response.text}`).join('\n'));
    for (const response of answers) if (response.status !== 200) expectError(response, 409, 'SIGN_002');
    const replacement = (granted[0]?.body as { signature: Hex }).signature;
    assert.notEqual(replacement, issued.get(stranded));
    const digest = mintMessageHash({ minter: creatorAccount.address, metadataUri: METADATA_URI, audioHash: stranded.audioHash });
    assert.equal(await recoverMessageAddress({ message: { raw: digest }, signature: replacement }), newSigner.address);

    const row = await stack.app.db.one<{
      signature: string;
      signer_address: string;
      replaced_signature: string;
      replaced_signer_address: string;
      reissued_at: Date | null;
    }>(
      'SELECT signature, signer_address, replaced_signature, replaced_signer_address, reissued_at FROM mint_signatures WHERE job_id = $1',
      [stranded.id],
    );
    assert.equal(row.signature, replacement);
    assert.equal(row.signer_address, newSigner.address.toLowerCase());
    assert.equal(row.replaced_signature, issued.get(stranded));
    assert.equal(row.replaced_signer_address, oldSigner.address.toLowerCase());
    assert.ok(row.reissued_at instanceof Date);
    const job = await stack.app.db.one<{ signature: string }>('SELECT signature FROM generation_jobs WHERE id = $1', [stranded.id]);
    assert.equal(job.signature, replacement);

    // The replacement mints; the new key's signature is not replaced again.
    const receipt = await mint(stranded, replacement);
    assert.equal(receipt.status, 'success');
    const [event] = parseEventLogs({ abi: songNftAbi, eventName: 'SongMinted', logs: receipt.logs });
    assert.equal(event?.args.audioHash, stranded.audioHash);
    assert.equal(event?.args.minter, creatorAccount.address);
    expectError(await ask(stranded), 409, 'SIGN_002');

    // The chain cannot be read: the old key's signature may or may not still work, so no answer
    // but "try again" (503, retry_after), and nothing is replaced.
    await chain.stop();
    chainRunning = false;
    const down = await ask(unreadable);
    expectError(down, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(down.headers.get('retry-after')) > 0);
    const kept = await stack.app.db.one<{ signature: string }>('SELECT signature FROM mint_signatures WHERE job_id = $1', [unreadable.id]);
    assert.equal(kept.signature, issued.get(unreadable));
  });
});
