import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recoverMessageAddress } from 'viem';
import type { Address, Hex } from 'viem';
import { mintMessageHash } from '../../oracle/src/chain/mint-signer.ts';
import { recordSongMinted } from '../../oracle/src/chain/watcher.ts';
import { nftMintResponseSchema, nftResponseSchema } from '../../oracle/src/http/routes/nft.ts';
import { poolsResponseSchema } from '../../oracle/src/http/routes/trading.ts';
import { assertVariantCError } from './helpers/shapes.ts';
import type { LoggedIn } from './helpers/test-app.ts';
import { startStorageStack } from './storage-stack.ts';
import type { StorageStack } from './storage-stack.ts';
import { JOB_STATUS } from '../../core/src/jobs/job-state.ts';

const NFT_ADDRESS = '0x00000000000000000000000000000000005047a1' as Address;
const METADATA_URI = 'ipfs://bafkreibwnxqpvx2gp2ayinmhfyd5ns7oyjfqtbspo4zrnkpbpagn5g62eq';

describe('Variant C: /v1/nft and /v1/trading', () => {
  let stack: StorageStack;
  let alice: LoggedIn;
  let bob: LoggedIn;

  before(async () => {
    stack = await startStorageStack({ chain: { chainId: 8453, songNftAddress: NFT_ADDRESS } });
    alice = await stack.app.login();
    bob = await stack.app.login();
  });
  after(() => stack.stop());

  it('POST /v1/nft/mint returns the signature and the exact contract call to make', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const response = await stack.app.request('/v1/nft/mint', {
      token: alice.token,
      body: { job_id: job.publicId, metadata_uri: METADATA_URI },
    });
    assert.equal(response.status, 200, response.text);
    const body = nftMintResponseSchema.parse(response.body);
    assert.equal(body.job_id, job.publicId);
    assert.equal(body.minter, alice.address);
    assert.deepEqual(body.mint_call, {
      chain_id: 8453,
      address: NFT_ADDRESS,
      function_name: 'mint',
      args: [METADATA_URI, job.audioHash, body.signature],
    });
    const digest = mintMessageHash({ minter: alice.address as Address, metadataUri: METADATA_URI, audioHash: job.audioHash });
    assert.equal(await recoverMessageAddress({ message: { raw: digest }, signature: body.signature as Hex }), stack.signer.address);

    const again = await stack.app.request('/v1/nft/mint', {
      token: alice.token,
      body: { job_id: job.publicId, metadata_uri: METADATA_URI },
    });
    assert.equal(again.status, 409);
    assertVariantCError(again.body, 'SIGN_002');
  });

  it('POST /v1/nft/mint answers errors in the Variant C shape', async () => {
    const bobsJob = await stack.seedJob(bob.userId, bob.address);
    const queued = await stack.seedJob(alice.userId, alice.address, JOB_STATUS.queued);
    const mine = await stack.seedJob(alice.userId, alice.address);
    const cases: Array<[unknown, number, string]> = [
      [{ job_id: bobsJob.publicId, metadata_uri: METADATA_URI }, 404, 'SIGN_001'],
      [{ job_id: queued.publicId, metadata_uri: METADATA_URI }, 409, 'SIGN_003'],
      [{ job_id: mine.publicId, metadata_uri: METADATA_URI, user_address: bob.address }, 403, 'FORBIDDEN'],
      [{ job_id: mine.publicId }, 400, 'VALIDATION_ERROR'],
      [{ job_id: mine.publicId, metadata_uri: 'ipfs://nope' }, 400, 'VALIDATION_ERROR'],
      [{ job_id: 5, metadata_uri: METADATA_URI }, 400, 'VALIDATION_ERROR'],
      [[], 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of cases) {
      const response = await stack.app.request('/v1/nft/mint', { token: alice.token, body });
      assert.equal(response.status, status, `${JSON.stringify(body)} -> ${response.text}`);
      assertVariantCError(response.body, code);
    }
    const noToken = await stack.app.request('/v1/nft/mint', { body: { job_id: mine.publicId, metadata_uri: METADATA_URI } });
    assert.equal(noToken.status, 401);
    assertVariantCError(noToken.body, 'AUTH_ERROR');
  });

  it('GET /v1/nft/{id} serves an indexed token with its metadata document', async () => {
    const job = await stack.seedJob(alice.userId, alice.address);
    const uploaded = await stack.app.request('/api/metadata', { token: alice.token, body: { name: 'Indexed', audio_url: job.audioUrl } });
    const metadataUri = (uploaded.body as { metadata_uri: string }).metadata_uri;
    const signed = await stack.app.request('/api/signature', {
      token: alice.token,
      body: { job_id: job.publicId, user_address: alice.address, metadata_uri: metadataUri },
    });
    assert.equal(signed.status, 200);

    const unindexed = await stack.app.request('/v1/nft/7', { token: bob.token });
    assert.equal(unindexed.status, 404);
    assertVariantCError(unindexed.body, 'NOT_FOUND');

    const txHash = `0x${'12'.repeat(32)}` as Hex;
    const outcome = await recordSongMinted(
      stack.app.db,
      { tokenId: 7n, minter: alice.account.address, audioHash: job.audioHash, metadataUri, txHash, blockNumber: 42n },
      new Date('2026-11-22T00:00:00Z'),
    );
    assert.equal(outcome, 'recorded');
    const response = await stack.app.request('/v1/nft/7', { token: bob.token });
    assert.equal(response.status, 200, response.text);
    nftResponseSchema.parse(response.body);
    assert.deepEqual(response.body, {
      token_id: '7',
      chain_id: 8453,
      contract: NFT_ADDRESS,
      metadata_uri: metadataUri,
      metadata: {
        name: 'Indexed',
        description: '',
        animation_url: job.audioUrl,
        attributes: [{ trait_type: 'Duration', value: 30, display_type: 'number' }],
        properties: {
          audio_url: job.audioUrl,
          audio_hash: job.audioHash,
          job_id: job.publicId,
          generation: {
            prompt: 'test song',
            lyrics: null,
            seed: null,
            model: null,
            content_credentials: null,
            outside_audio: { seconds: 0, spans: [] },
          },
        },
      },
      minter: alice.address,
      audio_hash: job.audioHash,
      audio_url: job.audioUrl,
      job_id: job.publicId,
      mint_tx_hash: txHash,
      minted_at: '2026-11-22T00:00:00.000Z',
      // Not launched: no pool yet (the launched case: test/oracle/pools.test.ts).
      pool_id: null,
      pool_url: null,
    });
    const profile = await stack.app.db.one<{ total_minted: number }>('SELECT total_minted FROM users WHERE id = $1', [alice.userId]);
    assert.equal(profile.total_minted, 1);
  });

  it('GET /v1/nft/{id} refuses ids that are not token ids', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999', '9223372036854775808', '%E0%A4%A']) {
      const response = await stack.app.request(`/v1/nft/${id}`, { token: alice.token });
      assert.equal(response.status, 400, id);
      assertVariantCError(response.body, 'VALIDATION_ERROR');
    }
  });

  it('GET /v1/trading/pools without a configured vault: an empty list, nothing indexed', async () => {
    const response = await stack.app.request('/v1/trading/pools', { token: alice.token });
    assert.equal(response.status, 200);
    poolsResponseSchema.parse(response.body);
    assert.deepEqual(response.body, { pools: [], next_cursor: null, indexed_through_block: null });
    assert.ok(response.headers.get('x-ratelimit-limit'), 'the trading category limit applies');
  });

  it('describes the storage routes in /openapi.json', async () => {
    const response = await stack.app.request('/openapi.json');
    const paths = (response.body as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const [path, method] of [
      ['/api/metadata', 'post'],
      ['/api/signature', 'post'],
      ['/v1/nft/mint', 'post'],
      ['/v1/nft/{id}', 'get'],
      ['/v1/trading/pools', 'get'],
      ['/v1/trading/pools/{songId}', 'get'],
    ] as const) {
      assert.ok(paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
    }
  });
});
