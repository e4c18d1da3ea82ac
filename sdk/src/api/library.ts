import type { JobSummary } from './generation.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';

export interface LibrarySongParameters {
  /** `gen_…`: one of the signed-in user's songs. */
  jobId: string;
  signal?: AbortSignal;
}

export interface RenameSongParameters extends LibrarySongParameters {
  /** 1 to 200 characters (spaces at the ends are dropped). */
  title: string;
}

const signalOf = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/**
 * Renames one of the signed-in user's songs that is not minted (PATCH /api/generate/{job_id}):
 * the library's name, which its downloads are saved under. Rejects with LIBRARY_001 for a minted
 * song (its name is its metadata's), LIBRARY_002 for one in the trash.
 */
export async function renameSong(api: SongmintApi, parameters: RenameSongParameters): Promise<JobSummary> {
  requireSession(api);
  const { jobId, title, signal } = parameters;
  return unwrap(
    api.http.PATCH('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, body: { title }, ...signalOf(signal) }),
    signal,
  );
}

/**
 * Moves one of the signed-in user's songs to the trash (DELETE /api/generate/{job_id}): it leaves
 * the library (`listJobs({ filter: 'trash' })` lists it) until `restoreSong`, or until retention
 * deletes it 30 days later. Rejects with LIBRARY_001 for a minted song, LIBRARY_004 for one still
 * being made (cancel it first).
 */
export async function deleteSong(api: SongmintApi, parameters: LibrarySongParameters): Promise<JobSummary> {
  requireSession(api);
  const { jobId, signal } = parameters;
  return unwrap(api.http.DELETE('/api/generate/{job_id}', { params: { path: { job_id: jobId } }, ...signalOf(signal) }), signal);
}

/**
 * Takes one of the signed-in user's songs out of the trash (POST /api/generate/{job_id}/restore).
 * Rejects with LIBRARY_003 once retention deleted its audio.
 */
export async function restoreSong(api: SongmintApi, parameters: LibrarySongParameters): Promise<JobSummary> {
  requireSession(api);
  const { jobId, signal } = parameters;
  return unwrap(api.http.POST('/api/generate/{job_id}/restore', { params: { path: { job_id: jobId } }, ...signalOf(signal) }), signal);
}
