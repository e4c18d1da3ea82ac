/**
 * The oracle's platform signer at start: the key `PLATFORM_SIGNER` names in an HSM or KMS (the
 * oracle never reads its bytes), else `PLATFORM_SIGNER_KEY` or a generated development key; then
 * the check that SongNFT trusts it, so an oracle that could only issue signatures the contract
 * rejects does not start.
 */
import { parseAbi } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { openSigningKeyFrom } from '../../../core/src/signing/open-signing-key.ts';
import type { Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import { createHeldKeyMintSigner, createMintSigner } from './mint-signer.ts';
import type { MintSigner } from './mint-signer.ts';

export interface PlatformSignerConfig {
  PLATFORM_SIGNER?: string | undefined;
  PLATFORM_SIGNER_KEY?: string | undefined;
}

export interface PlatformSignerError {
  code: 'PLATFORM_SIGNER_INVALID' | 'PLATFORM_SIGNER_MISMATCH';
  message: string;
}

/** Opens the configured signer; `devKey` supplies the generated development key when neither variable is set. */
export async function openPlatformSigner(
  config: PlatformSignerConfig,
  devKey: () => Promise<Hex>,
): Promise<Result<MintSigner, PlatformSignerError>> {
  if (config.PLATFORM_SIGNER !== undefined) {
    const key = await openSigningKeyFrom('PLATFORM_SIGNER', config.PLATFORM_SIGNER, 'secp256k1');
    if (!key.ok) return fail({ code: 'PLATFORM_SIGNER_INVALID', message: key.error.message });
    return ok(createHeldKeyMintSigner(key.value));
  }
  return ok(createMintSigner((config.PLATFORM_SIGNER_KEY as Hex | undefined) ?? (await devKey())));
}

const PLATFORM_SIGNER_ABI = parseAbi(['function platformSigner() view returns (address)']);

/**
 * Compares `signer.address` with `SongNFT.platformSigner()`. `unknown` when the chain does not
 * answer (the oracle starts: signatures are checked on chain anyway, and a chain outage must not
 * keep the API down); a mismatch is an error naming both addresses.
 */
export async function checkPlatformSigner(input: {
  client: Pick<PublicClient, 'readContract'>;
  songNftAddress: Address;
  signer: Pick<MintSigner, 'address' | 'keyReference'>;
}): Promise<Result<{ trusted: Address } | 'unknown', PlatformSignerError>> {
  let trusted: Address;
  try {
    trusted = await input.client.readContract({ address: input.songNftAddress, abi: PLATFORM_SIGNER_ABI, functionName: 'platformSigner' });
  } catch {
    return ok('unknown');
  }
  if (trusted.toLowerCase() !== input.signer.address.toLowerCase()) {
    return fail({
      code: 'PLATFORM_SIGNER_MISMATCH',
      message: `the platform signer ${input.signer.address} (${input.signer.keyReference}) is not SongNFT's platformSigner() ${trusted} at ${input.songNftAddress}: every signature would fail on chain. Rotate on chain first (setPlatformSigner by the owner), or configure the key SongNFT trusts.`,
    });
  }
  return ok({ trusted });
}
