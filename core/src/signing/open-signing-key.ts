/**
 * Opens the key a reference names (`PLATFORM_SIGNER`, `C2PA_SIGNER`) on the backend its scheme
 * chooses: `pkcs11:` a PKCS#11 token, `awskms://` AWS KMS.
 */
import type { Result } from '../result.ts';
import { openAwsKmsKey } from './aws-kms.ts';
import { parseKeyReference } from './key-reference.ts';
import type { KeyReference } from './key-reference.ts';
import { openPkcs11Key } from './pkcs11.ts';
import type { SigningCurve, SigningKey, SigningKeyError } from './signing-key.ts';
import { signingKeyInvalid } from './signing-key.ts';

export function openSigningKey(reference: KeyReference, curve: SigningCurve): Promise<Result<SigningKey, SigningKeyError>> {
  return reference.kind === 'pkcs11' ? openPkcs11Key(reference, { curve }) : openAwsKmsKey(reference, { curve });
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
