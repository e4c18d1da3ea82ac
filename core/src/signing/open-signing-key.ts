/**
 * Opens the key a reference names (`PLATFORM_SIGNER`, `C2PA_SIGNER`) on the backend its scheme
 * chooses: `pkcs11:` a PKCS#11 token, `awskms://` AWS KMS. Every error comes back with the
 * reference's secrets blanked (key-reference.ts, `withoutSecrets`), whatever the backend or its
 * library put in the message.
 */
import type { Result } from '../result.ts';
import { openAwsKmsKey } from './aws-kms.ts';
import { parseKeyReference, secretsOfReference, withoutSecrets } from './key-reference.ts';
import type { KeyReference } from './key-reference.ts';
import { openPkcs11Key } from './pkcs11.ts';
import type { SigningCurve, SigningKey, SigningKeyError } from './signing-key.ts';
import { signingKeyInvalid } from './signing-key.ts';

export async function openSigningKey(reference: KeyReference, curve: SigningCurve): Promise<Result<SigningKey, SigningKeyError>> {
  const opened = reference.kind === 'pkcs11' ? await openPkcs11Key(reference, { curve }) : await openAwsKmsKey(reference, { curve });
  if (!opened.ok)
    return { ok: false, error: { ...opened.error, message: withoutSecrets(opened.error.message, secretsOfReference(reference)) } };
  const key = opened.value;
  const secrets = secretsOfReference(reference);
  return {
    ok: true,
    value: {
      backend: key.backend,
      curve: key.curve,
      publicKey: key.publicKey,
      display: key.display,
      close: () => key.close(),
      // A signing failure's message names the token or KMS: blanked the same way.
      signDigest: async (digest) => {
        const signed = await key.signDigest(digest);
        return signed.ok ? signed : { ok: false, error: { ...signed.error, message: withoutSecrets(signed.error.message, secrets) } };
      },
    },
  };
}

/** Parses `value` (the variable `variable`) and opens its key. */
export async function openSigningKeyFrom(
  variable: string,
  value: string,
  curve: SigningCurve,
): Promise<Result<SigningKey, SigningKeyError>> {
  const parsed = parseKeyReference(variable, value);
  if (!parsed.ok) return signingKeyInvalid(parsed.error.message);
  const opened = await openSigningKey(parsed.value, curve);
  return opened.ok ? opened : { ok: false, error: { ...opened.error, message: `${variable}: ${opened.error.message}` } };
}
