/**
 * Smart wallets sign in and mint. A Coinbase-Smart-Wallet-style account (SmartAccountProbe,
 * contracts/test, deployed by its CREATE2 factory on the local Base chain) signs in with SIWE
 * through the oracle's chain-backed verifier: deployed (ERC-1271) and counterfactual (ERC-6492,
 * factory + calldata wrapper). Then the account itself is `msg.sender` of SongNFT.mint with the
 * platform signature the oracle issued for its address. Real chain, PostgreSQL, S3 and routes.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  createWalletClient,
  encodeFunctionData,
  hashMessage,
  http,
  keccak256,
  parseAbi,
  parseEther,
  parseEventLogs,
  serializeErc6492Signature,
  toHex,
} from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { createMintSigner } from '../../oracle/src/chain/mint-signer.ts';
import { createWalletSignatureVerifier } from '../../oracle/src/chain/wallet-signature.ts';
import { signatureResponseSchema } from '../../oracle/src/http/routes/signature.ts';
import { sessionTokenSchema } from '../../oracle/src/http/schemas.ts';
import { LOCAL_PLATFORM_SIGNER_KEY, startLocalChain } from '../../scripts/local-chain.ts';
import type { LocalChain } from '../../scripts/local-chain.ts';
import { assertVariantAError } from '../oracle/helpers/shapes.ts';
import { TEST_SIWE_DOMAIN, TEST_SIWE_URI } from '../oracle/helpers/test-app.ts';
import type { TestResponse } from '../oracle/helpers/test-app.ts';
import { startStorageStack } from '../oracle/storage-stack.ts';
import type { StorageStack } from '../oracle/storage-stack.ts';
import { localBase, localPublicClient } from './support/local-base.ts';

/** Hardhat account #0, unlocked on the local node: funds the test's keys. */
const FUNDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';
const FACTORY_ARTIFACT = 'artifacts/contracts/test/SmartAccountProbeFactory.sol/SmartAccountProbeFactory.json';

const factoryAbi = parseAbi([
  'function createAccount(address owner, bytes32 salt) returns (address)',
  'function accountAddress(address owner, bytes32 salt) view returns (address)',
]);
const accountAbi = parseAbi(['function execute(address target, uint256 value, bytes data) payable returns (bytes)']);
const songNftAbi = parseAbi([
  'function mint(string metadataURI, bytes32 audioHash, bytes signature) returns (uint256)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'event SongMinted(uint256 indexed tokenId, address indexed minter, bytes32 indexed audioHash, string metadataURI)',
]);

/** What the account's owner signs for `account` to approve `hash` (SmartAccountProbe.replaySafeHash). */
function ownerSignature(owner: PrivateKeyAccount, account: Address, hash: Hex): Promise<Hex> {
  return owner.signTypedData({
    domain: { name: 'SmartAccountProbe', version: '1', chainId: 8453, verifyingContract: account },
    types: { AccountMessage: [{ name: 'hash', type: 'bytes32' }] },
    primaryType: 'AccountMessage',
    message: { hash },
  });
}

describe('smart-wallet sign-in (ERC-1271, ERC-6492) and mint as msg.sender, on the local chain', () => {
  let chain: LocalChain;
  let chainRunning = false;
  let stack: StorageStack;
  let factory: Address;
  let songNft: Address;
  let publicClient: ReturnType<typeof localPublicClient>;
  const owner = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const deployedSalt = keccak256(toHex('deployed'));
  const counterfactualSalt = keccak256(toHex('counterfactual'));
  let deployed: Address;
  let counterfactual: Address;

  const ownerWallet = () => createWalletClient({ account: owner, chain: localBase, transport: http(chain.rpcUrl) });
  const send = async (hash: Promise<Hex>) => publicClient.waitForTransactionReceipt({ hash: await hash });

  /** A fresh SIWE message for `address`, as a dApp builds it from GET /api/auth/nonce. */
  async function siweMessage(address: Address): Promise<string> {
    const { nonce } = (await stack.app.request('/api/auth/nonce')).body as { nonce: string };
    return createSiweMessage({
      address,
      chainId: 8453,
      domain: TEST_SIWE_DOMAIN,
      uri: TEST_SIWE_URI,
      nonce,
      version: '1',
      issuedAt: new Date(),
    });
  }
  const verify = (message: string, signature: Hex): Promise<TestResponse> =>
    stack.app.request('/api/auth/verify', { body: { message, signature } });
  /** The ERC-6492 form of a counterfactual account's signature: the factory and its deployment calldata around it. */
  const wrap6492 = (signature: Hex) =>
    serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [owner.address, counterfactualSalt] }),
      signature,
    });

  before(async () => {
    chain = await startLocalChain();
    chainRunning = true;
    assert.ok(chain.contracts.SongNFT, 'SongNFT deployed');
    songNft = chain.contracts.SongNFT;
    publicClient = localPublicClient(chain.rpcUrl);
    const funder = createWalletClient({ account: FUNDER, chain: localBase, transport: http(chain.rpcUrl) });
    await send(funder.sendTransaction({ to: owner.address, value: parseEther('1') }));
    const artifact = JSON.parse(await readFile(FACTORY_ARTIFACT, 'utf8')) as { bytecode: Hex };
    const deployment = await send(ownerWallet().deployContract({ abi: factoryAbi, bytecode: artifact.bytecode }));
    assert.ok(deployment.contractAddress, 'factory deployed');
    factory = deployment.contractAddress;
    deployed = await publicClient.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'accountAddress',
      args: [owner.address, deployedSalt],
    });
    counterfactual = await publicClient.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'accountAddress',
      args: [owner.address, counterfactualSalt],
    });
    await send(
      ownerWallet().writeContract({
        address: factory,
        abi: factoryAbi,
        functionName: 'createAccount',
        args: [owner.address, deployedSalt],
      }),
    );
    stack = await startStorageStack({
      signer: createMintSigner(LOCAL_PLATFORM_SIGNER_KEY),
      chain: { chainId: 8453, songNftAddress: songNft },
      walletSignatures: createWalletSignatureVerifier({ client: publicClient }),
    });
  });
  after(async () => {
    await stack?.stop();
    if (chainRunning) await chain.stop();
  });

  /** Asks for the job's mint signature as the account, then the owner has the account call mint with it. */
  async function mintThroughAccount(token: string, account: Address): Promise<void> {
    const user = await stack.app.db.one<{ id: string }>('SELECT id FROM users WHERE wallet_address = $1', [account.toLowerCase()]);
    const job = await stack.seedJob(user.id, account.toLowerCase());
    const asked = await stack.app.request('/api/signature', {
      token,
      body: { job_id: job.publicId, user_address: account, metadata_uri: METADATA_URI },
    });
    assert.equal(asked.status, 200, asked.text);
    const { signature } = signatureResponseSchema.parse(asked.body);
    const mintCall = encodeFunctionData({ abi: songNftAbi, functionName: 'mint', args: [METADATA_URI, job.audioHash, signature as Hex] });
    const receipt = await send(
      ownerWallet().writeContract({ address: account, abi: accountAbi, functionName: 'execute', args: [songNft, 0n, mintCall] }),
    );
    assert.equal(receipt.status, 'success');
    const [minted] = parseEventLogs({ abi: songNftAbi, eventName: 'SongMinted', logs: receipt.logs });
    assert.ok(minted !== undefined, 'SongMinted');
    assert.equal(minted.args.minter, account);
    assert.equal(minted.args.audioHash, job.audioHash);
    assert.equal(
      await publicClient.readContract({ address: songNft, abi: songNftAbi, functionName: 'ownerOf', args: [minted.args.tokenId] }),
      account,
    );
  }

  it('a deployed smart account signs in through ERC-1271 and mints as msg.sender with the signature issued for its address', async () => {
    assert.notEqual(await publicClient.getCode({ address: deployed }), undefined);
    const message = await siweMessage(deployed);
    // Its owner's plain EOA signature is not the account's: refused, and the nonce stays usable.
    const plain = await verify(message, await owner.signMessage({ message }));
    assert.equal(plain.status, 401, plain.text);
    assertVariantAError(plain.body, 'AUTH_ERROR');
    const signedIn = await verify(message, await ownerSignature(owner, deployed, hashMessage(message)));
    assert.equal(signedIn.status, 200, signedIn.text);
    const session = sessionTokenSchema.parse(signedIn.body);
    assert.equal(session.user.wallet_address, deployed.toLowerCase());
    await mintThroughAccount(session.token, deployed);
  });

  it('an undeployed account signs in through ERC-6492 without being deployed, then deploys and mints', async () => {
    assert.equal(await publicClient.getCode({ address: counterfactual }), undefined);
    const message = await siweMessage(counterfactual);
    const signedIn = await verify(message, wrap6492(await ownerSignature(owner, counterfactual, hashMessage(message))));
    assert.equal(signedIn.status, 200, signedIn.text);
    const session = sessionTokenSchema.parse(signedIn.body);
    assert.equal(session.user.wallet_address, counterfactual.toLowerCase());
    // The check ran in an eth_call: the account is still not on chain.
    assert.equal(await publicClient.getCode({ address: counterfactual }), undefined);
    await send(
      ownerWallet().writeContract({
        address: factory,
        abi: factoryAbi,
        functionName: 'createAccount',
        args: [owner.address, counterfactualSalt],
      }),
    );
    await mintThroughAccount(session.token, counterfactual);
  });

  it("refuses another key's signature for either account (AUTH_ERROR), and still signs EOAs in", async () => {
    const forDeployed = await siweMessage(deployed);
    const wrongDeployed = await verify(forDeployed, await ownerSignature(stranger, deployed, hashMessage(forDeployed)));
    assert.equal(wrongDeployed.status, 401, wrongDeployed.text);
    assertVariantAError(wrongDeployed.body, 'AUTH_ERROR');
    const fresh = privateKeyToAccount(generatePrivateKey());
    const unknownSalt = keccak256(toHex('never deployed'));
    const unknownAccount = await publicClient.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'accountAddress',
      args: [fresh.address, unknownSalt],
    });
    const forUndeployed = await siweMessage(unknownAccount);
    const wrongUndeployed = await verify(
      forUndeployed,
      serializeErc6492Signature({
        address: factory,
        data: encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [fresh.address, unknownSalt] }),
        signature: await ownerSignature(stranger, unknownAccount, hashMessage(forUndeployed)),
      }),
    );
    assert.equal(wrongUndeployed.status, 401, wrongUndeployed.text);
    assertVariantAError(wrongUndeployed.body, 'AUTH_ERROR');
    // The sign-in attempt deployed nothing.
    assert.equal(await publicClient.getCode({ address: unknownAccount }), undefined);
    const eoa = await stack.app.login(privateKeyToAccount(generatePrivateKey()));
    assert.match(eoa.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('answers 503 with Retry-After for a smart-wallet signature while the chain is down; EOAs still sign in', async () => {
    const message = await siweMessage(deployed);
    const signature = await ownerSignature(owner, deployed, hashMessage(message));
    await chain.stop();
    chainRunning = false;
    const down = await verify(message, signature);
    assert.equal(down.status, 503, down.text);
    assertVariantAError(down.body, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(down.headers.get('retry-after')) > 0);
    const eoa = await stack.app.login(privateKeyToAccount(generatePrivateKey()));
    assert.match(eoa.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
