/**
 * Joins MP3 streams encoded in parallel from overlapping PCM chunks into one stream.
 *
 * Chunk k is encoded from PCM starting on a frame boundary (a multiple of 1152 samples), a few
 * frames before its join, so its frame g is frame g + start/1152 of the whole song and its
 * encoder is warmed up at the join. At a join, frame f comes from chunk k and frame f - 1 from
 * chunk k - 1. Frame f's main_data_begin points back into the bit reservoir, bytes that chunk k
 * wrote into its own frame f - 1; we pick a join frame where chunk k - 1's frame f - 1 leaves at
 * least that many bytes unused after its own main data, and copy the reservoir bytes there.
 * Joins where both frames use long blocks are preferred so the decoder's overlap-add matches.
 */
import type { Frame } from './mp3-frames.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import { parseMp3 } from './mp3-frames.ts';

export interface EncodedChunk {
  bytes: Uint8Array;
  /** Global frame index of this chunk's first frame (its PCM start / 1152). */
  firstFrame: number;
}

export interface ChunkPlan {
  /** PCM start and end sample of each chunk; starts are multiples of 1152. */
  ranges: { start: number; end: number }[];
  /** For each join k (between chunk k and k + 1): first candidate global frame index. */
  joins: number[];
}

export const WARMUP_FRAMES = 12;
export const SEARCH_FRAMES = 24;
const TAIL_MARGIN_FRAMES = 4;

/** Splits `samples` into `parts` chunks with overlaps for warm-up and join search. */
export function planChunks(samples: number, parts: number): ChunkPlan {
  const totalFrames = Math.ceil(samples / 1152);
  const usable = parts > 1 && totalFrames > parts * (WARMUP_FRAMES + SEARCH_FRAMES + TAIL_MARGIN_FRAMES) * 2 ? parts : 1;
  const joins = Array.from({ length: usable - 1 }, (_, k) => Math.round(((k + 1) * totalFrames) / usable));
  const ranges = Array.from({ length: usable }, (_, k) => {
    const joinBefore = joins[k - 1];
    const joinAfter = joins[k];
    const start = joinBefore === undefined ? 0 : (joinBefore - WARMUP_FRAMES) * 1152;
    const end = joinAfter === undefined ? samples : Math.min(samples, (joinAfter + SEARCH_FRAMES + TAIL_MARGIN_FRAMES) * 1152);
    return { start, end };
  });
  return { ranges, joins };
}

interface ParsedChunk {
  bytes: Uint8Array;
  frames: Frame[];
  firstFrame: number;
}

function freeAfterMainData(frames: readonly Frame[], index: number): number {
  // Main data is contiguous across the data areas; measure in that virtual stream.
  let virtualStart = 0;
  for (let i = 0; i < index; i += 1) {
    const f = frames[i];
    if (f !== undefined) virtualStart += f.offset + f.length - f.dataStart;
  }
  const frame = frames[index];
  if (frame === undefined) return -1;
  const dataLength = frame.offset + frame.length - frame.dataStart;
  const mainEnd = virtualStart - frame.mainDataBegin + Math.ceil(frame.mainDataBits / 8);
  return virtualStart + dataLength - mainEnd;
}

/** The joined stream, its frame count and its first frame (the Info frame's template). */
export type JoinResult = Result<{ bytes: Uint8Array; frames: number; first: Frame }, DomainError<'MP3_JOIN_FAILED'>>;

export function joinChunks(chunks: readonly EncodedChunk[], joins: readonly number[]): JoinResult {
  const parsed: ParsedChunk[] = [];
  for (const chunk of chunks) {
    const result = parseMp3(chunk.bytes);
    if (!result.ok) return fail({ code: 'MP3_JOIN_FAILED', message: `chunk does not parse: ${result.error.message}` });
    parsed.push({ bytes: chunk.bytes, frames: result.value.frames, firstFrame: chunk.firstFrame });
  }
  // For each join pick the global frame f that starts the later chunk's part.
  const cut: number[] = [];
  for (let k = 0; k < joins.length; k += 1) {
    const before = parsed[k];
    const after = parsed[k + 1];
    const from = joins[k];
    if (before === undefined || after === undefined || from === undefined) {
      return fail({ code: 'MP3_JOIN_FAILED', message: 'chunk plan and chunks disagree' });
    }
    let chosen: number | undefined;
    for (const needLongBlocks of [true, false]) {
      for (let f = from; f < from + SEARCH_FRAMES && chosen === undefined; f += 1) {
        const a = f - 1 - before.firstFrame;
        const b = f - after.firstFrame;
        const frameA = before.frames[a];
        const frameB = after.frames[b];
        if (frameA === undefined || frameB === undefined || b < 1) continue;
        if (frameB.mainDataBegin > freeAfterMainData(before.frames, a)) continue;
        if (needLongBlocks && (frameA.blockTypes.some((t) => t !== 0) || frameB.blockTypes.some((t) => t !== 0))) continue;
        chosen = f;
      }
      if (chosen !== undefined) break;
    }
    if (chosen === undefined) return fail({ code: 'MP3_JOIN_FAILED', message: `no usable join frame after frame ${from}` });
    cut.push(chosen);
  }

  const pieces: Uint8Array[] = [];
  let frameCount = 0;
  for (let k = 0; k < parsed.length; k += 1) {
    const chunk = parsed[k];
    if (chunk === undefined) continue;
    const fromGlobal = k === 0 ? chunk.firstFrame : (cut[k - 1] ?? 0);
    const toGlobal = k === parsed.length - 1 ? chunk.firstFrame + chunk.frames.length : (cut[k] ?? 0);
    const first = chunk.frames[fromGlobal - chunk.firstFrame];
    const last = chunk.frames[toGlobal - 1 - chunk.firstFrame];
    if (first === undefined || last === undefined) return fail({ code: 'MP3_JOIN_FAILED', message: 'cut outside chunk' });
    const piece = chunk.bytes.slice(first.offset, last.offset + last.length);
    const next = parsed[k + 1];
    const nextCut = cut[k];
    if (next !== undefined && nextCut !== undefined) {
      // Copy the reservoir bytes the next chunk's first frame reads into this piece's tail.
      const nextFirst = next.frames[nextCut - next.firstFrame];
      const nextPrev = next.frames[nextCut - 1 - next.firstFrame];
      if (nextFirst === undefined || nextPrev === undefined) return fail({ code: 'MP3_JOIN_FAILED', message: 'join frame missing' });
      const m = nextFirst.mainDataBegin;
      const sourceEnd = nextPrev.offset + nextPrev.length;
      piece.set(next.bytes.subarray(sourceEnd - m, sourceEnd), piece.length - m);
    }
    pieces.push(piece);
    frameCount += toGlobal - fromGlobal;
  }
  const first = parsed[0]?.frames[0];
  if (first === undefined) return fail({ code: 'MP3_JOIN_FAILED', message: 'no frames' });
  const total = pieces.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return ok({ bytes: out, frames: frameCount, first });
}
