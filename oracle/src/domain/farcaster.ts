import { createAppClient } from '@farcaster/auth-client';
import { createClient as createQuickAuthClient } from '@farcaster/quick-auth';
import { createPublicClient, encodeAbiParameters, getAddress, parseAbi } from 'viem';
import type { Address, Hex } from 'viem';
import { optimism } from 'viem/chains';
import { rpcTransport } from '../chain/rpc-transport.ts';
import { fail, ok } from './errors.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';

/** Returns the fid registered to `address`, or 0n when it has none. */
export type FidVerifier = (address: Address) => Promise<bigint>;

/** Farcaster IdRegistry on OP Mainnet (the canonical fid registry). */
export const FARCASTER_ID_REGISTRY: Address = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b';
/** Farcaster KeyRegistry on OP Mainnet (signers and auth addresses of each fid). */
export const FARCASTER_KEY_REGISTRY: Address = '0x00000000Fc1237824fb747aBDE0FF18990E59b7e';
/** Farcaster's Quick Auth server, the issuer of Mini App session tokens. */
export const FARCASTER_QUICK_AUTH_ORIGIN = 'https://auth.farcaster.xyz';
/** Farcaster's AuthKit relay: Sign In With Farcaster channels between a web page and the user's Farcaster client. */
export const FARCASTER_RELAY_URL = 'https://relay.farcaster.xyz';

const ID_REGISTRY_ABI = parseAbi(['function idOf(address owner) view returns (uint256)']);
const KEY_REGISTRY_ABI = parseAbi([
  'struct KeyData { uint8 state; uint32 keyType; }',
  'function keyDataOf(uint256 fid, bytes key) view returns (KeyData)',
]);
/** KeyRegistry's key type of auth addresses, and the state of a key that was added and not removed. */
const AUTH_ADDRESS_KEY_TYPE = 2;
const KEY_ADDED = 1;

type OpMainnetClient = ReturnType<typeof opMainnet>;
const opMainnet = (rpcUrl: string) => createPublicClient({ chain: optimism, transport: rpcTransport(rpcUrl) });

const idOf =
  (client: OpMainnetClient): FidVerifier =>
  (address) =>
    client.readContract({ address: FARCASTER_ID_REGISTRY, abi: ID_REGISTRY_ABI, functionName: 'idOf', args: [address] });

/** Reads `IdRegistry.idOf(address)` through the Optimism RPC at `rpcUrl`. */
export function createFarcasterFidVerifier(rpcUrl: string): FidVerifier {
  return idOf(opMainnet(rpcUrl));
}

/** A Sign In With Farcaster message whose signature and signer the registries confirmed. */
export interface VerifiedFarcasterMessage {
  fid: bigint;
  /** The address that signed: the fid's custody address or one of its auth addresses. */
  signer: string;
  method: 'custody' | 'authAddress';
}

/** Why a Farcaster credential was refused: `unavailable` when OP Mainnet or the issuer could not be read. */
export type FarcasterRefusal = DomainError<'refused' | 'unavailable'>;

export interface SiwfCheck {
  message: string;
  signature: Hex;
  nonce: string;
  domain: string;
}

/** Verifies SIWF (FIP-11) messages; the registry reads go to OP Mainnet (or a stand-in). */
export interface FarcasterSignInVerifier {
  verify(check: SiwfCheck): Promise<Result<VerifiedFarcasterMessage, FarcasterRefusal>>;
}

/**
 * SIWF as `@farcaster/auth-client` defines it: the EIP-4361 fields (statement, chain 10, one
 * `farcaster://fid/<fid>` resource, time window), the nonce and domain given, the signature
 * (EOA, ERC-1271 or ERC-6492 on OP Mainnet), then the signer: an auth address the KeyRegistry
 * lists for the fid (key type 2, added), or the custody address the IdRegistry maps to the fid.
 * `rpcUrl` is OP Mainnet's JSON-RPC (FARCASTER_RPC_URL); tests point it at a local OP chain with
 * the registries' reads at their addresses.
 */
export function createFarcasterSignInVerifier(rpcUrl: string): FarcasterSignInVerifier {
  // auth-client's own viemConnector makes the same two reads; this one runs them through the
  // oracle's RPC transport, with its deadlines and retries.
  const publicClient = opMainnet(rpcUrl);
  const getFid = idOf(publicClient);
  const isValidAuthAddress = async (authAddress: Address, fid: bigint): Promise<boolean> => {
    const key = encodeAbiParameters([{ type: 'address' }], [authAddress]);
    const data = await publicClient.readContract({
      address: FARCASTER_KEY_REGISTRY,
      abi: KEY_REGISTRY_ABI,
      functionName: 'keyDataOf',
      args: [fid, key],
    });
    return data.keyType === AUTH_ADDRESS_KEY_TYPE && data.state === KEY_ADDED;
  };
  const client = createAppClient({ ethereum: { getFid, isValidAuthAddress, publicClient } });
  return {
    async verify(check) {
      const result = await client.verifySignInMessage({
        message: check.message,
        signature: check.signature,
        nonce: check.nonce,
        domain: check.domain,
        acceptAuthAddress: true,
      });
      if (result.isError) {
        const code = result.error?.errCode === 'unavailable' || result.error?.errCode === 'unknown' ? 'unavailable' : 'refused';
        return fail({ code, message: `Sign In With Farcaster: ${result.error?.message ?? 'refused'}` });
      }
      return ok({
        fid: BigInt(result.fid),
        signer: getAddress(result.data.address).toLowerCase(),
        method: result.authMethod === 'authAddress' ? 'authAddress' : 'custody',
      });
    },
  };
}

/** Verifies Mini App Quick Auth tokens issued for `domain`. */
export interface QuickAuthVerifier {
  verify(token: string, domain: string): Promise<Result<{ fid: bigint }, FarcasterRefusal>>;
}

/**
 * Quick Auth through `@farcaster/quick-auth`: the token's signature against the issuer's JWKS
 * (`<origin>/.well-known/jwks.json`), its issuer (the origin), audience (our domain) and expiry;
 * the fid is its subject. `origin` is Farcaster's server in production (FARCASTER_QUICK_AUTH_ORIGIN).
 */
export function createQuickAuthVerifier(origin: string): QuickAuthVerifier {
  const client = createQuickAuthClient({ origin });
  return {
    async verify(token, domain) {
      let subject: unknown;
      try {
        subject = (await client.verifyJwt({ token, domain })).sub;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return fail({ code: quickAuthFailureKind(error), message: `Quick Auth: ${message}` });
      }
      const fid = typeof subject === 'number' || typeof subject === 'string' ? String(subject) : '';
      if (!/^[1-9][0-9]{0,18}$/.test(fid)) return fail({ code: 'refused', message: 'Quick Auth: the token has no fid subject' });
      return ok({ fid: BigInt(fid) });
    },
  };
}

/** jose's codes that judge the token itself; its key-set codes for an issuer that cannot be read. */
const TOKEN_REFUSED_CODES =
  /^ERR_(JWT|JWS|JWK)_|^ERR_JWKS_(NO_MATCHING_KEY|MULTIPLE_MATCHING_KEYS)$|^ERR_JOSE_(ALG_NOT_ALLOWED|NOT_SUPPORTED)$/;

/**
 * A token the issuer's keys or claims reject is refused; anything else (a key set that cannot be
 * fetched or read, a network error) leaves the token unjudged: unavailable, to be retried.
 */
function quickAuthFailureKind(error: unknown): FarcasterRefusal['code'] {
  if (error instanceof Error && error.name === 'InvalidToken') return 'refused';
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return TOKEN_REFUSED_CODES.test(code) ? 'refused' : 'unavailable';
}
