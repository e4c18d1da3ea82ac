/**
 * Where a signing key lives, as the operator names it in `PLATFORM_SIGNER` (the mint key) and
 * `C2PA_SIGNER` (the content-credentials key): a `pkcs11:` URI (RFC 7512) for a key inside a
 * PKCS#11 token (an HSM, or SoftHSM for development), or an `awskms://[endpoint]/<key>` reference
 * (the form sigstore/cosign use) for an AWS KMS key. Neither carries key bytes: the services ask
 * the token or KMS for signatures and never see the private key.
 *
 * Parsed once at start; every problem names what is wrong, and no message echoes a secret: a
 * `pin-value`, the contents of a `pin-source` file, or a password in an `awskms://` endpoint.
 * Two layers keep them out. The parser never quotes text that could hold one: nothing of the
 * query component but the four attribute names it knows (an unescaped `&` in a PIN splits the
 * PIN into an "attribute"), no value it refuses (a `;` in place of `&` puts the PIN into
 * `module-path`, which must then hold no `;`, `&`, `=` or `?`), no `pin-` attribute outside the
 * query, no endpoint with a user or password. And every message about a reference, here and when
 * its key is opened (open-signing-key.ts), passes through `withoutSecrets`, which blanks whatever
 * the reference holds as a secret: the text after each `pin-value=` (up to the next attribute the
 * query knows), its pieces and decoded form, the PIN read from `pin-source`, the endpoint's user
 * information.
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
  /** What the reference's text holds as secrets (`secretsOf`), blanked from every message about it. */
  secrets: string[];
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
  /** What the reference's text holds as secrets (`secretsOf`): none in a valid one. */
  secrets: string[];
}

export type KeyReference = Pkcs11KeyReference | AwsKmsKeyReference;

export interface KeyReferenceError {
  code: 'INVALID_KEY_REFERENCE';
  message: string;
}

const invalid = (variable: string, message: string) =>
  fail<KeyReferenceError>({ code: 'INVALID_KEY_REFERENCE', message: `${variable}: ${message}` });

/** Secrets shorter than this are left to the parser's first layer (blanking them would mangle digits everywhere). */
const MIN_BLANKED_SECRET = 4;
const BLANKED = '[secret hidden]';

/** Names of the query attributes (RFC 7512's, as this parser knows them). */
const PKCS11_QUERY_ATTRIBUTES = new Set(['module-path', 'module-name', 'pin-value', 'pin-source']);

function decodeOrSame(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * What `reference` holds as secrets, found by text alone (the reference may be malformed): for
 * every `pin-value=`, the text after it up to the next `&` that starts an attribute the query
 * knows (a PIN with an unescaped `&` or `;` included), that text decoded, and its `&`/`;`
 * pieces; the user information of an `awskms://` endpoint and its password.
 */
export function secretsOf(reference: string): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    for (const candidate of [value, decodeOrSame(value)]) {
      if (candidate.length >= MIN_BLANKED_SECRET) found.add(candidate);
      for (const piece of candidate.split(/[&;]/)) if (piece.length >= MIN_BLANKED_SECRET) found.add(piece);
    }
  };
  const pinValue = /pin-value=/gi;
  for (let match = pinValue.exec(reference); match !== null; match = pinValue.exec(reference)) {
    const rest = reference.slice(match.index + match[0].length);
    const next = /&(module-path|module-name|pin-value|pin-source)=/i.exec(rest);
    add(next === null ? rest : rest.slice(0, next.index));
  }
  if (reference.startsWith('awskms://')) {
    const authority = reference.slice('awskms://'.length).split('/')[0] ?? '';
    const at = authority.lastIndexOf('@');
    if (at !== -1) {
      const userInfo = authority.slice(0, at);
      add(userInfo);
      const colon = userInfo.indexOf(':');
      if (colon !== -1) add(userInfo.slice(colon + 1));
    }
  }
  return [...found];
}

/** `message` with every one of `secrets` (at least 4 characters long) blanked, longest first. */
export function withoutSecrets(message: string, secrets: ReadonlyArray<string>): string {
  let result = message;
  for (const secret of [...secrets].filter((s) => s.length >= MIN_BLANKED_SECRET).sort((a, b) => b.length - a.length))
    result = result.split(secret).join(BLANKED);
  return result;
}

/** The secrets of a parsed reference: those of its text, and the PIN it resolved (pin-source's contents). */
export function secretsOfReference(reference: KeyReference): string[] {
  return reference.kind === 'pkcs11' ? [...reference.secrets, reference.pin] : reference.secrets;
}

/** Characters a value that is echoed, or that names a file or library, must not hold (control characters too). */
const hasSeparator = (value: string): boolean =>
  /[;&=?]/.test(value) || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
/** An attribute name that is safe to quote. */
const QUOTABLE_NAME = /^[a-z][a-z0-9-]{0,31}$/;

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

function parsePkcs11(variable: string, reference: string): Result<Pkcs11KeyReference, KeyReferenceError> {
  const body = reference.slice('pkcs11:'.length);
  const queryAt = body.indexOf('?');
  const pathPart = queryAt === -1 ? body : body.slice(0, queryAt);
  const queryPart = queryAt === -1 ? '' : body.slice(queryAt + 1);
  // The PIN goes in the query; anywhere else it would be read as a label (and quoted back).
  if (/pin-(value|source)/i.test(decodeOrSame(pathPart)))
    return invalid(
      variable,
      "the PIN (pin-value or pin-source) belongs in the query, after '?', with '&' between attributes: pkcs11:token=…;object=…?module-path=…&pin-source=…",
    );
  const path = new Map<string, string>();
  const query = new Map<string, string>();
  for (const attribute of pathPart.split(';')) {
    if (attribute === '') continue;
    const eq = attribute.indexOf('=');
    const name = eq === -1 ? attribute : attribute.slice(0, eq);
    if (!PKCS11_PATH_ATTRIBUTES.has(name))
      return invalid(
        variable,
        `unknown pkcs11: URI path attribute${QUOTABLE_NAME.test(name) ? ` "${name}"` : ''} (RFC 7512: ${[...PKCS11_PATH_ATTRIBUTES].join(', ')})`,
      );
    if (path.has(name)) return invalid(variable, `the pkcs11: URI names "${name}" twice`);
    path.set(name, eq === -1 ? '' : attribute.slice(eq + 1));
  }
  for (const attribute of queryPart.split('&')) {
    if (attribute === '') continue;
    const eq = attribute.indexOf('=');
    const name = eq === -1 ? attribute : attribute.slice(0, eq);
    // Never quoted: after an unescaped '&' in a PIN, the rest of the PIN reads as a name.
    if (!PKCS11_QUERY_ATTRIBUTES.has(name))
      return invalid(
        variable,
        "the pkcs11: URI query has an attribute other than module-path, module-name, pin-value and pin-source (RFC 7512); a '&' inside a PIN must be written %26",
      );
    if (query.has(name)) return invalid(variable, `the pkcs11: URI names "${name}" twice`);
    query.set(name, eq === -1 ? '' : attribute.slice(eq + 1));
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
  // A ';' in place of '&' makes the rest of the query (the PIN, say) part of the path: refused, unquoted.
  if (!decoded.modulePath.startsWith('/') || hasSeparator(decoded.modulePath))
    return invalid(
      variable,
      "module-path must be the absolute path of the PKCS#11 library, with no ';', '&', '=' or '?' in it (the query's attributes are separated by '&')",
    );
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
    if (source === '' || hasSeparator(source.replace(/^file:\/\/[^/]*/, '')))
      return invalid(
        variable,
        "pin-source must be the path (or file: URI) of the file that holds the PIN, with no ';', '&', '=' or '?' in it (the query's attributes are separated by '&')",
      );
    let file: string;
    try {
      file = source.startsWith('file:') ? fileURLToPath(source) : source;
    } catch {
      return invalid(variable, `pin-source ${source} is not a file path or file: URI`);
    }
    let contents: Buffer;
    try {
      contents = readFileSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return invalid(variable, `cannot read pin-source ${file}${code === undefined ? '' : ` (${code})`}`);
    }
    // The PIN file holds the PIN and a line end at most; its contents are never quoted.
    pin = contents.toString('utf8').replace(/\r?\n$/, '');
    if (contents.length > MAX_PIN_FILE_BYTES || /[\r\n]/.test(pin))
      return invalid(
        variable,
        `pin-source ${file} holds more than one line of at most ${MAX_PIN_FILE_BYTES} bytes: it must hold the PIN alone`,
      );
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
    secrets: secretsOf(reference),
  });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A PIN file longer than this is not a PIN file. */
const MAX_PIN_FILE_BYTES = 256;

function parseAwsKms(variable: string, reference: string): Result<AwsKmsKeyReference, KeyReferenceError> {
  const body = reference.slice('awskms://'.length);
  const slash = body.indexOf('/');
  if (slash === -1)
    return invalid(variable, 'write awskms://[endpoint]/<key id, alias/<name> or ARN> (awskms:///alias/name for the regional endpoint)');
  const host = body.slice(0, slash);
  const keyId = body.slice(slash + 1);
  if (host.includes('@'))
    return invalid(
      variable,
      "the awskms:// endpoint takes no user name or password: KMS credentials come from the AWS SDK's chain (AWS_* variables, an instance role)",
    );
  if (keyId === '') return invalid(variable, 'the awskms:// reference names no key');
  const arn = /^arn:aws[a-z-]*:kms:([a-z0-9-]+):\d{12}:(key|alias)\/.+$/.exec(keyId);
  const isKeyId =
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(keyId) || /^mrk-[0-9a-f]{32}$/.test(keyId);
  if (arn === null && !isKeyId && !/^alias\/[A-Za-z0-9/_-]+$/.test(keyId))
    return invalid(variable, 'the part after the endpoint is not a KMS key id, alias/<name> or key ARN');
  if (host !== '' && !/^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])(:\d{1,5})?$/.test(host))
    return invalid(variable, 'the endpoint is not host[:port] (awskms://host[:port]/<key>, or awskms:///<key> for the regional endpoint)');
  const hostname = host.replace(/:\d+$/, '');
  const endpoint = host === '' ? undefined : `${LOOPBACK_HOSTS.has(hostname) ? 'http' : 'https'}://${host}`;
  return ok({
    kind: 'awskms',
    ...(endpoint === undefined ? {} : { endpoint }),
    keyId,
    ...(arn?.[1] === undefined ? {} : { region: arn[1] }),
    display: `awskms://${host}/${keyId}`,
    secrets: [],
  });
}

/** Parses `reference`, the value of `variable` (named in every error, which never holds a secret of it). */
export function parseKeyReference(variable: string, reference: string): Result<KeyReference, KeyReferenceError> {
  const parsed = reference.startsWith('pkcs11:')
    ? parsePkcs11(variable, reference)
    : reference.startsWith('awskms://')
      ? parseAwsKms(variable, reference)
      : invalid(variable, 'must be a pkcs11: URI (RFC 7512) or an awskms://[endpoint]/<key> reference');
  if (parsed.ok) return parsed;
  return invalid(variable, withoutSecrets(parsed.error.message.slice(variable.length + 2), secretsOf(reference)));
}
