/**
 * A key in AWS KMS (`ECC_SECG_P256K1` for the mint key, `ECC_NIST_P256` for C2PA), through
 * `@aws-sdk/client-kms`. The key never leaves KMS: `GetPublicKey` gives its DER
 * SubjectPublicKeyInfo once at start, and each signature is a `Sign` with `MessageType: DIGEST`
 * and `ECDSA_SHA_256` over the 32-byte digest, answered as DER `SEQUENCE { r, s }`.
 *
 * Credentials and region come from the SDK's default chain (an instance role, AWS_* variables);
 * a region in the key's ARN wins. Deadlines: 2 s to connect, 4 s per attempt, 2 attempts, all
 * inside the signing deadline.
 */
import { createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import type { Result } from '../result.ts';
import { ok } from '../result.ts';
import { derToRawSignature } from './ecdsa.ts';
import type { AwsKmsKeyReference } from './key-reference.ts';
import type { SigningCurve, SigningKey, SigningKeyError } from './signing-key.ts';
import { SIGNING_DEADLINE_MS, signerUnavailable, signingKeyInvalid, withSigningDeadline } from './signing-key.ts';

export const KMS_DEADLINES = { connectMs: 2000, attemptMs: 4000, attempts: 2 } as const;

/** KMS's key spec for each curve. */
const KEY_SPEC: Record<SigningCurve, string> = { secp256k1: 'ECC_SECG_P256K1', 'P-256': 'ECC_NIST_P256' };
/** node:crypto's name of each curve in a JWK. */
const JWK_CURVE: Record<SigningCurve, string> = { secp256k1: 'secp256k1', 'P-256': 'P-256' };

function describe(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  return typeof name === 'string' && name !== 'Error' ? `${name}: ${message}` : message;
}

/** The uncompressed point of a DER SubjectPublicKeyInfo on `curve`, or undefined. */
function pointFromSpki(der: Uint8Array, curve: SigningCurve): Uint8Array | undefined {
  try {
    const jwk = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }).export({ format: 'jwk' });
    if (jwk.kty !== 'EC' || jwk.crv !== JWK_CURVE[curve] || jwk.x === undefined || jwk.y === undefined) return undefined;
    return Uint8Array.from([4, ...Buffer.from(jwk.x, 'base64url'), ...Buffer.from(jwk.y, 'base64url')]);
  } catch {
    return undefined;
  }
}

export interface AwsKmsKeyOptions {
  curve: SigningCurve;
}

/** Reads the key's public half and checks its spec; every later signature is one `Sign` call. */
export async function openAwsKmsKey(
  reference: AwsKmsKeyReference,
  options: AwsKmsKeyOptions,
): Promise<Result<SigningKey, SigningKeyError>> {
  const client = new KMSClient({
    maxAttempts: KMS_DEADLINES.attempts,
    requestHandler: { connectionTimeout: KMS_DEADLINES.connectMs, requestTimeout: KMS_DEADLINES.attemptMs, throwOnRequestTimeout: true },
    ...(reference.endpoint === undefined ? {} : { endpoint: reference.endpoint }),
    ...(reference.region === undefined ? {} : { region: reference.region }),
  });
  let publicKey: Uint8Array | undefined;
  try {
    const answer = await client.send(new GetPublicKeyCommand({ KeyId: reference.keyId }), {
      abortSignal: AbortSignal.timeout(SIGNING_DEADLINE_MS * 2),
    });
    if (answer.KeySpec !== KEY_SPEC[options.curve] || answer.KeyUsage !== 'SIGN_VERIFY') {
      client.destroy();
      return signingKeyInvalid(
        `${reference.display} is a ${answer.KeySpec ?? '?'} key for ${answer.KeyUsage ?? '?'}; it must be ${KEY_SPEC[options.curve]} for SIGN_VERIFY`,
      );
    }
    publicKey = answer.PublicKey === undefined ? undefined : pointFromSpki(answer.PublicKey, options.curve);
  } catch (error) {
    client.destroy();
    return signingKeyInvalid(`KMS did not give the public key of ${reference.display}: ${describe(error)}`);
  }
  if (publicKey === undefined) {
    client.destroy();
    return signingKeyInvalid(`KMS answered a public key of ${reference.display} that is not a ${options.curve} SubjectPublicKeyInfo`);
  }

  const signOnce = async (digest: Uint8Array): Promise<Result<Uint8Array, SigningKeyError>> => {
    try {
      const answer = await client.send(
        new SignCommand({ KeyId: reference.keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }),
        { abortSignal: AbortSignal.timeout(SIGNING_DEADLINE_MS) },
      );
      const raw = answer.Signature === undefined ? undefined : derToRawSignature(answer.Signature, options.curve);
      if (raw === undefined) return signerUnavailable(`KMS answered ${reference.display}'s Sign without a DER ECDSA signature`);
      return ok(raw);
    } catch (error) {
      return signerUnavailable(`KMS did not sign with ${reference.display}: ${describe(error)}`);
    }
  };

  return ok({
    backend: 'awskms',
    curve: options.curve,
    publicKey,
    display: reference.display,
    signDigest: (digest) => withSigningDeadline(signOnce(digest), `KMS (${reference.display})`),
    close() {
      client.destroy();
      return Promise.resolve();
    },
  });
}
