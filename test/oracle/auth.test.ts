import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, UnsecuredJWT } from 'jose';
import { serializeErc6492Signature } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { SESSION_TOKEN_AUDIENCE, SESSION_TOKEN_ISSUER } from '../../oracle/src/domain/session-token.ts';
import { TEST_SIWE_DOMAIN, TEST_SIWE_URI, startTestApp } from './helpers/test-app.ts';
import type { TestApp } from './helpers/test-app.ts';
import { assertVariantAError, assertVariantCError } from './helpers/shapes.ts';
import { nonceResponseSchema, sessionTokenSchema } from '../../oracle/src/http/schemas.ts';

describe('sign-in (SIWE) and bearer authentication', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.stop();
  });

  async function signedMessage(overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
    const account = privateKeyToAccount(generatePrivateKey());
    const { nonce } = nonceResponseSchema.parse((await app.request('/api/auth/nonce')).body);
    const message = createSiweMessage({
      address: account.address,
      chainId: 8453,
      domain: TEST_SIWE_DOMAIN,
      uri: TEST_SIWE_URI,
      nonce,
      version: '1',
      issuedAt: new Date(),
      ...overrides,
    });
    return { account, message, signature: await account.signMessage({ message }) };
  }

  it('issues a nonce with the domain, uri and chain to sign', async () => {
    const res = await app.request('/api/auth/nonce');
    assert.equal(res.status, 200);
    const body = nonceResponseSchema.parse(res.body);
    assert.match(body.nonce, /^[0-9a-f]{32}$/);
    assert.equal(body.domain, TEST_SIWE_DOMAIN);
    assert.equal(body.uri, TEST_SIWE_URI);
    assert.equal(body.chain_id, 8453);
    assert.ok(new Date(body.expires_at).getTime() > Date.now());
  });

  it('signs in, creates the user once per wallet, and the token opens protected endpoints', async () => {
    const { account, message, signature } = await signedMessage();
    const res = await app.request('/api/auth/verify', { body: { message, signature } });
    assert.equal(res.status, 200);
    const body = sessionTokenSchema.parse(res.body);
    assert.equal(body.user.wallet_address, account.address.toLowerCase());
    assert.equal(body.user.tier, 'free');
    const expires = new Date(body.expires_at).getTime();
    assert.ok(Math.abs(expires - (Date.now() + 3600_000)) < 10_000);
    const profile = await app.request('/v1/user/profile', { token: body.token });
    assert.equal(profile.status, 200);
    const again = await app.login(account);
    assert.equal(again.userId, body.user.id);
    const count = await app.db.one('SELECT count(*)::int AS n FROM users WHERE wallet_address = $1', [account.address.toLowerCase()]);
    assert.equal(count.n, 1);
  });

  it('consumes a nonce once: replaying the same signed message is refused', async () => {
    const { message, signature } = await signedMessage();
    assert.equal((await app.request('/api/auth/verify', { body: { message, signature } })).status, 200);
    const replay = await app.request('/api/auth/verify', { body: { message, signature } });
    assert.equal(replay.status, 401);
    assertVariantAError(replay.body, 'AUTH_ERROR');
  });

  it('refuses an unknown nonce, another domain, another chain, an expired message and a wrong signer', async () => {
    const unknown = await signedMessage({ nonce: 'abcdefgh12345678' });
    const cases = [
      unknown,
      await signedMessage({ domain: 'evil.example' }),
      await signedMessage({ uri: `${TEST_SIWE_URI}.evil.example/login` }),
      await signedMessage({ chainId: 1 }),
      await signedMessage({ expirationTime: new Date(Date.now() - 1000) }),
    ];
    for (const { message, signature } of cases) {
      const res = await app.request('/api/auth/verify', { body: { message, signature } });
      assert.equal(res.status, 401, message);
      assertVariantAError(res.body, 'AUTH_ERROR');
    }
    const { message } = await signedMessage();
    const impostor = privateKeyToAccount(generatePrivateKey());
    const wrong = await app.request('/api/auth/verify', { body: { message, signature: await impostor.signMessage({ message }) } });
    assert.equal(wrong.status, 401);
  });

  it('without a chain RPC, refuses a smart-wallet signature with a clear AUTH_ERROR (not a 500) and keeps the nonce usable for an EOA', async () => {
    const { account, message, signature } = await signedMessage();
    const factory = privateKeyToAccount(generatePrivateKey()).address;
    const details = (body: unknown) => (body as { error: { details: string } }).error.details;
    // ERC-6492 (an undeployed account's signature wrapped with its factory) and an ERC-1271 blob of another length.
    for (const smart of [
      serializeErc6492Signature({ address: factory, data: '0xdeadbeef', signature }),
      `0x${'ab'.repeat(300)}` as const,
    ]) {
      const res = await app.request('/api/auth/verify', { body: { message, signature: smart } });
      assert.equal(res.status, 401, res.text);
      assertVariantAError(res.body, 'AUTH_ERROR');
      assert.match(
        details(res.body),
        /smart-wallet signatures \(ERC-1271\/ERC-6492\) cannot be checked: this server has no chain RPC \(CHAIN_RPC_URL\)/,
      );
    }
    const impostor = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
    const wrong = await app.request('/api/auth/verify', { body: { message, signature: impostor } });
    assert.equal(wrong.status, 401);
    assert.match(details(wrong.body), /does not match the message address \(this server checks EOA signatures only/);
    const ok = await app.request('/api/auth/verify', { body: { message, signature } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(sessionTokenSchema.parse(ok.body).user.wallet_address, account.address.toLowerCase());
  });

  it('rejects malformed sign-in bodies with 400', async () => {
    for (const body of [
      {},
      { message: 'hi' },
      { message: 'hi', signature: 'nothex' },
      { message: 1, signature: '0x00' },
      { message: 'hi', signature: `0x${'ab'.repeat(8193)}` },
    ]) {
      const res = await app.request('/api/auth/verify', { body });
      assert.equal(res.status, 400);
      assertVariantAError(res.body, 'VALIDATION_ERROR');
    }
    const garbage = await app.request('/api/auth/verify', { body: { message: 'not a siwe message', signature: '0x1234' } });
    assert.equal(garbage.status, 401);
  });

  it('ignores a social_fid claim when no Farcaster RPC is configured', async () => {
    const { message, signature } = await signedMessage();
    const res = await app.request('/api/auth/verify', { body: { message, signature, social_fid: 1234 } });
    assert.equal(res.status, 200);
    assert.equal(sessionTokenSchema.parse(res.body).user.social_fid, null);
  });

  describe('401 on protected endpoints', () => {
    let userId: string;
    let wallet: string;
    before(async () => {
      const user = await app.login();
      userId = user.userId;
      wallet = user.address;
    });
    const sign = (secret: Uint8Array, mutate: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
      mutate(
        new SignJWT({ wallet })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(userId)
          .setIssuer(SESSION_TOKEN_ISSUER)
          .setAudience(SESSION_TOKEN_AUDIENCE)
          .setIssuedAt()
          .setExpirationTime('1h'),
      ).sign(secret);

    it('accepts a correctly signed token (control)', async () => {
      const res = await app.request('/v1/user/profile', { token: await sign(app.deps.session.secret) });
      assert.equal(res.status, 200);
    });

    it('refuses missing, malformed, expired, wrongly signed, alg none, wrong issuer/audience tokens', async () => {
      const tokens: Array<[string, Record<string, string>]> = [
        ['missing', {}],
        ['malformed', { authorization: 'Bearer not-a-jwt' }],
        ['basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
        [
          'expired',
          {
            authorization: `Bearer ${await sign(app.deps.session.secret, (j) => j.setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600))}`,
          },
        ],
        ['wrong key', { authorization: `Bearer ${await sign(new TextEncoder().encode('another-secret-of-at-least-32-bytes!!'))}` }],
        ['wrong issuer', { authorization: `Bearer ${await sign(app.deps.session.secret, (j) => j.setIssuer('someone-else'))}` }],
        ['wrong audience', { authorization: `Bearer ${await sign(app.deps.session.secret, (j) => j.setAudience('other-api'))}` }],
        [
          'alg none',
          {
            authorization: `Bearer ${new UnsecuredJWT({ wallet }).setSubject(userId).setIssuer(SESSION_TOKEN_ISSUER).setAudience(SESSION_TOKEN_AUDIENCE).setIssuedAt().setExpirationTime('1h').encode()}`,
          },
        ],
        [
          'unknown user',
          { authorization: `Bearer ${await sign(app.deps.session.secret, (j) => j.setSubject('00000000-0000-4000-8000-000000000000'))}` },
        ],
      ];
      for (const [name, headers] of tokens) {
        const a = await app.request('/api/generate', { headers, body: { prompt: 'x', duration: 5 } });
        assert.equal(a.status, 401, name);
        assertVariantAError(a.body, 'AUTH_ERROR');
        const get = await app.request('/api/generate/gen_00000000-0000-4000-8000-000000000000', { headers });
        assert.equal(get.status, 401, name);
        const c = await app.request('/v1/user/profile', { headers });
        assert.equal(c.status, 401, name);
        assertVariantCError(c.body, 'AUTH_ERROR');
      }
    });

    it('needs no token for health, metrics, the OpenAPI document and the docs page', async () => {
      for (const path of ['/health', '/health/live', '/metrics', '/openapi.json', '/docs']) {
        const res = await app.request(path);
        assert.equal(res.status, 200, path);
      }
    });
  });
});

describe('Farcaster fid claims with a configured IdRegistry reader', () => {
  let app: TestApp;
  const registry = new Map<string, bigint>();
  let registryDown = false;
  before(async () => {
    app = await startTestApp({
      fidVerifier: async (address) => {
        if (registryDown) throw new Error('rpc unreachable');
        return registry.get(address.toLowerCase()) ?? 0n;
      },
    });
  });
  after(async () => {
    await app.stop();
  });

  it('links a fid the registry confirms, refuses one it does not, and one already linked elsewhere', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    registry.set(owner.address.toLowerCase(), 777n);
    const linked = await app.login(owner, { social_fid: 777 });
    const row = await app.db.one('SELECT social_fid::text AS fid FROM users WHERE id = $1', [linked.userId]);
    assert.equal(row.fid, '777');

    const claimant = privateKeyToAccount(generatePrivateKey());
    await assert.rejects(app.login(claimant, { social_fid: '777' }), /401/);
    registry.set(claimant.address.toLowerCase(), 777n);
    await assert.rejects(app.login(claimant, { social_fid: 777 }), /409/);
  });

  it('answers 503 when the registry cannot be read', async () => {
    registryDown = true;
    try {
      await assert.rejects(app.login(undefined, { social_fid: 5 }), /503/);
    } finally {
      registryDown = false;
    }
  });
});
