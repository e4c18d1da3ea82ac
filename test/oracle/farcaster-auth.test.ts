import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWalletClient as createFarcasterWalletClient } from '@farcaster/auth-client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { freePort } from '../../core/src/testing/free-port.ts';
import { createFarcasterSignInVerifier, createQuickAuthVerifier } from '../../oracle/src/domain/farcaster.ts';
import { nonceResponseSchema, sessionTokenSchema } from '../../oracle/src/http/schemas.ts';
import { startLocalOptimism } from '../support/local-optimism.ts';
import type { LocalOptimism } from '../support/local-optimism.ts';
import { startQuickAuthIssuer } from '../support/quick-auth-issuer.ts';
import type { QuickAuthIssuer } from '../support/quick-auth-issuer.ts';
import { assertVariantAError as assertErrorBody } from './helpers/shapes.ts';
import { TEST_SIWE_DOMAIN, TEST_SIWE_URI, startTestApp } from './helpers/test-app.ts';
import type { TestApp, TestResponse } from './helpers/test-app.ts';

function assertVariantAError(res: TestResponse, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assertErrorBody(res.body, code);
}

// The SIWF messages are built by @farcaster/auth-client's own wallet client, as a Farcaster
// client builds them, never by the code under test.
const farcasterWallet = createFarcasterWalletClient({
  ethereum: { getFid: async () => 0n, isValidAuthAddress: async () => false } as never,
});

describe('Sign In With Farcaster and Quick Auth', () => {
  let chain: LocalOptimism;
  let issuer: QuickAuthIssuer;
  let app: TestApp;

  before(async () => {
    [chain, issuer] = await Promise.all([startLocalOptimism(), startQuickAuthIssuer()]);
    app = await startTestApp({
      farcasterSignIn: createFarcasterSignInVerifier(chain.rpcUrl),
      quickAuth: createQuickAuthVerifier(issuer.origin),
    });
  });
  after(async () => {
    await app?.stop();
    await Promise.all([chain?.stop(), issuer?.stop()]);
  });

  const newAccount = () => privateKeyToAccount(generatePrivateKey());

  async function nonce(): Promise<string> {
    return nonceResponseSchema.parse((await app.request('/api/auth/nonce')).body).nonce;
  }

  interface SiwfOptions {
    nonce?: string;
    domain?: string;
    signer?: PrivateKeyAccount;
  }

  /** A SIWF message for `fid` naming `account`, signed by `signer` (the account itself by default). */
  async function siwf(account: PrivateKeyAccount, fid: bigint, options: SiwfOptions = {}) {
    const built = farcasterWallet.buildSignInMessage({
      address: account.address,
      fid: Number(fid),
      uri: TEST_SIWE_URI,
      domain: options.domain ?? TEST_SIWE_DOMAIN,
      nonce: options.nonce ?? (await nonce()),
    });
    assert.equal(built.isError, false, built.error?.message);
    const message = built.message as string;
    const signature = await (options.signer ?? account).signMessage({ message });
    return { message, signature };
  }

  async function walletProof(wallet: PrivateKeyAccount, withNonce?: string) {
    const message = createSiweMessage({
      address: wallet.address,
      chainId: 8453,
      domain: TEST_SIWE_DOMAIN,
      uri: TEST_SIWE_URI,
      nonce: withNonce ?? (await nonce()),
      version: '1',
      issuedAt: new Date(),
    });
    return { message, signature: await wallet.signMessage({ message }) };
  }

  const signInWithFarcaster = (body: unknown) => app.request('/api/auth/farcaster', { body });
  const signInWithQuickAuth = (body: unknown) => app.request('/api/auth/quick-auth', { body });

  async function profileFid(res: TestResponse): Promise<string | null> {
    const session = sessionTokenSchema.parse(res.body);
    const profile = await app.request('/v1/user/profile', { token: session.token });
    assert.equal(profile.status, 200);
    return (profile.body as { social_fid: string | null }).social_fid;
  }

  it("signs in with the custody address's message: the session's profile names the fid", async () => {
    const custody = newAccount();
    const fid = await chain.registerFid(custody.address);
    const res = await signInWithFarcaster(await siwf(custody, fid));
    assert.equal(res.status, 200, res.text);
    const session = sessionTokenSchema.parse(res.body);
    assert.equal(session.user.social_fid, fid.toString());
    assert.equal(session.user.wallet_address, custody.address.toLowerCase());
    assert.equal(await profileFid(res), fid.toString());
  });

  it('refuses a replayed message, a forged signature, another domain and an expired message', async () => {
    const custody = newAccount();
    const fid = await chain.registerFid(custody.address);
    const signed = await siwf(custody, fid);
    assert.equal((await signInWithFarcaster(signed)).status, 200);
    const replayed = await signInWithFarcaster(signed);
    assertVariantAError(replayed, 401, 'AUTH_ERROR');
    assert.match(JSON.stringify(replayed.body), /nonce/);

    // Signed by a key that holds no fid, for a message naming the custody address.
    const forged = await siwf(custody, fid, { signer: newAccount() });
    assertVariantAError(await signInWithFarcaster(forged), 401, 'AUTH_ERROR');

    const otherDomain = await siwf(custody, fid, { domain: 'evil.example' });
    const wrongDomain = await signInWithFarcaster(otherDomain);
    assertVariantAError(wrongDomain, 401, 'AUTH_ERROR');
    assert.match(JSON.stringify(wrongDomain.body), /domain/i);

    // auth-client refuses to build an expired message, so this one is written as SIWF's fields say.
    const expiredMessage = createSiweMessage({
      address: custody.address,
      chainId: 10,
      domain: TEST_SIWE_DOMAIN,
      uri: TEST_SIWE_URI,
      nonce: await nonce(),
      version: '1',
      statement: 'Farcaster Auth',
      issuedAt: new Date(Date.now() - 120_000),
      expirationTime: new Date(Date.now() - 60_000),
      resources: [`farcaster://fid/${fid}`],
    });
    const expired = await signInWithFarcaster({
      message: expiredMessage,
      signature: await custody.signMessage({ message: expiredMessage }),
    });
    assertVariantAError(expired, 401, 'AUTH_ERROR');
  });

  it('refuses the old custody address once the fid moved, and signs the new one into the same account', async () => {
    const oldCustody = newAccount();
    const newCustody = newAccount();
    const fid = await chain.registerFid(oldCustody.address);
    const first = sessionTokenSchema.parse((await signInWithFarcaster(await siwf(oldCustody, fid))).body);
    await chain.transferFid(fid, newCustody.address);

    const stale = await signInWithFarcaster(await siwf(oldCustody, fid));
    assertVariantAError(stale, 401, 'AUTH_ERROR');
    assert.match(JSON.stringify(stale.body), new RegExp(`fid ${fid}`));

    const moved = await signInWithFarcaster(await siwf(newCustody, fid));
    assert.equal(moved.status, 200, moved.text);
    assert.equal(sessionTokenSchema.parse(moved.body).user.id, first.user.id, 'the fid is the identity: its account follows it');
  });

  it('accepts an auth address the KeyRegistry lists for the fid, and refuses it once removed', async () => {
    const custody = newAccount();
    const authAddress = newAccount();
    const fid = await chain.registerFid(custody.address);
    assertVariantAError(await signInWithFarcaster(await siwf(authAddress, fid)), 401, 'AUTH_ERROR');
    await chain.addAuthAddress(fid, authAddress.address);
    const res = await signInWithFarcaster(await siwf(authAddress, fid));
    assert.equal(res.status, 200, res.text);
    assert.equal(sessionTokenSchema.parse(res.body).user.social_fid, fid.toString());
    await chain.removeAuthAddress(fid, authAddress.address);
    assertVariantAError(await signInWithFarcaster(await siwf(authAddress, fid)), 401, 'AUTH_ERROR');
  });

  it('links the fid to the wallet the user proves, and never lets another account claim it', async () => {
    const custody = newAccount();
    const wallet = newAccount();
    const fid = await chain.registerFid(custody.address);
    const shared = await nonce();
    const res = await signInWithFarcaster({ ...(await siwf(custody, fid, { nonce: shared })), wallet: await walletProof(wallet, shared) });
    assert.equal(res.status, 200, res.text);
    const session = sessionTokenSchema.parse(res.body);
    assert.equal(session.user.wallet_address, wallet.address.toLowerCase());
    assert.equal(session.user.social_fid, fid.toString());

    // The wallet's own SIWE sign-in is the same account, with its fid.
    const viaWallet = await app.login(wallet);
    assert.equal(viaWallet.userId, session.user.id);

    // Another wallet proving itself with the same fid is a conflict, not a second link.
    const intruder = newAccount();
    await app.login(intruder);
    const again = await nonce();
    const claim = await signInWithFarcaster({
      ...(await siwf(custody, fid, { nonce: again })),
      wallet: await walletProof(intruder, again),
    });
    assertVariantAError(claim, 409, 'CONFLICT');
    const row = await app.db.one<{ n: string }>('SELECT count(*)::text AS n FROM users WHERE social_fid = $1', [fid.toString()]);
    assert.equal(row.n, '1');

    // A wallet proof with another nonce than the Farcaster message's is refused.
    const mismatched = await signInWithFarcaster({ ...(await siwf(custody, fid)), wallet: await walletProof(wallet) });
    assertVariantAError(mismatched, 401, 'AUTH_ERROR');
  });

  it('answers 503 while OP Mainnet cannot be read, and the nonce stays usable', async () => {
    const down = await startTestApp({ farcasterSignIn: createFarcasterSignInVerifier(`http://127.0.0.1:${await freePort()}`) });
    try {
      const custody = newAccount();
      const fid = await chain.registerFid(custody.address);
      const { nonce: value } = nonceResponseSchema.parse((await down.request('/api/auth/nonce')).body);
      const built = farcasterWallet.buildSignInMessage({
        address: custody.address,
        fid: Number(fid),
        uri: TEST_SIWE_URI,
        domain: TEST_SIWE_DOMAIN,
        nonce: value,
      });
      const message = built.message as string;
      const res = await down.request('/api/auth/farcaster', { body: { message, signature: await custody.signMessage({ message }) } });
      assertVariantAError(res, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      const unused = await down.db.one<{ consumed: boolean }>(
        'SELECT consumed_at IS NOT NULL AS consumed FROM auth_nonces WHERE nonce = $1',
        [value],
      );
      assert.equal(unused.consumed, false);
    } finally {
      await down.stop();
    }
  });

  it('signs a linked fid in with a Quick Auth token alone; a new fid needs a wallet proof once', async () => {
    const custody = newAccount();
    const fid = await chain.registerFid(custody.address);
    const linked = sessionTokenSchema.parse((await signInWithFarcaster(await siwf(custody, fid))).body);
    const quick = await signInWithQuickAuth({ token: await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN }) });
    assert.equal(quick.status, 200, quick.text);
    assert.equal(sessionTokenSchema.parse(quick.body).user.id, linked.user.id);
    assert.equal(await profileFid(quick), fid.toString());

    const newcomer = 900_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
    const token = await issuer.issue({ fid: newcomer, audience: TEST_SIWE_DOMAIN });
    const unlinked = await signInWithQuickAuth({ token });
    assertVariantAError(unlinked, 401, 'AUTH_ERROR');
    assert.match(JSON.stringify(unlinked.body), /wallet proof/);
    const wallet = newAccount();
    const first = await signInWithQuickAuth({ token, wallet: await walletProof(wallet) });
    assert.equal(first.status, 200, first.text);
    const session = sessionTokenSchema.parse(first.body);
    assert.equal(session.user.social_fid, newcomer.toString());
    assert.equal(session.user.wallet_address, wallet.address.toLowerCase());
    const later = await signInWithQuickAuth({ token: await issuer.issue({ fid: newcomer, audience: TEST_SIWE_DOMAIN }) });
    assert.equal(sessionTokenSchema.parse(later.body).user.id, session.user.id);
  });

  it('refuses an expired, forged, foreign-audience or foreign-issuer Quick Auth token', async () => {
    const custody = newAccount();
    const fid = await chain.registerFid(custody.address);
    await signInWithFarcaster(await siwf(custody, fid));
    for (const token of [
      await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN, expiresInSeconds: -60 }),
      await issuer.forge({ fid, audience: TEST_SIWE_DOMAIN }),
      await issuer.issue({ fid, audience: 'other.example' }),
      await issuer.issue({ fid, audience: TEST_SIWE_DOMAIN, issuer: 'https://auth.farcaster.xyz' }),
      'not-a-jwt',
    ]) {
      const res = await signInWithQuickAuth({ token });
      assertVariantAError(res, 401, 'AUTH_ERROR');
    }
  });

  it('answers 503 when the issuer key set cannot be fetched', async () => {
    const down = await startTestApp({ quickAuth: createQuickAuthVerifier(`http://127.0.0.1:${await freePort()}`) });
    try {
      const res = await down.request('/api/auth/quick-auth', {
        body: { token: await issuer.issue({ fid: 5, audience: TEST_SIWE_DOMAIN }) },
      });
      assertVariantAError(res, 503, 'SERVICE_UNAVAILABLE');
    } finally {
      await down.stop();
    }
  });

  it('validates bodies before anything else', async () => {
    assertVariantAError(await signInWithFarcaster({ message: 'x' }), 400, 'VALIDATION_ERROR');
    assertVariantAError(await signInWithQuickAuth({ token: '' }), 400, 'VALIDATION_ERROR');
  });
});
