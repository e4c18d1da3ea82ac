import { useMutation, useQuery } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { downloadSong, getDownloadLink } from '@songmint/sdk';
import type { DownloadFormat, DownloadLink, SongmintError } from '@songmint/sdk';
import { useSongmintContext } from '../provider.ts';
import { songmintKeys } from '../query-keys.ts';
import { requireSignedIn, useSignedIn } from './signed-in.ts';

/** A link is valid one hour: it is asked again after 50 minutes. */
const LINK_FRESH_MS = 50 * 60_000;

/** A one-hour download URL of one of the user's songs (MP3, WAV or FLAC), saved as its `fileName`. */
export function useDownloadLink(jobId: string | undefined, format: DownloadFormat = 'mp3'): UseQueryResult<DownloadLink, SongmintError> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useQuery<DownloadLink, SongmintError>({
    queryKey:
      signedIn === undefined || jobId === undefined
        ? ['songmint', 'download-link', 'none']
        : songmintKeys.downloadLink(signedIn.address, jobId, format),
    queryFn: ({ signal }) => run(() => getDownloadLink(requireSignedIn(signedIn).api, { jobId: jobId ?? '', format, signal })),
    enabled: signedIn !== undefined && jobId !== undefined,
    staleTime: LINK_FRESH_MS,
  });
}

/** Downloads a song's file (its size checked against what the API stated). */
export function useDownloadSong(): UseMutationResult<Uint8Array, SongmintError, { jobId: string; format: DownloadFormat }> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useMutation<Uint8Array, SongmintError, { jobId: string; format: DownloadFormat }>({
    mutationFn: (parameters) => run(() => downloadSong(requireSignedIn(signedIn).api, parameters)),
  });
}
