/**
 * The operator's C2PA signing identity: an X.509 certificate chain (PEM, signer first, then its
 * intermediates, without the root) and the signer's private key (PEM, PKCS#8 or the key type's
 * own format). Loaded and checked once at start, so a worker never publishes a song it cannot
 * sign: each check that fails names the variable and what is wrong with it.
 *
 * The checks are those a C2PA validator makes of a claim signer's certificate (C2PA 2.1
 * §14.5.1): an end-entity certificate (not a CA) valid now, with the digitalSignature key usage
 * and an extended key usage validators accept, whose public key is the private key's.
 *
 * The key may instead stay in an HSM or KMS (`C2PA_SIGNER`, a P-256 key; core/src/signing/): the
 * worker then never reads it, and asks the backend for each manifest's ECDSA signature.
 */
import { constants, createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as x509 from '@peculiar/x509';
import type { Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import { openSigningKeyFrom } from '../../../core/src/signing/open-signing-key.ts';
import type { SigningKey } from '../../../core/src/signing/signing-key.ts';

/** COSE algorithm ids (RFC 9053) C2PA allows, by the key that makes them. */
export type CoseAlgorithm = -7 | -35 | -36 | -37 | -38 | -39 | -8;

/** Extended key usages C2PA validators accept for a claim signer. */
export const C2PA_SIGNER_EKUS = {
  emailProtection: '1.3.6.1.5.5.7.3.4',
  documentSigning: '1.3.6.1.5.5.7.3.36',
  c2paClaimSigning: '1.3.6.1.4.1.62558.2.1',
} as const;

export interface SigningIdentity {
  /** Signer first, then intermediates. */
  chain: readonly x509.X509Certificate[];
  algorithm: CoseAlgorithm;
  /**
   * Signs `payload` as COSE wants it (ECDSA as raw r|s, RSA-PSS with a salt as long as the hash).
   * Rejects when the HSM or KMS holding the key does not sign (the job fails and is retried).
   */
  sign(payload: Uint8Array): Promise<Uint8Array>;
  /** Which key signs, without secrets: `file` or the HSM/KMS key reference. */
  key: string;
  /** Releases the HSM sessions or KMS client. */
  close(): Promise<void>;
  /** Who signs, for logs and the job record: the certificate's subject. */
  subject: string;
  notAfter: Date;
}

export type SigningIdentityError = { code: 'SIGNING_IDENTITY_INVALID'; message: string };

export interface SigningIdentityFiles {
  /** `C2PA_SIGN_CERT`: path of the PEM certificate chain. */
  certFile: string;
  /** `C2PA_PRIVATE_KEY`: path of the PEM private key. */
  keyFile: string;
}

const invalid = (message: string): { ok: false; error: SigningIdentityError } => fail({ code: 'SIGNING_IDENTITY_INVALID', message });

function readText(variable: string, path: string): Result<string, SigningIdentityError> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (err) {
    return invalid(`${variable}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

function algorithmFor(
  key: KeyObject,
): Result<{ algorithm: CoseAlgorithm; digest: string | null; padding: 'pss' | null }, SigningIdentityError> {
  const details = key.asymmetricKeyDetails;
  switch (key.asymmetricKeyType) {
    case 'ec':
      if (details?.namedCurve === 'prime256v1') return ok({ algorithm: -7, digest: 'sha256', padding: null });
      if (details?.namedCurve === 'secp384r1') return ok({ algorithm: -35, digest: 'sha384', padding: null });
      if (details?.namedCurve === 'secp521r1') return ok({ algorithm: -36, digest: 'sha512', padding: null });
      return invalid(`C2PA_PRIVATE_KEY: EC curve ${details?.namedCurve ?? '?'} is not one C2PA allows (P-256, P-384, P-521)`);
    case 'rsa':
    case 'rsa-pss':
      if ((details?.modulusLength ?? 0) < 2048)
        return invalid(`C2PA_PRIVATE_KEY: RSA keys need at least 2048 bits, this one has ${details?.modulusLength ?? '?'}`);
      return ok({ algorithm: -37, digest: 'sha256', padding: 'pss' });
    case 'ed25519':
      return ok({ algorithm: -8, digest: null, padding: null });
    default:
      return invalid(
        `C2PA_PRIVATE_KEY: ${key.asymmetricKeyType ?? 'this'} key type cannot sign C2PA manifests (use EC P-256/P-384/P-521, RSA or Ed25519)`,
      );
  }
}

/** Checks a signer certificate against the C2PA profile; null when it passes. */
export function certificateProblem(cert: x509.X509Certificate, now: Date): string | null {
  if (now < cert.notBefore) return `the signer certificate is not valid before ${cert.notBefore.toISOString()}`;
  if (now > cert.notAfter) return `the signer certificate expired on ${cert.notAfter.toISOString()}`;
  const basic = cert.getExtension(x509.BasicConstraintsExtension);
  if (basic?.ca === true) return 'the signer certificate is a CA certificate; sign with an end-entity certificate issued by it';
  const usage = cert.getExtension(x509.KeyUsagesExtension);
  if (usage === null || (usage.usages & x509.KeyUsageFlags.digitalSignature) === 0)
    return 'the signer certificate lacks the digitalSignature key usage';
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  const accepted = Object.values(C2PA_SIGNER_EKUS) as string[];
  if (eku === null || !eku.usages.some((u) => accepted.includes(String(u)))) {
    return `the signer certificate needs an extended key usage C2PA accepts (emailProtection ${C2PA_SIGNER_EKUS.emailProtection}, documentSigning ${C2PA_SIGNER_EKUS.documentSigning} or c2pa-kp-claimSigning ${C2PA_SIGNER_EKUS.c2paClaimSigning})`;
  }
  return null;
}

/** The PEM chain of `certFile`, signer first, each certificate issued by the next. */
function readChain(certFile: string): Result<x509.X509Certificate[], SigningIdentityError> {
  const certText = readText('C2PA_SIGN_CERT', certFile);
  if (!certText.ok) return certText;
  let chain: x509.X509Certificate[];
  try {
    const blocks = certText.value.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    chain = blocks.map((pem) => new x509.X509Certificate(pem));
  } catch (err) {
    return invalid(`C2PA_SIGN_CERT: ${certFile} is not a PEM certificate chain (${(err as Error).message})`);
  }
  if (chain[0] === undefined) return invalid(`C2PA_SIGN_CERT: ${certFile} holds no certificate`);
  for (let i = 1; i < chain.length; i++) {
    if (chain[i - 1]?.issuer !== chain[i]?.subject)
      return invalid(
        `C2PA_SIGN_CERT: certificate ${i + 1} of the chain did not issue certificate ${i} (list the signer first, then each issuer)`,
      );
  }
  return ok(chain);
}

/** Reads and checks the identity; `now` decides validity (the start of the worker). */
export function loadSigningIdentity(files: SigningIdentityFiles, now = new Date()): Result<SigningIdentity, SigningIdentityError> {
  const read = readChain(files.certFile);
  if (!read.ok) return read;
  const chain = read.value;
  const signer = chain[0]!;
  const keyText = readText('C2PA_PRIVATE_KEY', files.keyFile);
  if (!keyText.ok) return keyText;

  let key: KeyObject;
  try {
    key = createPrivateKey(keyText.value);
  } catch (err) {
    return invalid(`C2PA_PRIVATE_KEY: ${files.keyFile} is not a PEM private key (${(err as Error).message})`);
  }
  const alg = algorithmFor(key);
  if (!alg.ok) return alg;
  const certKey = createPublicKey({ key: Buffer.from(signer.publicKey.rawData), format: 'der', type: 'spki' });
  if (!certKey.equals(createPublicKey(key)))
    return invalid(`C2PA_PRIVATE_KEY: ${files.keyFile} is not the key of the signer certificate in ${files.certFile}`);
  const problem = certificateProblem(signer, now);
  if (problem !== null) return invalid(`C2PA_SIGN_CERT: ${problem}`);

  const { algorithm, digest, padding } = alg.value;
  return ok({
    chain,
    algorithm,
    subject: signer.subject,
    notAfter: signer.notAfter,
    key: 'file',
    close: () => Promise.resolve(),
    sign: async (payload) =>
      new Uint8Array(
        sign(
          digest,
          payload,
          padding === 'pss' ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : { key, dsaEncoding: 'ieee-p1363' },
        ),
      ),
  });
}

/**
 * The identity of a P-256 key held by an HSM or KMS (`key`) with the certificate chain of
 * `certFile`, whose signer certificate must be for that key. ES256: SHA-256 of the payload here,
 * the ECDSA over the digest in the backend, raw r|s as COSE takes it.
 */
export function signingIdentityWithKey(certFile: string, key: SigningKey, now = new Date()): Result<SigningIdentity, SigningIdentityError> {
  const read = readChain(certFile);
  if (!read.ok) return read;
  const chain = read.value;
  const signer = chain[0]!;
  if (key.curve !== 'P-256') return invalid(`C2PA_SIGNER: ${key.display} is a ${key.curve} key; C2PA needs P-256 (ES256)`);
  const point = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  const heldKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point(key.publicKey.subarray(1, 33)), y: point(key.publicKey.subarray(33, 65)) },
    format: 'jwk',
  });
  const certKey = createPublicKey({ key: Buffer.from(signer.publicKey.rawData), format: 'der', type: 'spki' });
  if (!certKey.equals(heldKey))
    return invalid(
      `C2PA_SIGNER: ${key.display} is not the key of the signer certificate in ${certFile} (issue the certificate for this key)`,
    );
  const problem = certificateProblem(signer, now);
  if (problem !== null) return invalid(`C2PA_SIGN_CERT: ${problem}`);
  return ok({
    chain,
    algorithm: -7,
    subject: signer.subject,
    notAfter: signer.notAfter,
    key: key.display,
    close: () => key.close(),
    async sign(payload) {
      const signed = await key.signDigest(createHash('sha256').update(payload).digest());
      if (!signed.ok) throw new Error(`C2PA signature: ${signed.error.message}`);
      return signed.value;
    },
  });
}

/** The worker's identity from its configuration: `C2PA_SIGNER` (HSM or KMS) or `C2PA_PRIVATE_KEY` (a PEM file). */
export async function openSigningIdentity(config: {
  C2PA_SIGN_CERT: string;
  C2PA_PRIVATE_KEY?: string | undefined;
  C2PA_SIGNER?: string | undefined;
}): Promise<Result<SigningIdentity, SigningIdentityError>> {
  if (config.C2PA_SIGNER === undefined) {
    if (config.C2PA_PRIVATE_KEY === undefined) return invalid('C2PA_PRIVATE_KEY or C2PA_SIGNER is required');
    return loadSigningIdentity({ certFile: config.C2PA_SIGN_CERT, keyFile: config.C2PA_PRIVATE_KEY });
  }
  const key = await openSigningKeyFrom('C2PA_SIGNER', config.C2PA_SIGNER, 'P-256');
  if (!key.ok) return invalid(key.error.message);
  const identity = signingIdentityWithKey(config.C2PA_SIGN_CERT, key.value);
  if (!identity.ok) await key.value.close();
  return identity;
}
