/**
 * Where a signing key lives, as the operator names it in `PLATFORM_SIGNER` (the mint key) and
 * `C2PA_SIGNER` (the content-credentials key): a `pkcs11:` URI (RFC 7512) for a key inside a
 * PKCS#11 token (an HSM, or SoftHSM for development), or an `awskms://[endpoint]/<key>` reference
 * (the form sigstore/cosign use) for an AWS KMS key. Neither carries key bytes: the services ask
 * the token or KMS for signatures and never see the private key.
 *
 * Parsed once at start; every problem names what is wrong, and no message echoes a PIN.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Result } from '../result.ts';
import { fail, ok } from '../result.ts';

export interface Pkcs11KeyReference {
  kind: 'pkcs11';
  /** Absolute path of the PKCS#11 module (`module-path`), e.g. /usr/lib/softhsm/libsofthsm2.so. */
  modulePath: string;
  /** The token's label (`token`). */
  token: string;
  /** The key's label (`object`); with `id` both must match. */
  object?: string;
  /** The key's CKA_ID (`id`, percent-encoded bytes). */
  id?: Uint8Array;
  /** The user PIN: `pin-value`, or the contents of the `pin-source` file read at parse time. */
  pin: string;
  /** The reference without the PIN, for logs, /health/ready and metrics. */
  display: string;
}

export interface AwsKmsKeyReference {
  kind: 'awskms';
  /** `https://host[:port]` (or `http://` for a loopback host); undefined: the SDK's regional endpoint. */
  endpoint?: string;
  /** Key id, `alias/<name>` or ARN, as KMS's `KeyId` takes it. */
  keyId: string;
  /** Region from the ARN where it names one; else the SDK's own (AWS_REGION). */
  region?: string;
  display: string;
}

export type KeyReference = Pkcs11KeyReference | AwsKmsKeyReference;

export interface KeyReferenceError {
  code: 'INVALID_KEY_REFERENCE';
  message: string;
}

const invalid = (variable: string, message: string) =>
  fail<KeyReferenceError>({ code: 'INVALID_KEY_REFERENCE', message: `${variable}: ${message}` });

/** RFC 7512 attribute values are percent-encoded; a bad escape is an error, not a literal. */
function decode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function decodeBytes(value: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '%') {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(value.charCodeAt(i) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

const PKCS11_PATH_ATTRIBUTES = new Set(['token', 'object', 'id', 'type', 'manufacturer', 'model', 'serial', 'library-manufacturer']);
const PKCS11_QUERY_ATTRIBUTES = new Set(['module-path', 'module-name', 'pin-value', 'pin-source']);

function parsePkcs11(variable: string, reference: string): Result<Pkcs11KeyReference, KeyReferenceError> {
  const body = reference.slice('pkcs11:'.length);
  const queryAt = body.indexOf('?');
  const pathPart = queryAt === -1 ? body : body.slice(0, queryAt);
  const queryPart = queryAt === -1 ? '' : body.slice(queryAt + 1);
  const path = new Map<string, string>();
  const query = new Map<string, string>();
  for (const [part, separator, known, into] of [
    [pathPart, ';', PKCS11_PATH_ATTRIBUTES, path],
    [queryPart, '&', PKCS11_QUERY_ATTRIBUTES, query],
  ] as const) {
    for (const attribute of part.split(separator)) {
      if (attribute === '') continue;
      const eq = attribute.indexOf('=');
      const name = eq === -1 ? attribute : attribute.slice(0, eq);
      if (!known.has(name)) return invalid(variable, `unknown pkcs11: URI attribute "${name}" (RFC 7512)`);
      if (into.has(name)) return invalid(variable, `the pkcs11: URI names "${name}" twice`);
      into.set(name, eq === -1 ? '' : attribute.slice(eq + 1));
    }
  }
  const type = path.get('type');
  if (type !== undefined && type !== 'private')
    return invalid(variable, `type=${type}: the reference must name the private key (type=private)`);
  const modulePath = query.get('module-path');
  if (modulePath === undefined)
    return invalid(variable, 'the pkcs11: URI needs module-path=<path of the PKCS#11 library> (e.g. /usr/lib/softhsm/libsofthsm2.so)');
  const token = path.get('token');
  if (token === undefined) return invalid(variable, 'the pkcs11: URI needs token=<token label>');
  const object = path.get('object');
  const idText = path.get('id');
  if (object === undefined && idText === undefined) return invalid(variable, 'the pkcs11: URI needs object=<key label> or id=<key id>');
  const decoded = { modulePath: decode(modulePath), token: decode(token), object: object === undefined ? '' : decode(object) };
  if (decoded.modulePath === undefined || decoded.token === undefined || decoded.object === undefined)
    return invalid(variable, 'the pkcs11: URI has a bad percent-escape');
  const id = idText === undefined ? undefined : decodeBytes(idText);
  if (idText !== undefined && id === undefined) return invalid(variable, 'the pkcs11: URI has a bad percent-escape in id');

  const pinValue = query.get('pin-value');
  const pinSource = query.get('pin-source');
  if (pinValue !== undefined && pinSource !== undefined) return invalid(variable, 'give the PIN as pin-value or pin-source, not both');
  let pin: string;
  if (pinValue !== undefined) {
    const value = decode(pinValue);
    if (value === undefined) return invalid(variable, 'the pkcs11: URI has a bad percent-escape in pin-value');
    pin = value;
  } else if (pinSource !== undefined) {
    const source = decode(pinSource);
    if (source === undefined) return invalid(variable, 'the pkcs11: URI has a bad percent-escape in pin-source');
    let file: string;
    try {
      file = source.startsWith('file:') ? fileURLToPath(source) : source;
    } catch {
      return invalid(variable, `pin-source ${source} is not a file path or file: URI`);
    }
    try {
      // The PIN file holds the PIN and a line end at most.
      pin = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      return invalid(variable, `cannot read pin-source ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  } else {
    return invalid(variable, 'the pkcs11: URI needs the user PIN as pin-source=<file> (or pin-value=<PIN>)');
  }

  const shown = [
    `token=${token}`,
    ...(object === undefined ? [] : [`object=${object}`]),
    ...(idText === undefined ? [] : [`id=${idText}`]),
  ];
  return ok({
    kind: 'pkcs11',
    modulePath: decoded.modulePath,
    token: decoded.token,
    ...(object === undefined ? {} : { object: decoded.object }),
    ...(id === undefined ? {} : { id }),
    pin,
    display: `pkcs11:${shown.join(';')}`,
  });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function parseAwsKms(variable: string, reference: string): Result<AwsKmsKeyReference, KeyReferenceError> {
  const body = reference.slice('awskms://'.length);
  const slash = body.indexOf('/');
  if (slash === -1)
    return invalid(variable, 'write awskms://[endpoint]/<key id, alias/<name> or ARN> (awskms:///alias/name for the regional endpoint)');
  const host = body.slice(0, slash);
  const keyId = body.slice(slash + 1);
  if (keyId === '') return invalid(variable, 'the awskms:// reference names no key');
  const arn = /^arn:aws[a-z-]*:kms:([a-z0-9-]+):\d{12}:(key|alias)\/.+$/.exec(keyId);
  const isKeyId =
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(keyId) || /^mrk-[0-9a-f]{32}$/.test(keyId);
  if (arn === null && !isKeyId && !/^alias\/[A-Za-z0-9/_-]+$/.test(keyId))
    return invalid(variable, `"${keyId}" is not a KMS key id, alias/<name> or key ARN`);
  if (host !== '' && !/^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])(:\d{1,5})?$/.test(host))
    return invalid(variable, `"${host}" is not a host[:port] endpoint`);
  const hostname = host.replace(/:\d+$/, '');
  const endpoint = host === '' ? undefined : `${LOOPBACK_HOSTS.has(hostname) ? 'http' : 'https'}://${host}`;
  return ok({
    kind: 'awskms',
    ...(endpoint === undefined ? {} : { endpoint }),
    keyId,
    ...(arn?.[1] === undefined ? {} : { region: arn[1] }),
    display: `awskms://${host}/${keyId}`,
  });
}

/** Parses `reference`, the value of `variable` (named in every error). */
export function parseKeyReference(variable: string, reference: string): Result<KeyReference, KeyReferenceError> {
  if (reference.startsWith('pkcs11:')) return parsePkcs11(variable, reference);
  if (reference.startsWith('awskms://')) return parseAwsKms(variable, reference);
  return invalid(variable, 'must be a pkcs11: URI (RFC 7512) or an awskms://[endpoint]/<key> reference');
}
