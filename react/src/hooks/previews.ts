import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { createPreview, getPreview } from '@songmint/sdk';
import type { CreatePreviewParameters, PreviewStatus, QueuedPreview, SongmintError } from '@songmint/sdk';
import { useSongmintContext } from '../provider.ts';
import { songmintKeys } from '../query-keys.ts';
import { requireSignedIn, useSignedIn } from './signed-in.ts';

const POLL_MS = 1_000;

/** Queues a short, never mintable preview (charged to the hourly preview limit; `quota` reports it). */
export function useCreatePreview(): UseMutationResult<QueuedPreview, SongmintError, CreatePreviewParameters> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<QueuedPreview, SongmintError, CreatePreviewParameters>({
    mutationFn: (parameters) => run(() => createPreview(requireSignedIn(signedIn).api, parameters)),
    onSuccess: () => {
      if (signedIn !== undefined) void queryClient.invalidateQueries({ queryKey: songmintKeys.profile(signedIn.address) });
    },
  });
}

/** A preview's status, polled while it is queued or processing; completed, it carries a signed `preview_url`. */
export function usePreview(sessionId: string | undefined): UseQueryResult<PreviewStatus, SongmintError> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useQuery<PreviewStatus, SongmintError>({
    queryKey:
      signedIn === undefined || sessionId === undefined
        ? ['songmint', 'preview', 'none']
        : songmintKeys.preview(signedIn.address, sessionId),
    queryFn: ({ signal }) => run(() => getPreview(requireSignedIn(signedIn).api, { sessionId: sessionId ?? '', signal })),
    enabled: signedIn !== undefined && sessionId !== undefined,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'queued' || status === 'processing' ? POLL_MS : false;
    },
  });
}
