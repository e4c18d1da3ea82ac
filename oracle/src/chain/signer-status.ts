/**
 * Whether a mint signature the oracle issued can never be used: SongNFT has retired the key that
 * made it (`isRetiredSigner`, set for good by `setPlatformSigner`) and the audio was never minted
 * (`isAudioHashUsed`). Such a signature is stranded, and the oracle may replace it with one from
 * its current key (docs/minting.md, "Rotating the platform signer").
 *
 * Read at the latest block: a rotation that a reorg undid would make the old signature valid
 * again, but the audio still mints once (`Signature used`), so no second token can come of it.
 */
import { parseAbi } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { appError, fail, ok } from '../domain/errors.ts';
import type { Result } from '../domain/errors.ts';

const SIGNER_STATUS_ABI = parseAbi([
  'function isRetiredSigner(address signer) view returns (bool)',
  'function isAudioHashUsed(bytes32 audioHash) view returns (bool)',
]);

/** Seconds to suggest before asking again while the chain cannot be read. */
const CHAIN_RETRY_SECONDS = 5;

export interface SignerStatus {
  /** True when `signer`'s signatures can never mint `audioHash` again (retired key, audio unminted). */
  isStranded(input: { signer: Address; audioHash: Hex }): Promise<Result<boolean>>;
}

export interface SignerStatusOptions {
  client: Pick<PublicClient, 'readContract'>;
  songNftAddress: Address;
}

export function createSignerStatus({ client, songNftAddress }: SignerStatusOptions): SignerStatus {
  return {
    async isStranded({ signer, audioHash }) {
      try {
        const [retired, used] = await Promise.all([
          client.readContract({ address: songNftAddress, abi: SIGNER_STATUS_ABI, functionName: 'isRetiredSigner', args: [signer] }),
          client.readContract({ address: songNftAddress, abi: SIGNER_STATUS_ABI, functionName: 'isAudioHashUsed', args: [audioHash] }),
        ]);
        return ok(retired && !used);
      } catch (error) {
        return fail(
          appError('SERVICE_UNAVAILABLE', 'Chain unavailable', {
            details: `SongNFT could not be read to tell whether the earlier signature still works: ${firstLine(error)}`,
            retryAfter: CHAIN_RETRY_SECONDS,
          }),
        );
      }
    },
  };
}

/** viem's errors run to many lines (request, docs, version); the first says what went wrong. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n', 1)[0] ?? '';
}
