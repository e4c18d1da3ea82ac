/**
 * Mint signatures from keys the oracle never holds, verified by the real SongNFT on the local
 * chain: a secp256k1 key generated inside a fresh SoftHSM2 token (Debian's module, OpenSC's
 * pkcs11-tool), then the rotation runbook (a new key in the token, setPlatformSigner from the
 * owner, the oracle restarted on it: a stranded signature is re-issued by the new key), then an
 * AWS KMS key through @aws-sdk/client-kms against the loopback protocol double
 * (test/support/kms-double.ts), whose silence answers 503 with nothing recorded.
 *
 * The oracle's start-up checks run through `startOracle` itself: a wrong PIN and a key SongNFT
 * does not trust stop it before it opens anything else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createWalletClient, http, parseAbi } from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import type { MintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { checkPlatformSigner, openPlatformSigner } from '../../oracle/src/chain/platform-signer.ts';
import { createSignerStatus } from '../../oracle/src/chain/signer-status.ts';
import { loadConfig } from '../../oracle/src/config.ts';
import { createMetrics } from '../../oracle/src/http/metrics.ts';
import { startOracle } from '../../oracle/src/main.ts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../scripts/local-chain.ts';
import type { LocalChain } from '../../scripts/local-chain.ts';
import { assertVariantAError } from '../oracle/helpers/shapes.ts';
import type { LoggedIn } from '../oracle/helpers/test-app.ts';
import { startStorageStack } from '../oracle/storage-stack.ts';
import type { SeededJob, StorageStack } from '../oracle/storage-stack.ts';
import { KMS_DOUBLE_ENV, startKmsDouble } from '../support/kms-double.ts';
import type { KmsDouble } from '../support/kms-double.ts';
import { createSoftHsmToken, softHsmMissing } from '../support/softhsm.ts';
import type { SoftHsmToken } from '../support/softhsm.ts';
import { localBase, localPublicClient } from './support/local-base.ts';
import { restartableSigner } from './support/restartable-signer.ts';

/** SongNFT's owner in ignition/parameters/local.json (Hardhat account #0, unlocked). */
const OWNER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';
const CONCURRENT = 100;

const songNftAbi = parseAbi([
  'function mint(string metadataURI, bytes32 audioHash, bytes signature) returns (uint256)',
  'function setPlatformSigner(address newSigner)',
  'function recoverMintSigner(address minter, string metadataURI, bytes32 audioHash, bytes signature) view returns (address)',
]);

async function open(reference: string): Promise<MintSigner> {
  const opened = await openPlatformSigner({ PLATFORM_SIGNER: reference }, () => Promise.reject(new Error('no development key here')));
  assert.ok(opened.ok, opened.ok ? '' : opened.error.message);
  return opened.value;
}

describe('mint signatures from an HSM (SoftHSM2) and KMS, minted on the local chain', { skip: softHsmMissing() }, () => {
  let chain: LocalChain;
  let token: SoftHsmToken;
  let kms: KmsDouble;
  let stack: StorageStack;
  let songNft: Address;
  let oracleKey: ReturnType<typeof restartableSigner>;
  let creator: LoggedIn;
  const creatorAccount = privateKeyToAccount(generatePrivateKey());
  const savedEnv = { ...process.env };
  const publicClient = () => localPublicClient(chain.rpcUrl);
  const owner = () => createWalletClient({ account: OWNER, chain: localBase, transport: http(chain.rpcUrl) });

  const rotateOnChain = async (signer: Address) => {
    const hash = await owner().writeContract({ address: songNft, abi: songNftAbi, functionName: 'setPlatformSigner', args: [signer] });
    assert.equal((await publicClient().waitForTransactionReceipt({ hash })).status, 'success');
  };
  const ask = (who: LoggedIn, job: SeededJob) =>
    stack.app.request('/api/signature', {
      token: who.token,
      body: { job_id: job.publicId, user_address: who.address, metadata_uri: METADATA_URI },
    });
  const recovered = (minter: Address, job: SeededJob, signature: Hex) =>
    publicClient().readContract({
      address: songNft,
      abi: songNftAbi,
      functionName: 'recoverMintSigner',
      args: [minter, METADATA_URI, job.audioHash, signature],
    });
  const mint = async (job: SeededJob, signature: Hex) => {
    const wallet = createWalletClient({ account: creatorAccount, chain: localBase, transport: http(chain.rpcUrl) });
    const hash = await wallet.writeContract({
      address: songNft,
      abi: songNftAbi,
      functionName: 'mint',
      args: [METADATA_URI, job.audioHash, signature],
    });
    return (await publicClient().waitForTransactionReceipt({ hash })).status;
  };
  const signedFor = async (job: SeededJob) => {
    const response = await ask(creator, job);
    assert.equal(response.status, 200, response.text);
    return (response.body as { signature: Hex }).signature;
  };

  before(async () => {
    Object.assign(process.env, KMS_DOUBLE_ENV);
    token = await createSoftHsmToken();
    await token.generateKey('mint-2026', 'EC:secp256k1', '01');
    kms = await startKmsDouble();
    chain = await startLocalChain();
    songNft = chain.contracts.SongNFT as Address;
    await publicClient().waitForTransactionReceipt({
      hash: await owner().sendTransaction({ to: creatorAccount.address, value: 10n ** 18n }),
    });
  });
  after(async () => {
    await stack?.stop();
    await oracleKey?.signer.close();
    await chain?.stop();
    await kms?.close();
    await token?.remove();
    process.env = savedEnv;
  });

  it('refuses to start with a wrong PIN, or with a key SongNFT does not trust, naming both addresses', async () => {
    const base = {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      CHAIN_RPC_URL: chain.rpcUrl,
      SONG_NFT_ADDRESS: songNft,
      LOG_LEVEL: 'silent',
    };
    const wrongPin = loadConfig({ ...base, PLATFORM_SIGNER: token.uri('mint-2026', '99887766') });
    assert.ok(wrongPin.ok);
    await assert.rejects(startOracle(wrongPin.value, pino({ level: 'silent' })), (error: Error) => {
      assert.match(error.message, /PLATFORM_SIGNER: the PIN for token "songmint-test" is wrong/);
      assert.ok(!error.message.includes('99887766'));
      return true;
    });

    const hsm = await open(token.uri('mint-2026'));
    const local = createMintSigner(LOCAL_PLATFORM_SIGNER_KEY);
    try {
      const untrusted = loadConfig({ ...base, PLATFORM_SIGNER: token.uri('mint-2026') });
      assert.ok(untrusted.ok);
      await assert.rejects(
        startOracle(untrusted.value, pino({ level: 'silent' })),
        (error: Error) =>
          error.message.includes(hsm.address) && error.message.includes(local.address) && /setPlatformSigner/.test(error.message),
      );
    } finally {
      await hsm.close();
    }
  });

  it(`the HSM key signs: ${CONCURRENT} concurrent signature requests all recover to it on SongNFT, and one mints`, async () => {
    const hsm = await open(token.uri('mint-2026'));
    assert.equal(hsm.backend, 'pkcs11');
    await rotateOnChain(hsm.address);
    const trusted = await checkPlatformSigner({ client: publicClient(), songNftAddress: songNft, signer: hsm });
    assert.deepEqual(trusted, { ok: true, value: { trusted: hsm.address } });

    oracleKey = restartableSigner(hsm);
    stack = await startStorageStack({
      signer: oracleKey.signer,
      signerStatus: createSignerStatus({ client: publicClient(), songNftAddress: songNft }),
      chain: { chainId: 8453, songNftAddress: songNft },
    });
    creator = await stack.app.login(creatorAccount);
    const busy = await stack.app.login();
    // Seeded one after another: a hundred uploads into s3rver at once could outlast its idle
    // deadline on a loaded two-core machine. The signature requests are what run concurrently.
    const jobs: Awaited<ReturnType<typeof stack.seedJob>>[] = [];
    for (let i = 0; i < CONCURRENT; i += 1) jobs.push(await stack.seedJob(busy.userId, busy.address));
    const answers = await Promise.all(jobs.map((job) => ask(busy, job)));
    for (const [i, response] of answers.entries()) {
      assert.equal(response.status, 200, response.text);
      const signature = (response.body as { signature: Hex }).signature;
      assert.equal(await recovered(busy.address as Address, jobs[i]!, signature), hsm.address);
      // s is low: the contract (OpenZeppelin ECDSA) would reject it otherwise.
      assert.ok(BigInt(`0x${signature.slice(66, 130)}`) <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n);
    }

    const health = await stack.app.request('/health/ready');
    assert.deepEqual((health.body as { checks: { signer?: unknown } }).checks.signer, {
      backend: 'pkcs11',
      key: 'pkcs11:token=songmint-test;object=mint-2026',
    });
    assert.ok(!health.text.includes(token.pin));
    // The oracle's mint_signer_info (main.ts gives createMetrics the signer's reference) names the key, not the PIN.
    const metrics = await createMetrics(stack.app.db, { signer: { backend: hsm.backend, key: hsm.keyReference } }).registry.metrics();
    assert.match(metrics, /mint_signer_info\{backend="pkcs11",key="pkcs11:token=songmint-test;object=mint-2026"\} 1/);
    assert.ok(!metrics.includes(token.pin));

    const job = await stack.seedJob(creator.userId, creator.address);
    assert.equal(await mint(job, await signedFor(job)), 'success');
  });

  it('rotation runbook: a new key in the HSM, setPlatformSigner by the owner, a restart; the stranded signature is re-issued and mints', async () => {
    const stranded = await stack.seedJob(creator.userId, creator.address);
    const old = await signedFor(stranded);

    await token.generateKey('mint-2027', 'EC:secp256k1', '02');
    const next = await open(token.uri('mint-2027'));
    await rotateOnChain(next.address);
    await oracleKey.restartWith(next);
    const trusted = await checkPlatformSigner({ client: publicClient(), songNftAddress: songNft, signer: next });
    assert.ok(trusted.ok);

    const replacement = await signedFor(stranded);
    assert.notEqual(replacement, old);
    assert.equal(await recovered(creatorAccount.address, stranded, replacement), next.address);
    assert.equal(await mint(stranded, replacement), 'success');
  });

  it('a KMS key signs the same way; KMS that stops answering gives 503 with retry_after and records nothing', async () => {
    kms.createKey('ECC_SECG_P256K1', 'songmint-mint');
    const kmsSigner = await open(`awskms://${kms.host}/alias/songmint-mint`);
    assert.equal(kmsSigner.backend, 'awskms');
    await rotateOnChain(kmsSigner.address);
    await oracleKey.restartWith(kmsSigner);

    const job = await stack.seedJob(creator.userId, creator.address);
    const signature = await signedFor(job);
    assert.equal(await recovered(creatorAccount.address, job, signature), kmsSigner.address);
    assert.equal(await mint(job, signature), 'success');

    const silent = await stack.seedJob(creator.userId, creator.address);
    kms.hang();
    try {
      const down = await ask(creator, silent);
      assert.equal(down.status, 503, down.text);
      assertVariantAError(down.body, 'SERVICE_UNAVAILABLE');
      assert.ok(Number(down.headers.get('retry-after')) > 0);
    } finally {
      kms.resume();
    }
    const row = await stack.app.db.one<{ signature: string | null; issued: number }>(
      'SELECT signature, (SELECT count(*)::int FROM mint_signatures WHERE job_id = $1) AS issued FROM generation_jobs WHERE id = $1',
      [silent.id],
    );
    assert.deepEqual(row, { signature: null, issued: 0 });
    // KMS answers again: the same job is signed.
    assert.equal(await mint(silent, await signedFor(silent)), 'success');
  });
});
