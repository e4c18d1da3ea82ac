import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWalletClient as createFarcasterWalletClient } from '@farcaster/auth-client';
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { createFarcasterSignInVerifier, createQuickAuthVerifier } from '../../oracle/src/domain/farcaster.ts';
import { startLocalOptimism } from '../support/local-optimism.ts';
import type { LocalOptimism } from '../support/local-optimism.ts';
import { startQuickAuthIssuer } from '../support/quick-auth-issuer.ts';
import type { QuickAuthIssuer } from '../support/quick-auth-issuer.ts';
import { TEST_SIWE_DOMAIN, TEST_SIWE_URI, startTestApp } from '../oracle/helpers/test-app.ts';
import type { TestApp } from '../oracle/helpers/test-app.ts';
// By path, not '@songmint/sdk' (which resolves to the main checkout's package during parallel work).
import { createSongmintApi, getProfile, signInWithFarcaster, signInWithQuickAuth, SongmintApiError } from '../../sdk/src/index.ts';
import type { SongmintApi } from '../../sdk/src/index.ts';

/**
 * The SDK's Farcaster sign-ins against the real oracle: SIWF messages built by
 * @farcaster/auth-client's own wallet client (as a Farcaster client builds them) and verified
 * against a local OP chain with the registries' doubles; Quick Auth tokens from a local issuer.
 */
const farcasterWallet = createFarcasterWalletClient({
  ethereum: { getFid: async () => 0n, isValidAuthAddress: async () => false } as never,
});

describe('@songmint/sdk signInWithFarcaster and signInWithQuickAuth against the oracle', () => {
  let chain: LocalOptimism;
  let issuer: QuickAuthIssuer;
  let app: TestApp;
  let api: SongmintApi;
  // Every request the SDK makes, to show which carried a wallet proof.
  const posted: Array<{ path: string; body: Record<string, unknown> }> = [];

  before(async () => {
    [chain, issuer] = await Promise.all([startLocalOptimism(), startQuickAuthIssuer()]);
    app = await startTestApp({
      farcasterSignIn: createFarcasterSignInVerifier(chain.rpcUrl),
      quickAuth: createQuickAuthVerifier(issuer.origin),
    });
    const recordingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') {
        posted.push({ path: new URL(request.url).pathname, body: (await request.clone().json()) as Record<string, unknown> });
      }
      return fetch(request);
    };
    api = createSongmintApi({ baseUrl: app.baseUrl, fetch: recordingFetch });
  });
  after(async () => {
    await app?.stop();
    await Promise.all([chain?.stop(), issuer?.stop()]);
  });

  const newAccount = () => privateKeyToAccount(generatePrivateKey());
  // The wallet only signs messages here; the transport is never used.
  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ account, transport: http('http://127.0.0.1:1') });

  /** A SIWF message for `fid` signed by `custody`, with a nonce from the oracle (as AuthKit's channel carries it). */
  async function siwf(custody: PrivateKeyAccount, fid: bigint) {
    const nonce = ((await app.request('/api/auth/nonce')).body as { nonce: string }).nonce;
    const built = farcasterWallet.buildSignInMessage({
      address: custody.address,
      fid: Number(fid),
      uri: TEST_SIWE_URI,
      domain: TEST_SIWE_DOMAIN,
      nonce,
    });
    assert.equal(built.isError, false, built.error?.message);
    const message = built.message as string;
    return { message, signature: await custody.signMessage({ message }), nonce };
  }

  it('SIWF alone: the session belongs to the custody address and its profile names the fid', async () => {
    const custody = newAccount();
    const fid = await chain.registerFid(custody.address);
    const session = await signInWithFarcaster(api, await siwf(custody, fid));
    assert.equal(session.user.socialFid, fid.toString());
    assert.equal(session.user.walletAddress, custody.address.toLowerCase());
    assert.ok(session.expiresAt.getTime() > Date.now());
    const profile = await getProfile(session.api);
    assert.equal(profile.social_fid, fid.toString());
  });

  it('SIWF with a wallet: the wallet proof carries the SIWF nonce and the session acts for that wallet', async () => {
    const custody = newAccount();
    const wallet = newAccount();
    const fid = await chain.registerFid(custody.address);
    const signed = await siwf(custody, fid);
    posted.length = 0;
    const session = await signInWithFarcaster(api, {
      message: signed.message,
      signature: signed.signature,
      walletClient: walletOf(wallet),
    });
    assert.equal(session.user.socialFid, fid.toString());
    assert.equal(session.user.walletAddress, wallet.address.toLowerCase());
    const [request] = posted;
    assert.equal(request?.path, '/api/auth/farcaster');
    const proof = request.body.wallet as { message: string };
    const parsed = parseSiweMessage(proof.message);
    assert.equal(parsed.nonce, signed.nonce);
    assert.equal(parsed.address, wallet.address);
    assert.equal(parsed.domain, TEST_SIWE_DOMAIN);
    assert.equal((await getProfile(session.api)).social_fid, fid.toString());
  });

  it('SIWF refused (replayed message) surfaces as AUTH_ERROR', async () => {
    const custody = newAccount();
    const fid = await chain.registerFid(custody.address);
    const signed = await siwf(custody, fid);
    await signInWithFarcaster(api, signed);
    await assert.rejects(
      signInWithFarcaster(api, signed),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'AUTH_ERROR' && error.status === 401,
    );
  });

  it('Quick Auth: a new fid is linked once with a wallet proof, then signs in on the token alone', async () => {
    const wallet = newAccount();
    const fid = await chain.registerFid(newAccount().address);
    const first = await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN });
    posted.length = 0;
    const session = await signInWithQuickAuth(api, { token: first, walletClient: walletOf(wallet) });
    assert.equal(session.user.socialFid, fid.toString());
    assert.equal(session.user.walletAddress, wallet.address.toLowerCase());
    // The token alone first, refused for want of an account; then the token with the proof.
    assert.deepEqual(
      posted.map((request) => [request.path, request.body.wallet === undefined ? 'token' : 'token+wallet']),
      [
        ['/api/auth/quick-auth', 'token'],
        ['/api/auth/quick-auth', 'token+wallet'],
      ],
    );
    assert.equal((await getProfile(session.api)).social_fid, fid.toString());

    posted.length = 0;
    const again = await signInWithQuickAuth(api, {
      token: await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN }),
      walletClient: walletOf(newAccount()),
    });
    assert.equal(again.user.id, session.user.id);
    assert.equal(posted.length, 1, 'a linked fid signs in without asking the wallet');
    assert.equal(posted[0]?.body.wallet, undefined);
  });

  it('Quick Auth without a wallet for a new fid, and an expired token, are refused as AUTH_ERROR', async () => {
    const fid = await chain.registerFid(newAccount().address);
    await assert.rejects(
      signInWithQuickAuth(api, { token: await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN }) }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'AUTH_ERROR' && /wallet proof/.test(String(error.details)),
    );
    posted.length = 0;
    await assert.rejects(
      signInWithQuickAuth(api, {
        token: await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN, expiresInSeconds: -60 }),
        walletClient: walletOf(newAccount()),
      }),
      (error: unknown) => error instanceof SongmintApiError && error.code === 'AUTH_ERROR',
    );
    assert.equal(posted.length, 1, 'an expired token is not retried with a wallet proof');
  });
});
