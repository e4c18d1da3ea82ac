import { useEffect, useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, QueryClient, UseInfiniteQueryResult, UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { cancelJob, editSong, generate, getJob, jobEvents, listJobs, SongmintClientError } from '@songmint/sdk';
import type {
  EditSongParameters,
  GenerateParameters,
  GenerationJob,
  JobListFilter,
  JobPage,
  JobStatus,
  SongmintError,
} from '@songmint/sdk';
import type { Address } from 'viem';
import { useSongmintContext } from '../provider.ts';
import { songmintKeys } from '../query-keys.ts';
import { requireSignedIn, useSignedIn } from './signed-in.ts';

const FINAL = new Set<JobStatus['status']>(['completed', 'failed', 'cancelled']);
/** Whether a job has ended: its status changes no more. */
export const isFinalJob = (job: JobStatus | undefined): boolean => job !== undefined && FINAL.has(job.status);

/** Streams in a row that bring no event before `useJob` stops reconnecting and polls. */
const MAX_EMPTY_STREAMS = 3;
const POLL_MS = 1_500;

/**
 * Writes one status of a job into the cache: the job's own entry and its card in every loaded
 * page of the job lists (status and progress in place: no list refetch per event). When the job
 * ends, the profile (its quota) is refetched once.
 */
export function applyJobStatus(queryClient: QueryClient, address: Address, job: JobStatus): void {
  queryClient.setQueryData(songmintKeys.job(address, job.job_id), job);
  queryClient.setQueriesData<InfiniteData<JobPage>>({ queryKey: songmintKeys.jobLists(address) }, (lists) =>
    lists === undefined
      ? lists
      : {
          ...lists,
          pages: lists.pages.map((page) => ({
            ...page,
            jobs: page.jobs.map((summary) =>
              summary.job_id !== job.job_id
                ? summary
                : {
                    ...summary,
                    status: job.status,
                    progress: job.status === 'completed' ? 100 : 'progress' in job ? job.progress : summary.progress,
                    ...(job.status === 'completed' ? { audio_url: job.audio_url, audio_hash: job.audio_hash } : {}),
                    ...(job.status === 'failed' ? { error_code: job.error.code } : {}),
                  },
            ),
          })),
        },
  );
  if (isFinalJob(job)) void queryClient.invalidateQueries({ queryKey: songmintKeys.profile(address) });
}

export interface UseJobOptions {
  /** Follow the job's event stream while it runs (default true); false: read it once. */
  live?: boolean;
}

export type JobQueryResult = UseQueryResult<JobStatus, SongmintError> & {
  /** How the running job is followed: its server-sent events, or polling once the stream failed. */
  transport: 'events' | 'polling';
};

/**
 * One job of the signed-in user, live: its status from GET /api/generate/{id}, then every change
 * from the job's event stream (resumed after the server ends it; polling once the stream fails)
 * until it completes, fails or is cancelled. A failed job is a status (`status: 'failed'` with the
 * error's code), not a query error.
 */
export function useJob(jobId: string | undefined, { live = true }: UseJobOptions = {}): JobQueryResult {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  const [transport, setTransport] = useState<'events' | 'polling'>('events');
  const query = useQuery<JobStatus, SongmintError>({
    queryKey: signedIn === undefined || jobId === undefined ? ['songmint', 'job', 'none'] : songmintKeys.job(signedIn.address, jobId),
    queryFn: ({ signal }) => run(() => getJob(requireSignedIn(signedIn).api, { jobId: jobId ?? '', signal })),
    enabled: signedIn !== undefined && jobId !== undefined,
    refetchInterval: (current) => (live && transport === 'polling' && !isFinalJob(current.state.data) ? POLL_MS : false),
  });
  const finished = isFinalJob(query.data);
  useEffect(() => {
    if (!live || signedIn === undefined || jobId === undefined || finished) return;
    setTransport('events');
    const controller = new AbortController();
    void (async () => {
      let lastEventId: string | undefined;
      let emptyStreams = 0;
      while (emptyStreams < MAX_EMPTY_STREAMS && !controller.signal.aborted) {
        let received = 0;
        try {
          for await (const event of jobEvents(signedIn.api, {
            jobId,
            signal: controller.signal,
            ...(lastEventId === undefined ? {} : { lastEventId }),
          })) {
            received++;
            lastEventId = event.id ?? lastEventId;
            applyJobStatus(queryClient, signedIn.address, event.job);
            if (isFinalJob(event.job)) return;
          }
        } catch (error) {
          if (error instanceof SongmintClientError && error.code === 'ABORTED') return;
          break;
        }
        emptyStreams = received === 0 ? emptyStreams + 1 : 0;
      }
      if (!controller.signal.aborted) setTransport('polling');
    })();
    return () => controller.abort();
  }, [live, signedIn?.api, signedIn?.address, jobId, finished, queryClient]);
  return Object.assign(query, { transport });
}

export interface UseJobsParameters {
  filter?: JobListFilter;
  search?: string;
  /** Jobs per page, 1 to 100 (default 20). */
  limit?: number;
}

/** The signed-in user's jobs, newest first, one cursor page at a time (`fetchNextPage`). */
export function useJobs({ filter, search, limit = 20 }: UseJobsParameters = {}): UseInfiniteQueryResult<
  InfiniteData<JobPage, string | undefined>,
  SongmintError
> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  return useInfiniteQuery<JobPage, SongmintError, InfiniteData<JobPage, string | undefined>, readonly unknown[], string | undefined>({
    queryKey: signedIn === undefined ? ['songmint', 'jobs', 'none'] : songmintKeys.jobs(signedIn.address, { filter, search, limit }),
    queryFn: ({ pageParam, signal }) =>
      run(() =>
        listJobs(requireSignedIn(signedIn).api, {
          limit,
          signal,
          ...(pageParam === undefined ? {} : { cursor: pageParam }),
          ...(filter === undefined ? {} : { filter }),
          ...(search === undefined ? {} : { search }),
        }),
      ),
    initialPageParam: undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: signedIn !== undefined,
  });
}

/** Starts a generation job; the job lists and the profile (quota) refetch once. Follow it with `useJob(job.jobId)`. */
export function useGenerate(): UseMutationResult<GenerationJob, SongmintError, GenerateParameters> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<GenerationJob, SongmintError, GenerateParameters>({
    mutationFn: (parameters) => run(() => generate(requireSignedIn(signedIn).api, parameters)),
    onSuccess: (_job, _parameters) => invalidateAfterNewJob(queryClient, signedIn?.address),
  });
}

/** Extends, repaints or remixes a song or an upload (a new job, followed like any: `useJob`). */
export function useEditSong(): UseMutationResult<GenerationJob, SongmintError, EditSongParameters> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<GenerationJob, SongmintError, EditSongParameters>({
    mutationFn: (parameters) => run(() => editSong(requireSignedIn(signedIn).api, parameters)),
    onSuccess: () => invalidateAfterNewJob(queryClient, signedIn?.address),
  });
}

/** Cancels a queued or processing job; its status is read back into the cache. */
export function useCancelJob(): UseMutationResult<{ jobId: string; status: 'cancelled' }, SongmintError, { jobId: string }> {
  const { run } = useSongmintContext();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  return useMutation<{ jobId: string; status: 'cancelled' }, SongmintError, { jobId: string }>({
    mutationFn: ({ jobId }) => run(() => cancelJob(requireSignedIn(signedIn).api, { jobId })),
    onSuccess: async ({ jobId }) => {
      const current = requireSignedIn(signedIn);
      applyJobStatus(queryClient, current.address, await run(() => getJob(current.api, { jobId })));
    },
  });
}

async function invalidateAfterNewJob(queryClient: QueryClient, address: Address | undefined): Promise<void> {
  if (address === undefined) return;
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: songmintKeys.jobLists(address) }),
    queryClient.invalidateQueries({ queryKey: songmintKeys.profile(address) }),
  ]);
}
