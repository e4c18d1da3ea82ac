/**
 * A key inside a PKCS#11 token (an HSM such as YubiHSM, Luna, CloudHSM; SoftHSM in development),
 * through `pkcs11js`. The private key never leaves the token: the process holds only object
 * handles and asks the token for CKM_ECDSA signatures over digests (raw `r || s`).
 *
 * Sessions are pooled: one login (PKCS#11 login state belongs to the application, shared by all
 * its sessions on the token), then a session per signature in flight, up to `maxSessions`;
 * further signatures wait for a free session within the signing deadline. A session the token
 * fails is dropped and replaced on demand (logging in again if it was the last).
 */
import { createRequire } from 'node:module';
import type * as Pkcs11Types from 'pkcs11js';
import type { Result } from '../result.ts';
import { ok } from '../result.ts';
import type { Pkcs11KeyReference } from './key-reference.ts';
import type { SigningCurve, SigningKey, SigningKeyError } from './signing-key.ts';
import { signerUnavailable, signingKeyInvalid, withSigningDeadline } from './signing-key.ts';

type Pkcs11Module = typeof Pkcs11Types;
type Handle = Pkcs11Types.Handle;

/** DER of each curve's OID, as CKA_EC_PARAMS holds it (namedCurve). */
export const EC_PARAMS: Record<SigningCurve, string> = {
  secp256k1: '06052b8104000a',
  'P-256': '06082a8648ce3d030107',
};

/** Sessions one key keeps at most: signatures in flight at once. */
export const DEFAULT_MAX_SESSIONS = 8;

export interface Pkcs11KeyOptions {
  curve: SigningCurve;
  maxSessions?: number;
}

/**
 * One loaded and initialised module per library path, shared by every key that uses it: a
 * PKCS#11 library is process-wide state (C_Initialize once, C_Finalize once), so two keys in one
 * process (the mint key and a rotation's next key) must not finalise it under each other.
 */
const loadedModules = new Map<string, LoadedModule>();

interface LoadedModule {
  module: Pkcs11Types.PKCS11;
  users: number;
  /**
   * The PIN each token (by slot) was logged in with: a second key on a logged-in token gets
   * CKR_USER_ALREADY_LOGGED_IN whatever PIN it gives, so its PIN is compared with this one.
   */
  pins: Map<string, string>;
}

function pkcs11js(): Pkcs11Module {
  return createRequire(import.meta.url)('pkcs11js') as Pkcs11Module;
}

function pkcs11Code(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function acquireModule(lib: Pkcs11Module, modulePath: string): Result<LoadedModule, SigningKeyError> {
  const loaded = loadedModules.get(modulePath);
  if (loaded !== undefined) {
    loaded.users++;
    return ok(loaded);
  }
  const module = new lib.PKCS11();
  try {
    module.load(modulePath);
  } catch (error) {
    return signingKeyInvalid(`cannot load the PKCS#11 module ${modulePath}: ${describe(error)}`);
  }
  try {
    // Signatures run on libuv's threads at once (C_SignAsync): the module must lock (without
    // CKF_OS_LOCKING_OK it may assume one thread and corrupt its state).
    module.C_Initialize({ flags: lib.CKF_OS_LOCKING_OK });
  } catch (error) {
    if (pkcs11Code(error) !== lib.CKR_CRYPTOKI_ALREADY_INITIALIZED) {
      module.close();
      return signingKeyInvalid(`the PKCS#11 module ${modulePath} failed to initialise: ${describe(error)}`);
    }
  }
  const entry = { module, users: 1, pins: new Map<string, string>() };
  loadedModules.set(modulePath, entry);
  return ok(entry);
}

function releaseModule(modulePath: string): void {
  const loaded = loadedModules.get(modulePath);
  if (loaded === undefined || --loaded.users > 0) return;
  loadedModules.delete(modulePath);
  try {
    loaded.module.C_Finalize();
  } finally {
    loaded.module.close();
  }
}

/** A CK_ULONG attribute (4 or 8 bytes, the platform's order; values here are small). */
function ulong(value: Buffer | undefined): number | undefined {
  if (value === undefined || value.length === 0) return undefined;
  return value.length >= 8 ? Number(value.readBigUInt64LE(0)) : value.readUInt32LE(0);
}

function findObjects(module: Pkcs11Types.PKCS11, session: Handle, template: Pkcs11Types.Template): Handle[] {
  module.C_FindObjectsInit(session, template);
  try {
    return module.C_FindObjects(session, 2);
  } finally {
    module.C_FindObjectsFinal(session);
  }
}

/** CKA_EC_POINT is a DER OCTET STRING around the point (some modules return the bare point). */
function unwrapEcPoint(value: Buffer): Uint8Array | undefined {
  if (value.length === 65 && value[0] === 0x04) return Uint8Array.from(value);
  if (value.length === 67 && value[0] === 0x04 && value[1] === 0x41 && value[2] === 0x04) return Uint8Array.from(value.subarray(2));
  return undefined;
}

/** Opens the key `reference` names and checks it is an EC key on `curve` with its public key beside it. */
export async function openPkcs11Key(
  reference: Pkcs11KeyReference,
  options: Pkcs11KeyOptions,
): Promise<Result<SigningKey, SigningKeyError>> {
  let lib: Pkcs11Module;
  try {
    lib = pkcs11js();
  } catch (error) {
    return signingKeyInvalid(`the pkcs11js binding does not load (npm install builds it with node-gyp): ${describe(error)}`);
  }
  const acquired = acquireModule(lib, reference.modulePath);
  if (!acquired.ok) return acquired;
  const opened = openOnModule(lib, acquired.value, reference, options);
  if (!opened.ok) releaseModule(reference.modulePath);
  return opened;
}

function openOnModule(
  lib: Pkcs11Module,
  loaded: LoadedModule,
  reference: Pkcs11KeyReference,
  options: Pkcs11KeyOptions,
): Result<SigningKey, SigningKeyError> {
  const module = loaded.module;
  const where = `${reference.display} (module ${reference.modulePath})`;
  const labels: string[] = [];
  let slot: Handle | undefined;
  for (const candidate of module.C_GetSlotList(true)) {
    const label = module.C_GetTokenInfo(candidate).label.trimEnd();
    labels.push(label);
    if (label === reference.token) slot = candidate;
  }
  if (slot === undefined)
    return signingKeyInvalid(
      `no token labelled "${reference.token}" in ${where}; the module has ${labels.length === 0 ? 'no token' : labels.map((l) => `"${l}"`).join(', ')}`,
    );
  const tokenSlot = slot;
  const slotKey = slot.toString('hex');
  const wrongPin = () => signingKeyInvalid(`the PIN for token "${reference.token}" is wrong (${where})`);

  const idle: Handle[] = [];
  let open = 0;
  let closed = false;
  const waiting: Array<(session: Handle | undefined) => void> = [];

  /** A new session, logging in when it is the application's only one (login state goes with the last session). */
  const openSession = (): Result<Handle, SigningKeyError> => {
    let session: Handle;
    try {
      session = module.C_OpenSession(tokenSlot, lib.CKF_SERIAL_SESSION);
    } catch (error) {
      return signerUnavailable(`the token of ${where} did not open a session: ${describe(error)}`);
    }
    if (open === 0) {
      try {
        module.C_Login(session, lib.CKU_USER, reference.pin);
        loaded.pins.set(slotKey, reference.pin);
      } catch (error) {
        const code = pkcs11Code(error);
        if (code === lib.CKR_USER_ALREADY_LOGGED_IN && loaded.pins.get(slotKey) !== reference.pin) {
          module.C_CloseSession(session);
          return wrongPin();
        }
        if (code !== lib.CKR_USER_ALREADY_LOGGED_IN) {
          module.C_CloseSession(session);
          if (code === lib.CKR_PIN_INCORRECT) return wrongPin();
          if (code === lib.CKR_PIN_LOCKED) return signingKeyInvalid(`the PIN of token "${reference.token}" is locked (${where})`);
          return signingKeyInvalid(`login to token "${reference.token}" failed: ${describe(error)}`);
        }
      }
    }
    open++;
    return ok(session);
  };

  const first = openSession();
  if (!first.ok) return first;
  const session = first.value;
  idle.push(session);

  const keyTemplate = (cls: number): Pkcs11Types.Template => [
    { type: lib.CKA_CLASS, value: cls },
    ...(reference.object === undefined ? [] : [{ type: lib.CKA_LABEL, value: reference.object }]),
    ...(reference.id === undefined ? [] : [{ type: lib.CKA_ID, value: Buffer.from(reference.id) }]),
  ];
  const closeAll = () => {
    for (const s of idle.splice(0)) module.C_CloseSession(s);
    open = 0;
  };
  const privateKeys = findObjects(module, session, keyTemplate(lib.CKO_PRIVATE_KEY));
  const privateKey = privateKeys[0];
  if (privateKey === undefined || privateKeys.length > 1) {
    closeAll();
    return signingKeyInvalid(
      privateKey === undefined
        ? `no private key ${reference.display} in token "${reference.token}" (${where})`
        : `more than one private key matches ${reference.display}; name it by object and id`,
    );
  }
  const [keyType, canSign, ecParams] = module.C_GetAttributeValue(session, privateKey, [
    { type: lib.CKA_KEY_TYPE },
    { type: lib.CKA_SIGN },
    { type: lib.CKA_EC_PARAMS },
  ]);
  if (ulong(keyType?.value) !== lib.CKK_EC || canSign?.value[0] !== 1) {
    closeAll();
    return signingKeyInvalid(`${reference.display} is not an EC private key allowed to sign (CKA_SIGN)`);
  }
  const params = ecParams?.value.toString('hex');
  if (params !== EC_PARAMS[options.curve]) {
    closeAll();
    return signingKeyInvalid(
      `${reference.display} is an EC key on curve ${params ?? '?'} (CKA_EC_PARAMS), not ${options.curve} (${EC_PARAMS[options.curve]})`,
    );
  }
  const publicKeys = findObjects(module, session, keyTemplate(lib.CKO_PUBLIC_KEY));
  const publicHandle = publicKeys[0];
  const point =
    publicHandle === undefined
      ? undefined
      : unwrapEcPoint(module.C_GetAttributeValue(session, publicHandle, [{ type: lib.CKA_EC_POINT }])[0]?.value ?? Buffer.alloc(0));
  if (point === undefined || publicKeys.length > 1) {
    closeAll();
    return signingKeyInvalid(
      `no single public key object beside ${reference.display} in token "${reference.token}" with an uncompressed CKA_EC_POINT (needed to derive the key's address without the private key)`,
    );
  }

  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const acquire = (): Promise<Result<Handle, SigningKeyError>> => {
    if (closed) return Promise.resolve(signerUnavailable(`${where} is closed`));
    const free = idle.pop();
    if (free !== undefined) return Promise.resolve(ok(free));
    if (open < maxSessions) return Promise.resolve(openSession());
    return new Promise((resolve) => {
      waiting.push((handed) => resolve(handed === undefined ? signerUnavailable(`${where} is closed`) : ok(handed)));
    });
  };
  const release = (handle: Handle, broken: boolean) => {
    if (broken || closed) {
      open--;
      try {
        module.C_CloseSession(handle);
      } catch {
        // The token already dropped it.
      }
      if (!closed && waiting.length > 0) {
        const opened = openSession();
        if (opened.ok) waiting.shift()?.(opened.value);
      }
      return;
    }
    const next = waiting.shift();
    if (next !== undefined) next(handle);
    else idle.push(handle);
  };

  const signOnce = async (digest: Uint8Array): Promise<Result<Uint8Array, SigningKeyError>> => {
    const acquiredSession = await acquire();
    if (!acquiredSession.ok) return acquiredSession;
    const handle = acquiredSession.value;
    try {
      module.C_SignInit(handle, { mechanism: lib.CKM_ECDSA }, privateKey);
      const signature = await module.C_SignAsync(handle, Buffer.from(digest), Buffer.alloc(72));
      release(handle, false);
      if (signature.length !== 64) return signerUnavailable(`${where} returned a ${signature.length}-byte signature, not raw r || s`);
      return ok(Uint8Array.from(signature));
    } catch (error) {
      release(handle, true);
      return signerUnavailable(`${where} failed to sign: ${describe(error)}`);
    }
  };

  return ok({
    backend: 'pkcs11',
    curve: options.curve,
    publicKey: point,
    display: reference.display,
    signDigest: (digest) => withSigningDeadline(signOnce(digest), `the PKCS#11 token of ${reference.display}`),
    async close() {
      if (closed) return;
      closed = true;
      for (const next of waiting.splice(0)) next(undefined);
      try {
        closeAll();
      } finally {
        releaseModule(reference.modulePath);
      }
    },
  });
}
