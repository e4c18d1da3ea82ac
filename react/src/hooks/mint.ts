import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult } from '@tanstack/react-query';
import { getMintSignature, mintSong, uploadMetadata } from '@songmint/sdk';
import type {
  GetMintSignatureParameters,
  MintedSong,
  MintSignature,
  MintSongParameters,
  SongmintError,
  UploadedMetadata,
  UploadMetadataParameters,
} from '@songmint/sdk';
import { chainOf } from '../chain.ts';
import { useSongmintContext } from '../provider.ts';
import { followIndex } from '../indexed.ts';
import { songmintKeys } from '../query-keys.ts';
import { requireSignedIn, useSignedIn } from './signed-in.ts';

/** Publishes the song's metadata JSON (and cover) to IPFS: its `metadataUri` goes into the mint signature. */
export function useUploadMetadata(): UseMutationResult<UploadedMetadata, SongmintError, UploadMetadataParameters> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useMutation<UploadedMetadata, SongmintError, UploadMetadataParameters>({
    mutationFn: (parameters) => run(() => uploadMetadata(requireSignedIn(signedIn).api, parameters)),
  });
}

export type MintSignatureVariables = Omit<GetMintSignatureParameters, 'userAddress' | 'signal'> & {
  /** Defaults to the signed-in address (the only one the API signs for). */
  userAddress?: GetMintSignatureParameters['userAddress'];
};

/** The platform's one-time signature that lets the signed-in wallet mint the song (a second ask: SIGN_002). */
export function useMintSignature(): UseMutationResult<MintSignature, SongmintError, MintSignatureVariables> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useMutation<MintSignature, SongmintError, MintSignatureVariables>({
    mutationFn: (parameters) =>
      run(() => {
        const current = requireSignedIn(signedIn);
        return getMintSignature(current.api, { ...parameters, userAddress: parameters.userAddress ?? current.address });
      }),
  });
}

/**
 * Mints the song through the connected wallet (`SongNFT.mint`, simulated first: a bad signature
 * fails before anything is sent). The job lists refetch once; the creator page follows the index to the mint.
 */
export function useMintSong(): UseMutationResult<MintedSong, SongmintError, MintSongParameters> {
  const { run, config, contracts } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<MintedSong, SongmintError, MintSongParameters>({
    mutationFn: (parameters) => run(async () => mintSong(await chainOf(config, contracts), parameters)),
    onSuccess: async (minted) => {
      void followIndex(queryClient, songmintKeys.creator(minted.minter), minted.receipt.blockNumber);
      if (signedIn !== undefined) await queryClient.invalidateQueries({ queryKey: songmintKeys.jobLists(signedIn.address) });
    },
  });
}
