/**
 * The ownership rule over the registry of the platform's sounds (docs/fingerprints.md, issue 50):
 * every completed song and edit is registered to the account it was made for, as of its
 * completion (the worker's completing transaction, core/src/jobs/job-state.ts `completeJob`). An
 * upload, and a song carrying outside audio asking for a mint signature, must not contain another
 * account's earlier sound: the earlier creation wins, signed or not.
 *
 * The matcher is the landmark registry (./landmark-registry.ts `findContainedSounds`: spectral
 * peak triplets that survive overlays, filters, codecs, cuts, tempo and pitch changes); this
 * module applies the rule of ownership to what it answers.
 *
 * The rule (`findEarlierClaim`): a query of account A is refused for a registered sound R of
 * another account B when R was made before the query (before the job asking, or before now for an
 * upload) and R does not itself derive from A: R contains no sound of A's made before R. The
 * exception is what keeps a creator's song its creator's: a squatter's extension S of a copy of
 * A's song V (however it got in) contains V; A's later upload of V, or A's edit of it, contains S
 * too, but S holds V, A's earlier sound, so S does not count against A, while V counts against
 * the squatter. Registrations are never removed: dropping a creator's would leave a squatter's
 * later copy the earliest sound holding the song.
 */
import type { Database, Queryable } from '../db/database.ts';
import { eventLoopSlices } from '../event-loop-slices.ts';
import { alignShared, MIN_VOTES } from './landmark-match.ts';
import type { ContrastImage } from './contrast-image.ts';
import {
  aligningWith,
  createLandmarkLookup,
  earlierSoundsOf,
  findContainedSounds,
  LOOKUP_SLICE_MS,
  pairTriplets,
  registeredPeaks,
  registeredPeaksOf,
  registeredTriplets,
  registerLandmarks,
} from './landmark-registry.ts';
import type { LandmarkLookup, LandmarkMatch } from './landmark-registry.ts';
import type { LandmarkAlignment } from './landmark-match.ts';
import { peaksFromBytes } from './landmarks.ts';
import { alignmentInView, alignmentOfUpload } from './query-views.ts';
import type { ViewPeaks } from './query-views.ts';
import {
  agreeingRegisteredPeaks,
  alignmentForEvidence,
  EVIDENCE_CANDIDATES,
  EVIDENCE_MIN_MEDIAN,
  EVIDENCE_MIN_VOTES,
  segmentMedian,
} from './spectrogram-evidence.ts';
import type { Peak } from './spectral-peaks.ts';

export interface RegistryMatch extends LandmarkMatch {
  /**
   * Where the match rests on the upload's spectrogram (a candidate short of `MIN_VOTES`): the
   * statistic of ./spectrogram-evidence.ts it reached. Absent where the votes alone matched.
   */
  evidence?: number;
}

export interface ClaimQuery {
  /** The asking account. */
  userId: string;
  /** When the asked-about sound was made (a job's completion); absent: now (an upload). */
  createdAt?: Date | undefined;
  /**
   * The query's views (./query-views.ts: an upload played back a semitone either way), looked up
   * where the query itself names no sound; a view's match counts only for an alignment the matcher
   * could have found on the query itself, and is reported in the query's own time and pitch.
   */
  views?: readonly ViewPeaks[] | undefined;
  /**
   * The query's contrast image (an upload's, from the decode thread): with it and its views', a
   * candidate short of votes may match on the evidence of ./spectrogram-evidence.ts, where
   * neither the query nor a view matched on votes.
   */
  image?: ContrastImage | undefined;
  /** Aborted (the asking client left): the lookup stops at its next step, rejecting with its reason. */
  signal?: AbortSignal | undefined;
  /** Event-loop time the lookup holds at once (default `LOOKUP_SLICE_MS`; `bench:fingerprint` compares one piece). */
  sliceMs?: number | undefined;
}

/**
 * The earliest sound of another account that `peaks` (the query's landmark peaks) contains and
 * that was made before it, not itself deriving from the asking account (the rule above); null
 * when there is none.
 */
export async function findEarlierClaim(db: Database, peaks: readonly Peak[], options: ClaimQuery): Promise<RegistryMatch | null> {
  const sliceMs = options.sliceMs ?? LOOKUP_SLICE_MS;
  const lookup = createLandmarkLookup(db, {
    userId: options.userId,
    own: false,
    createdBefore: options.createdAt,
    signal: options.signal,
    sliceMs,
  });
  const asker = { userId: options.userId, signal: options.signal, sliceMs };
  const [itself = []] = await lookup.find([peaks]);
  for (const match of itself) if (!(await derivesFrom(db, match, asker))) return match;
  // The query itself first: it names nearly every copy, and a copy refused then costs one read
  // (all three at once among 1,000,000 sounds: a copy's check p50 24 ms, against 12). The views
  // then together, through the same lookup: only the rows, candidates and peaks it has not read.
  const views = options.views ?? [];
  if (views.length > 0) {
    const found = await lookup.find(views.map((view) => view.peaks));
    for (const [i, view] of views.entries()) {
      for (const match of found[i] ?? []) {
        if (!alignmentInView(view.semitones, match.alignment)) continue;
        if (!(await derivesFrom(db, match, asker))) return { ...match, alignment: alignmentOfUpload(view.semitones, match.alignment) };
      }
    }
  }
  const imaged = [{ semitones: 0, peaks, image: options.image }, ...views].flatMap(({ semitones, peaks: viewPeaks, image }) =>
    image === undefined ? [] : [{ semitones, peaks: viewPeaks, image }],
  );
  return imaged.length === 0 ? null : await heldOnEvidence(db, lookup, imaged, asker);
}

/** A query (the upload, or a view) with its contrast image. */
interface ImagedQuery {
  semitones: number;
  peaks: readonly Peak[];
  image: ContrastImage;
}

/**
 * The earliest sound of another account, not deriving from the asker, that the lookup aligns
 * with one of `queries` by `EVIDENCE_MIN_VOTES` or more and whose evidence on that query's image
 * reaches `EVIDENCE_MIN_MEDIAN` (./spectrogram-evidence.ts); null when there is none. A sound is
 * judged in each query that found it, at that query's alignment and at the direct alignment over
 * every hash they share (`alignShared` on `pairTriplets`), each also fitted along the window the
 * statistic reads (`alignmentForEvidence`), and held at its best statistic: the lookup counts no
 * stop word, so a weak copy whose own hashes are common aligns on a few chance ones
 * (`heroes_rite` tempo +5% among 84 whole tracks: the lookup's 8 votes at stretch 1.066, median
 * 1.64; directly 16 votes at 0.984, 3.00; docs/fingerprints.md, "Each query, and the direct
 * alignment"). The lookup has read every row these queries need: this costs the tallies, one read
 * of the candidates' peaks, their direct alignments and statistics, on the event loop in slices.
 */
async function heldOnEvidence(
  db: Database,
  lookup: LandmarkLookup,
  queries: readonly ImagedQuery[],
  asker: { userId: string; signal: AbortSignal | undefined; sliceMs: number },
): Promise<RegistryMatch | null> {
  const found = await lookup.find(
    queries.map((query) => query.peaks),
    EVIDENCE_MIN_VOTES,
    EVIDENCE_CANDIDATES,
  );
  // A view's alignment counts only where the upload itself could have been aligned so.
  const counts = (query: ImagedQuery, alignment: LandmarkAlignment | null | undefined): alignment is LandmarkAlignment =>
    alignment !== null && alignment !== undefined && (query.semitones === 0 || alignmentInView(query.semitones, alignment));
  // The sounds found in any query, with the alignment each query found them at.
  const foundIn = new Map<number, { sound: LandmarkMatch; inQuery: (LandmarkAlignment | undefined)[] }>();
  for (const [i, query] of queries.entries())
    for (const match of found[i] ?? []) {
      if (!counts(query, match.alignment)) continue;
      let entry = foundIn.get(match.sound.registryId);
      if (entry === undefined) foundIn.set(match.sound.registryId, (entry = { sound: match, inQuery: queries.map(() => undefined) }));
      entry.inQuery[i] = match.alignment;
    }
  if (foundIn.size === 0) return null;
  const pause = eventLoopSlices(asker.sliceMs, asker.signal);
  const stored = await registeredPeaksOf(db, [...foundIn.keys()]);
  const held: RegistryMatch[] = [];
  for (const [id, { sound, inQuery }] of foundIn) {
    const soundPeaks = stored.get(id);
    if (soundPeaks === undefined) continue;
    await pause();
    const registered = registeredTriplets(soundPeaks);
    let best: RegistryMatch | undefined;
    for (const [i, query] of queries.entries()) {
      await pause();
      const prepared = lookup.prepared(query.peaks);
      const shared = pairTriplets(prepared.query, registered, prepared.byHash);
      const direct = alignShared(shared, 'fitting', EVIDENCE_MIN_VOTES);
      const alignments = [inQuery[i], direct].flatMap((found) =>
        counts(query, found) ? [found, alignmentForEvidence(shared, found)] : [],
      );
      for (const alignment of alignments) {
        if (!counts(query, alignment)) continue;
        await pause();
        const leftOut = agreeingRegisteredPeaks(prepared.query, prepared.byHash, registered, alignment);
        const { median } = segmentMedian(query.image, soundPeaks, alignment, leftOut);
        if (median === null || median < EVIDENCE_MIN_MEDIAN || median <= (best?.evidence ?? -Infinity)) continue;
        best = { ...sound, alignment: alignmentOfUpload(query.semitones, alignment), evidence: median };
      }
    }
    if (best !== undefined) held.push(best);
  }
  held.sort((a, b) => a.sound.createdAt.getTime() - b.sound.createdAt.getTime() || a.sound.registryId - b.sound.registryId);
  for (const match of held) if (!(await derivesFrom(db, match, asker))) return match;
  return null;
}

/** The asker's earlier sounds compared one by one, up to this many; more: by a lookup. */
const DIRECT_COMPARISONS = 16;

/**
 * Whether the matched sound holds a sound of `asker.userId`'s made before it. An account with no
 * sound before it needs no look; one with a few has them compared directly, the matched sound's
 * triplets made once, the event loop let run between comparisons as a lookup does; one with many,
 * by a lookup of the matched sound's peaks among its own (a matched sound can be minutes long:
 * its lookup is the costly path).
 */
async function derivesFrom(
  db: Database,
  match: RegistryMatch,
  asker: { userId: string; signal: AbortSignal | undefined; sliceMs: number },
): Promise<boolean> {
  const { userId, signal, sliceMs } = asker;
  const earlier = await earlierSoundsOf(db, userId, match.sound.createdAt, DIRECT_COMPARISONS);
  if (earlier !== null && earlier.length === 0) return false;
  const held = await registeredPeaks(db, match.sound.registryId);
  if (held === null) return false;
  if (earlier !== null) {
    const pause = eventLoopSlices(sliceMs, signal);
    await pause();
    const alignWithHeld = aligningWith(held, MIN_VOTES);
    for (const own of earlier) {
      await pause();
      if (alignWithHeld(own) !== null) return true;
    }
    return false;
  }
  const lookup = { userId, own: true, createdBefore: match.sound.createdAt, signal, sliceMs };
  return (await findContainedSounds(db, held, lookup)).length > 0;
}

/**
 * Registers a completed job's sound (its landmark peaks, raw as stored on its row) to `userId`,
 * made now (the transaction's time: call it in the transaction that completes the job). A job is
 * registered once; a sound without peaks is not registered.
 */
export async function registerSound(db: Queryable, sound: { jobId: string; userId: string; landmarks: Uint8Array }): Promise<void> {
  if (sound.landmarks.length === 0) return;
  await registerLandmarks(db, { jobId: sound.jobId, userId: sound.userId, peaks: peaksFromBytes(sound.landmarks) });
}

/**
 * Where a match lies, for a refusal's details: "from 3.1 s of the query, its 12.4 s on" and how
 * the copy was changed ("2.0% slower, 1.0 semitone up"; empty when neither by 1% or more).
 */
export function describeMatch(match: RegistryMatch): { queryAt: string; soundAt: string; change: string } {
  const { alignment } = match;
  const soundAt = Math.max(0, alignment.offsetSeconds + alignment.queryStartSeconds / alignment.stretch);
  const changes: string[] = [];
  const tempo = alignment.stretch - 1;
  if (Math.abs(tempo) >= 0.01) changes.push(`${(Math.abs(tempo) * 100).toFixed(1)}% ${tempo > 0 ? 'slower' : 'faster'}`);
  const semitones = 12 * Math.log2(alignment.pitch);
  if (Math.abs(semitones) >= 0.25) changes.push(`${Math.abs(semitones).toFixed(1)} semitone ${semitones > 0 ? 'up' : 'down'}`);
  return { queryAt: alignment.queryStartSeconds.toFixed(1), soundAt: soundAt.toFixed(1), change: changes.join(', ') };
}
