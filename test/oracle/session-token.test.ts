import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createSessionTokenVerifier, issueSessionToken } from '../../oracle/src/domain/session-token.ts';

describe('session token verifier (verified tokens remembered until they expire)', () => {
  const keys = { secret: new Uint8Array(randomBytes(32)), ttlSeconds: 60 };
  const claims = { userId: '0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11', walletAddress: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' };
  const issuedAt = new Date('2026-11-22T00:00:00.000Z');
  const at = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);

  it('accepts a token again while it is valid and refuses it from its expiry on', async () => {
    const verify = createSessionTokenVerifier(keys);
    const { token } = await issueSessionToken(keys, claims, issuedAt);
    assert.deepEqual(await verify(token, at(1)), { ok: true, value: claims });
    assert.deepEqual(await verify(token, at(59.999)), { ok: true, value: claims });
    assert.deepEqual(await verify(token, at(60)), { ok: false, error: { code: 'invalid_token', message: 'token expired' } });
    assert.deepEqual(await verify(token, at(30)), { ok: true, value: claims }, 'verified again from scratch once forgotten');
  });

  it('refuses a tampered token or one signed with another secret after the genuine one was accepted', async () => {
    const verify = createSessionTokenVerifier(keys);
    const { token } = await issueSessionToken(keys, claims, issuedAt);
    assert.equal((await verify(token, at(1))).ok, true);
    const [header, payload, signature] = token.split('.');
    const flipped = `${header}.${payload}.${signature?.startsWith('A') === true ? 'B' : 'A'}${signature?.slice(1)}`;
    assert.equal((await verify(flipped, at(1))).ok, false);
    const forged = await issueSessionToken({ secret: new Uint8Array(randomBytes(32)), ttlSeconds: 60 }, claims, issuedAt);
    assert.equal((await verify(forged.token, at(1))).ok, false);
    assert.equal((await verify(token, at(2))).ok, true);
  });
});
