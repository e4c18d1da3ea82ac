import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, UseInfiniteQueryResult, UseMutationResult } from '@tanstack/react-query';
import { deleteUpload, listUploads, uploadAudio } from '@songmint/sdk';
import type { SongmintError, Upload, UploadPage } from '@songmint/sdk';
import { useSongmintContext } from '../provider.ts';
import { songmintKeys } from '../query-keys.ts';
import { requireSignedIn, useSignedIn } from './signed-in.ts';

export interface UploadVariables {
  bytes: Uint8Array;
  /** You confirm that you hold the rights to the audio (docs/api.md "Upload audio"). */
  rightsConfirmed: true;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Uploads a WAV, FLAC or MP3 for edits, reporting `progress` as the file goes out. A refusal is
 * a SongmintApiError with its code: UPLOAD_001 (not audio), UPLOAD_002 (does not decode),
 * UPLOAD_003 (under 1 s), UPLOAD_005 (another account's song), GEN_004, PAYLOAD_TOO_LARGE.
 */
export function useUploadAudio(): UseMutationResult<Upload, SongmintError, UploadVariables> & { progress: UploadProgress | undefined } {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | undefined>(undefined);
  const mutation = useMutation<Upload, SongmintError, UploadVariables>({
    mutationFn: ({ bytes, rightsConfirmed }) => {
      setProgress({ sent: 0, total: bytes.length });
      return run(() =>
        uploadAudio(requireSignedIn(signedIn).api, bytes, { rightsConfirmed, onProgress: (sent, total) => setProgress({ sent, total }) }),
      );
    },
    onSuccess: () => {
      if (signedIn !== undefined) void queryClient.invalidateQueries({ queryKey: songmintKeys.uploads(signedIn.address) });
    },
  });
  return Object.assign(mutation, { progress });
}

/** The signed-in user's live uploads, newest first, a cursor page at a time; each page has the rights statement. */
export function useUploads({ limit = 20 }: { limit?: number } = {}): UseInfiniteQueryResult<
  InfiniteData<UploadPage, string | undefined>,
  SongmintError
> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useInfiniteQuery<UploadPage, SongmintError, InfiniteData<UploadPage, string | undefined>, readonly unknown[], string | undefined>({
    queryKey: signedIn === undefined ? ['songmint', 'uploads', 'none'] : [...songmintKeys.uploads(signedIn.address), { limit }],
    queryFn: ({ pageParam, signal }) =>
      run(() => listUploads(requireSignedIn(signedIn).api, { limit, signal, ...(pageParam === undefined ? {} : { cursor: pageParam }) })),
    initialPageParam: undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: signedIn !== undefined,
  });
}

/** Deletes an upload; the upload list refetches once. */
export function useDeleteUpload(): UseMutationResult<void, SongmintError, { uploadId: string }> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<void, SongmintError, { uploadId: string }>({
    mutationFn: ({ uploadId }) => run(() => deleteUpload(requireSignedIn(signedIn).api, uploadId)),
    onSuccess: () => {
      if (signedIn !== undefined) void queryClient.invalidateQueries({ queryKey: songmintKeys.uploads(signedIn.address) });
    },
  });
}
