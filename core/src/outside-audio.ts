/**
 * Outside audio in a song (issue 50 item 5; docs/fingerprints.md "Outside audio"): the spec lets
 * only audio generated through the service be minted, so each song records which of its seconds
 * are uploaded audio kept verbatim through its edit chain, and whether the chain starts from an
 * upload at all (then the fingerprint checks apply to it, even where nothing of the upload is kept).
 *
 * - An edit of an upload starts from the upload's whole seconds (`editableSeconds`), all outside.
 * - `extend` keeps its source at the start: the source's spans stay where they are.
 * - `repaint` keeps all but its range: the range is cut out of the source's spans.
 * - `remix` keeps none of its source's samples.
 * An edit of an edit composes: each step applies to the spans of the step before.
 */
import type { EditParameters } from './song-edits.ts';

/** Seconds `[start, end)` of a song, `start < end`. */
export type OutsideSpan = readonly [start: number, end: number];

/** The `outside_material` and `outside_spans` columns of a job. */
export interface OutsideAudio {
  /** The song's edit chain starts from an upload. */
  material: boolean;
  /** The song's seconds that are uploaded audio kept verbatim: sorted, disjoint. */
  spans: readonly OutsideSpan[];
}

/** A song made from the prompt alone: nothing outside. */
export const NO_OUTSIDE_AUDIO: OutsideAudio = { material: false, spans: [] };

/** What an edit starts from when its source is an upload whose editable part lasts `seconds`. */
export function uploadedSource(seconds: number): OutsideAudio {
  return { material: true, spans: seconds > 0 ? [[0, seconds]] : [] };
}

/** The outside audio of the result of `edit` applied to a source holding `source`. */
export function outsideAfterEdit(edit: EditParameters, source: OutsideAudio): OutsideAudio {
  switch (edit.task) {
    case 'extend':
      return source;
    case 'remix':
      return { material: source.material, spans: [] };
    case 'repaint': {
      const spans: OutsideSpan[] = [];
      for (const [start, end] of source.spans) {
        if (start < Math.min(end, edit.start)) spans.push([start, Math.min(end, edit.start)]);
        if (Math.max(start, edit.end) < end) spans.push([Math.max(start, edit.end), end]);
      }
      return { material: source.material, spans };
    }
  }
}

/** Seconds the spans cover. */
export function outsideSeconds(spans: readonly OutsideSpan[]): number {
  return spans.reduce((sum, [start, end]) => sum + (end - start), 0);
}

/** How a song states its outside audio (its metadata's generation record, its C2PA generation assertion). */
export interface OutsideAudioRecord {
  /** Seconds of the song that are uploaded audio kept verbatim (milliseconds rounded). */
  seconds: number;
  /** Where they are in the song. */
  spans: readonly OutsideSpan[];
}

/** The record of `spans`. */
export function outsideAudioRecord(spans: readonly OutsideSpan[]): OutsideAudioRecord {
  return { seconds: Math.round(outsideSeconds(spans) * 1000) / 1000, spans: spans.map(([start, end]) => [start, end] as const) };
}

/** The share of a song of `duration` seconds that is outside audio (0 for an empty song). */
export function outsideShare(spans: readonly OutsideSpan[], duration: number): number {
  return duration > 0 ? Math.min(1, outsideSeconds(spans) / duration) : 0;
}
