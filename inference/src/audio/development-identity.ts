/**
 * A development signing identity for `npm start` and the tests: a self-made CA ("Songmint
 * Development CA") and an ES256 signer certificate it issued, written as PEM files under a
 * folder and reused while valid. Validators report its manifests as signed but untrusted (the CA
 * is on no trust list); docs/content-credentials.md says how an operator gets a real one.
 */
import { webcrypto } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { C2PA_SIGNER_EKUS, loadSigningIdentity } from './signing-identity.ts';

/** Node's WebCrypto as @peculiar/x509 takes it (typed there as the DOM's `Crypto`, the same API). */
const X509_CRYPTO = webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1];

export interface DevelopmentIdentityFiles {
  certFile: string;
  keyFile: string;
  /** The development CA, for a validator's trust anchors in tests. */
  caFile: string;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
const VALID_DAYS = 365;

function toPem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`.replace('\n\n', '\n');
}

async function createFiles(files: DevelopmentIdentityFiles): Promise<void> {
  const subtle = webcrypto.subtle;
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + VALID_DAYS * DAY_MS);
  const caKeys = await subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01',
      name: 'CN=Songmint Development CA, O=Songmint (development only)',
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
  const signerKeys = await subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const signer = await x509.X509CertificateGenerator.create(
    {
      serialNumber: '02',
      subject: 'CN=Songmint Development Signer, O=Songmint (development only)',
      issuer: ca.subject,
      notBefore,
      notAfter,
      publicKey: signerKeys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: EC_P256,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([C2PA_SIGNER_EKUS.emailProtection, C2PA_SIGNER_EKUS.documentSigning]),
        await x509.AuthorityKeyIdentifierExtension.create(ca, false, X509_CRYPTO),
        await x509.SubjectKeyIdentifierExtension.create(signerKeys.publicKey, false, X509_CRYPTO),
      ],
    },
    X509_CRYPTO,
  );
  await writeFile(files.caFile, ca.toString('pem') + '\n');
  await writeFile(files.certFile, signer.toString('pem') + '\n');
  await writeFile(files.keyFile, toPem('PRIVATE KEY', await subtle.exportKey('pkcs8', signerKeys.privateKey)), { mode: 0o600 });
}

/**
 * The development identity under `dir` (`c2pa-dev-cert.pem`, `c2pa-dev-key.pem`,
 * `c2pa-dev-ca.pem`): made on first use, made again when missing, unreadable or near its end.
 */
export async function ensureDevelopmentIdentity(dir: string): Promise<DevelopmentIdentityFiles> {
  await mkdir(dir, { recursive: true });
  const files = { certFile: join(dir, 'c2pa-dev-cert.pem'), keyFile: join(dir, 'c2pa-dev-key.pem'), caFile: join(dir, 'c2pa-dev-ca.pem') };
  const present = existsSync(files.certFile) && existsSync(files.keyFile) && existsSync(files.caFile);
  const loaded = present ? loadSigningIdentity(files, new Date(Date.now() + 7 * DAY_MS)) : undefined;
  if (loaded?.ok !== true || !(await readFile(files.caFile, 'utf8')).includes('BEGIN CERTIFICATE')) await createFiles(files);
  return files;
}
