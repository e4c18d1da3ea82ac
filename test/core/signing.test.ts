/**
 * core/src/signing/ against the real PKCS#11 module (Debian's SoftHSM2, a fresh token per run,
 * keys generated inside it by OpenSC's pkcs11-tool) and against AWS KMS through the real
 * @aws-sdk/client-kms and a loopback protocol double (test/support/kms-double.ts). Signatures are
 * checked by independent code: viem's recovery for Ethereum signatures, node:crypto for P-256.
 */
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { p256 } from '@noble/curves/p256';
import { secp256k1 } from '@noble/curves/secp256k1';
import { recoverAddress } from 'viem';
import type { Hex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { derToRawSignature, isHighS, toEthereumSignature } from '../../core/src/signing/ecdsa.ts';
import { parseKeyReference } from '../../core/src/signing/key-reference.ts';
import { openSigningKeyFrom } from '../../core/src/signing/open-signing-key.ts';
import type { SigningKey } from '../../core/src/signing/signing-key.ts';
import { KMS_DOUBLE_ENV, startKmsDouble } from '../support/kms-double.ts';
import type { KmsDouble } from '../support/kms-double.ts';
import { createSoftHsmToken, softHsmMissing } from '../support/softhsm.ts';
import type { SoftHsmToken } from '../support/softhsm.ts';

const digestOf = (i: number) => createHash('sha256').update(`digest ${i}`).digest();
const hex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;

function assertOpened(result: Awaited<ReturnType<typeof openSigningKeyFrom>>): SigningKey {
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.value;
}

/** Every signature of `key` over the digests recovers to its address, with s low; returns how many came back high-s. */
async function expectEthereumSignatures(key: SigningKey, count: number): Promise<number> {
  const address = publicKeyToAddress(hex(key.publicKey));
  const digests = Array.from({ length: count }, (_, i) => digestOf(i));
  const raws = await Promise.all(digests.map((digest) => key.signDigest(digest)));
  let high = 0;
  for (const [i, raw] of raws.entries()) {
    assert.ok(raw.ok, raw.ok ? '' : raw.error.message);
    if (isHighS(raw.value)) high++;
    const signature = toEthereumSignature(raw.value, digests[i]!, key.publicKey);
    assert.ok(signature !== undefined, 'recovers to the key');
    assert.ok(!isHighS(signature.subarray(0, 64)), 's is low');
    assert.ok(signature[64] === 27 || signature[64] === 28);
    assert.equal(await recoverAddress({ hash: hex(digests[i]!), signature: hex(signature) }), address);
  }
  return high;
}

describe('key references', () => {
  it('parses RFC 7512 pkcs11: URIs and awskms:// references, and refuses bad ones by name without echoing the PIN', () => {
    const parsed = parseKeyReference(
      'PLATFORM_SIGNER',
      'pkcs11:token=My%20Token;object=mint;id=%01%02?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-value=s3cr%65t',
    );
    assert.ok(parsed.ok && parsed.value.kind === 'pkcs11');
    assert.equal(parsed.value.token, 'My Token');
    assert.equal(parsed.value.pin, 's3cret');
    assert.deepEqual([...(parsed.value.id ?? [])], [1, 2]);
    assert.ok(!parsed.value.display.includes('s3cr'));
    const kms = parseKeyReference('X', 'awskms://127.0.0.1:4566/alias/songmint-mint');
    assert.ok(kms.ok && kms.value.kind === 'awskms');
    assert.equal(kms.value.endpoint, 'http://127.0.0.1:4566');
    const arn = parseKeyReference('X', 'awskms:///arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab');
    assert.ok(arn.ok && arn.value.kind === 'awskms' && arn.value.endpoint === undefined && arn.value.region === 'eu-west-1');
    for (const [value, problem] of [
      ['0x1234', /pkcs11: URI .* or an awskms/],
      ['pkcs11:token=t;object=o?pin-value=1', /module-path/],
      ['pkcs11:object=o?module-path=/m.so&pin-value=1', /token=/],
      ['pkcs11:token=t?module-path=/m.so&pin-value=1', /object=/],
      ['pkcs11:token=t;object=o?module-path=/m.so', /PIN/],
      ['pkcs11:token=t;object=o?module-path=/m.so&pin-source=/nonexistent/pin', /cannot read pin-source/],
      ['pkcs11:token=t;object=o;colour=red?module-path=/m.so&pin-value=1', /unknown .* "colour"/],
      ['awskms://host', /awskms:\/\/\[endpoint\]/],
      ['awskms:///not a key', /not a KMS key id/],
    ] as const) {
      const result = parseKeyReference('PLATFORM_SIGNER', value);
      assert.ok(!result.ok, value);
      assert.match(result.error.message, /^PLATFORM_SIGNER: /);
      assert.match(result.error.message, problem, value);
    }
  });

  it('DER signatures become raw r || s as an independent library reads them', () => {
    const key = p256.utils.randomPrivateKey();
    for (let i = 0; i < 20; i++) {
      const signature = p256.sign(digestOf(i), key, { lowS: false });
      const raw = derToRawSignature(signature.toDERRawBytes(), 'P-256');
      assert.deepEqual(raw, signature.toCompactRawBytes());
    }
    assert.equal(derToRawSignature(Uint8Array.from([0x30, 0x02, 0x02, 0x00]), 'P-256'), undefined);
    assert.equal(derToRawSignature(new Uint8Array(70), 'secp256k1'), undefined);
  });
});

describe('PKCS#11 keys (SoftHSM2)', { skip: softHsmMissing() }, () => {
  let token: SoftHsmToken;
  before(async () => {
    token = await createSoftHsmToken();
    await token.generateKey('mint', 'EC:secp256k1', '01');
    await token.generateKey('c2pa', 'EC:prime256v1', '02');
  });
  after(async () => {
    await token?.remove();
  });

  it('refuses a wrong PIN, a missing object, a missing token and the wrong curve at open, naming what is wrong', async () => {
    // Before any good key is open: PKCS#11 login state is shared by the process.
    const wrongPin = await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('mint', '000000'), 'secp256k1');
    assert.ok(!wrongPin.ok);
    assert.equal(wrongPin.error.code, 'SIGNING_KEY_INVALID');
    assert.match(wrongPin.error.message, /^PLATFORM_SIGNER: the PIN for token "songmint-test" is wrong/);
    assert.ok(!wrongPin.error.message.includes('000000'));
    const missing = await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('no-such-key'), 'secp256k1');
    assert.ok(!missing.ok);
    assert.match(missing.error.message, /no private key .*object=no-such-key/);
    const noToken = await openSigningKeyFrom(
      'PLATFORM_SIGNER',
      token.uri('mint').replace('token=songmint-test', 'token=other'),
      'secp256k1',
    );
    assert.ok(!noToken.ok);
    assert.match(noToken.error.message, /no token labelled "other" .* "songmint-test"/);
    const curve = await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('c2pa'), 'secp256k1');
    assert.ok(!curve.ok);
    assert.match(curve.error.message, /not secp256k1/);
    const noModule = await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('mint').replace('libsofthsm2', 'libnothing'), 'secp256k1');
    assert.ok(!noModule.ok);
    assert.match(noModule.error.message, /cannot load the PKCS#11 module/);
  });

  it('signs inside the token: 100 concurrent signatures over a bounded session pool all recover, high s normalised', async () => {
    const key = assertOpened(await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('mint'), 'secp256k1'));
    try {
      assert.equal(key.backend, 'pkcs11');
      assert.equal(key.display, 'pkcs11:token=songmint-test;object=mint');
      // The token is logged in now; a second key with another PIN is still refused.
      const wrongPin = await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('c2pa', '000000'), 'P-256');
      assert.ok(!wrongPin.ok);
      assert.match(wrongPin.error.message, /PIN .* is wrong/);
      const high = await expectEthereumSignatures(key, 100);
      // CKM_ECDSA leaves s as it comes: about half are high (1 in 2^100 chance of none).
      assert.ok(high > 0, 'some raw signatures had a high s');
    } finally {
      await key.close();
    }
    const closed = await key.signDigest(digestOf(0));
    assert.ok(!closed.ok);
    assert.equal(closed.error.code, 'SIGNER_UNAVAILABLE');
  });

  it('a P-256 key in the token signs raw r || s that node:crypto verifies against its public key', async () => {
    const key = assertOpened(await openSigningKeyFrom('C2PA_SIGNER', token.uri('c2pa'), 'P-256'));
    try {
      const publicKey = createPublicKey({
        key: {
          kty: 'EC',
          crv: 'P-256',
          x: Buffer.from(key.publicKey.subarray(1, 33)).toString('base64url'),
          y: Buffer.from(key.publicKey.subarray(33)).toString('base64url'),
        },
        format: 'jwk',
      });
      const payload = Buffer.from('a COSE Sig_structure');
      const signed = await key.signDigest(createHash('sha256').update(payload).digest());
      assert.ok(signed.ok);
      assert.ok(verify('sha256', payload, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signed.value));
    } finally {
      await key.close();
    }
  });
});

describe('AWS KMS keys (client-kms against a loopback protocol double)', () => {
  let kms: KmsDouble;
  const savedEnv = { ...process.env };
  before(async () => {
    Object.assign(process.env, KMS_DOUBLE_ENV);
    kms = await startKmsDouble();
  });
  after(async () => {
    await kms?.close();
    process.env = savedEnv;
  });

  it('reads the public key, signs digests (DER, high s as KMS leaves it) that recover to the key', async () => {
    const { publicKey } = kms.createKey('ECC_SECG_P256K1', 'mint');
    const key = assertOpened(await openSigningKeyFrom('PLATFORM_SIGNER', `awskms://${kms.host}/alias/mint`, 'secp256k1'));
    try {
      assert.equal(key.backend, 'awskms');
      assert.deepEqual(key.publicKey, publicKey);
      assert.deepEqual(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), false).length, key.publicKey.length);
      const high = await expectEthereumSignatures(key, 40);
      assert.ok(high > 0);
    } finally {
      await key.close();
    }
  });

  it('refuses a key of the wrong spec or one KMS does not know, and answers SIGNER_UNAVAILABLE within the deadline when KMS stops answering', async () => {
    const p256Key = kms.createKey('ECC_NIST_P256');
    const wrong = await openSigningKeyFrom('PLATFORM_SIGNER', `awskms://${kms.host}/${p256Key.keyId}`, 'secp256k1');
    assert.ok(!wrong.ok);
    assert.match(wrong.error.message, /ECC_NIST_P256 .* must be ECC_SECG_P256K1/);
    const unknown = await openSigningKeyFrom('PLATFORM_SIGNER', `awskms://${kms.host}/alias/nothing`, 'secp256k1');
    assert.ok(!unknown.ok);
    assert.match(unknown.error.message, /NotFoundException/);

    kms.createKey('ECC_SECG_P256K1', 'hang');
    const key = assertOpened(await openSigningKeyFrom('PLATFORM_SIGNER', `awskms://${kms.host}/alias/hang`, 'secp256k1'));
    kms.hang();
    try {
      const signed = await key.signDigest(digestOf(1));
      assert.ok(!signed.ok);
      assert.equal(signed.error.code, 'SIGNER_UNAVAILABLE');
    } finally {
      kms.resume();
      await key.close();
    }
  });
});
