import type { Address, Hex } from 'viem';
import { SongmintClientError } from '../errors.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export interface GetMintSignatureParameters {
  jobId: string;
  /** The signed-in wallet: the only address the signature lets mint. */
  userAddress: Address;
  metadataUri: string;
  /** Sent as the `Idempotency-Key` header: a retry with the same key answers the first signature instead of SIGN_002. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface MintSignature {
  jobId: string;
  metadataUri: string;
  audioHash: Hex;
  /** 65-byte EIP-191 signature of the platform signer. */
  signature: Hex;
  expiresAt: Date;
}

/**
 * The one-time platform signature that lets `userAddress` mint the job's song with
 * `metadataUri` (POST /api/signature). Asking twice answers SIGN_002.
 */
export async function getMintSignature(api: SongmintApi, parameters: GetMintSignatureParameters): Promise<MintSignature> {
  requireSession(api);
  const { jobId, userAddress, metadataUri, idempotencyKey, signal } = parameters;
  const issued = await unwrap(
    api.http.POST('/api/signature', {
      body: { job_id: jobId, user_address: userAddress, metadata_uri: metadataUri },
      ...(idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': idempotencyKey } }),
      ...(signal === undefined ? {} : { signal }),
    }),
    signal,
  );
  if (!('audio_hash' in issued))
    throw new SongmintClientError('UNEXPECTED_RESPONSE', `POST /api/signature answered ${JSON.stringify(issued)}`);
  return {
    jobId: issued.job_id,
    metadataUri,
    audioHash: issued.audio_hash as Hex,
    signature: issued.signature as Hex,
    expiresAt: new Date(issued.expires_at),
  };
}
