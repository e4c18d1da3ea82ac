/**
 * C2PA manifests signed by a P-256 key that the worker never holds: generated inside a fresh
 * SoftHSM2 token, and in AWS KMS (through @aws-sdk/client-kms and the loopback protocol double),
 * each with a certificate a test CA issued for the backend's public key. The reference reader
 * (c2pa-rs as @contentauth/c2pa-wasm) validates the signature and trusts the chain.
 */
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { createMp3Encoder } from 'wasm-media-encoders';
import { finishMp3 } from '../../inference/src/audio/content-credentials.ts';
import { C2PA_SIGNER_EKUS, openSigningIdentity } from '../../inference/src/audio/signing-identity.ts';
import { loadWorkerConfig } from '../../inference/src/config.ts';
import { openSigningKeyFrom } from '../../core/src/signing/open-signing-key.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { readC2pa } from '../support/c2pa.ts';
import { KMS_DOUBLE_ENV, startKmsDouble } from '../support/kms-double.ts';
import type { KmsDouble } from '../support/kms-double.ts';
import { createSoftHsmToken, softHsmMissing } from '../support/softhsm.ts';
import type { SoftHsmToken } from '../support/softhsm.ts';

const X509_CRYPTO = webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1];
const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** One second of a 440 Hz tone as LAME (wasm) frames, with no tag: what finishMp3 takes. */
async function toneMp3(): Promise<Uint8Array> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate: 44_100, channels: 1, bitrate: 128 });
  const samples = Float32Array.from({ length: 44_100 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 44_100));
  const head = encoder.encode([samples]).slice();
  const tail = encoder.finalize().slice();
  return Uint8Array.from([...head, ...tail]);
}

/** A CA, and a C2PA signer certificate it issues for the uncompressed P-256 point `publicKey`. */
async function issueFor(publicKey: Uint8Array, dir: string): Promise<{ certFile: string; caPem: string }> {
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + 30 * DAY_MS);
  const caKeys = await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01',
      name: 'CN=Songmint Test HSM CA',
      notBefore,
      notAfter,
      keys: caKeys,
      signingAlgorithm: EC_P256,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, X509_CRYPTO),
      ],
    },
    X509_CRYPTO,
  );
  const held = await webcrypto.subtle.importKey('raw', publicKey, EC_P256, true, ['verify']);
  const signer = await x509.X509CertificateGenerator.create(
    {
      serialNumber: '02',
      subject: 'CN=Songmint HSM Signer',
      issuer: ca.subject,
      notBefore,
      notAfter,
      publicKey: held,
      signingKey: caKeys.privateKey,
      signingAlgorithm: EC_P256,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([C2PA_SIGNER_EKUS.emailProtection, C2PA_SIGNER_EKUS.documentSigning]),
        await x509.AuthorityKeyIdentifierExtension.create(ca, false, X509_CRYPTO),
      ],
    },
    X509_CRYPTO,
  );
  const certFile = join(dir, `signer-${Buffer.from(publicKey.subarray(1, 5)).toString('hex')}.pem`);
  await writeFile(certFile, signer.toString('pem') + '\n');
  return { certFile, caPem: ca.toString('pem') + '\n' };
}

const provenance = {
  jobId: 'gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11',
  kind: 'song' as const,
  prompt: 'a tone',
  seed: 1n,
  model: { name: 'test-tone', version: '1', licence: { spdx: 'MIT', commercial_use: true } },
};

async function expectTrusted(reference: string, certFile: string, caPem: string, mp3: Uint8Array): Promise<void> {
  const config = loadWorkerConfig({
    DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
    C2PA_SIGN_CERT: certFile,
    C2PA_SIGNER: reference,
  });
  assert.ok(config.ok, config.ok ? '' : config.error.message);
  const identity = await openSigningIdentity(config.value);
  assert.ok(identity.ok, identity.ok ? '' : identity.error.message);
  try {
    const finished = await finishMp3(mp3, provenance, identity.value);
    const report = await readC2pa(finished.bytes, caPem);
    assert.equal(report.validation_state, 'Trusted', JSON.stringify(report.validation_status));
    const success = (report.validation_results?.activeManifest?.success ?? []).map((s) => s.code);
    for (const code of ['claimSignature.validated', 'assertion.dataHash.match', 'signingCredential.trusted'])
      assert.ok(success.includes(code), `${code} in ${success.join(', ')}`);
    const manifest = report.manifests[report.active_manifest];
    assert.equal(manifest?.signature_info?.common_name, 'Songmint HSM Signer');
    assert.equal(manifest?.signature_info?.alg?.toLowerCase(), 'es256');
  } finally {
    await identity.value.close();
  }
}

describe('C2PA manifests signed by an HSM or KMS key, validated by c2pa-rs', () => {
  let dir: TempDir;
  let mp3: Uint8Array;
  let kms: KmsDouble;
  const savedEnv = { ...process.env };
  before(async () => {
    Object.assign(process.env, KMS_DOUBLE_ENV);
    dir = await makeTempDir('c2pa-signer');
    mp3 = await toneMp3();
    kms = await startKmsDouble();
  });
  after(async () => {
    await kms?.close();
    await dir?.remove();
    process.env = savedEnv;
  });

  describe('SoftHSM2', { skip: softHsmMissing() }, () => {
    let token: SoftHsmToken;
    before(async () => {
      token = await createSoftHsmToken();
      await token.generateKey('c2pa', 'EC:prime256v1', '01');
      await token.generateKey('other', 'EC:prime256v1', '02');
    });
    after(async () => {
      await token?.remove();
    });

    it('a P-256 key generated in the token signs a manifest the reference reader trusts; a certificate for another key is refused at start', async () => {
      const key = await openSigningKeyFrom('C2PA_SIGNER', token.uri('c2pa'), 'P-256');
      assert.ok(key.ok);
      const publicKey = key.value.publicKey;
      await key.value.close();
      const { certFile, caPem } = await issueFor(publicKey, dir.path);
      await expectTrusted(token.uri('c2pa'), certFile, caPem, mp3);

      const other = await openSigningIdentity({ C2PA_SIGN_CERT: certFile, C2PA_SIGNER: token.uri('other') });
      assert.ok(!other.ok);
      assert.match(other.error.message, /^C2PA_SIGNER: pkcs11:token=songmint-test;object=other is not the key of the signer certificate/);
    });
  });

  it('a KMS ECC_NIST_P256 key (client-kms against the protocol double) signs a manifest the reference reader trusts', async () => {
    const { keyId, publicKey } = kms.createKey('ECC_NIST_P256');
    const { certFile, caPem } = await issueFor(publicKey, dir.path);
    await expectTrusted(`awskms://${kms.host}/${keyId}`, certFile, caPem, mp3);
  });
});
