/**
 * The autoregressive loop over `decoder_model_merged.onnx`: windows of at most the decoder's
 * trained positions, each after the first continuing from the end of the one before (its last
 * frames are the next window's prompt, as MusicGen's own long-form generation does), so a song of
 * any length up to the spec's 240 s is generated with a bounded cache.
 *
 * Each window: one no-cache call over the prompt's determined columns (start token + P prompt
 * frames), then one cached call per further column. The batch holds the prompt-conditioned row
 * and, with guidance, an unconditioned row (zero encoder states, zero mask) whose logits the
 * sampler mixes in.
 */
import * as ort from 'onnxruntime-node';
import { forcedToken, framesFromColumns, promptColumns, windowColumns } from './delay-pattern.ts';
import type { CacheShape, KvCache } from './kv-cache.ts';
import { advanceCache, emptyCache, presentNames } from './kv-cache.ts';
import type { MusicgenSpec } from './layout.ts';
import type { Random } from '../seed.ts';
import type { SamplingSettings } from './sampler.ts';
import { guidedLogits, sampleToken } from './sampler.ts';

export interface EncodedText {
  /** last_hidden_state of the text encoder, [1, length, dim] row-major. */
  hidden: Float32Array;
  length: number;
  dim: number;
}

export interface WindowPlan {
  /** Frames carried over from the previous window (forced, not generated). */
  promptFrames: number;
  /** Frames this window adds to the song. */
  newFrames: number;
}

/** Share of a window that the next one takes as its prompt (MusicGen's 30 s windows, 18 s stride). */
export const CONTINUATION_OVERLAP = 0.4;

/** Splits `totalFrames` into windows of at most `windowFrames`, each after the first overlapping the song's end by `overlap` frames. */
export function planWindows(totalFrames: number, windowFrames: number, overlap: number): WindowPlan[] {
  if (overlap >= windowFrames) throw new Error(`overlap ${overlap} leaves no new frames in a ${windowFrames}-frame window`);
  const windows: WindowPlan[] = [];
  let done = 0;
  while (done < totalFrames) {
    const promptFrames = Math.min(done, overlap);
    const newFrames = Math.min(windowFrames - promptFrames, totalFrames - done);
    windows.push({ promptFrames, newFrames });
    done += newFrames;
  }
  return windows;
}

/** Frames one window may span: its columns (frames + codebooks) must fit the trained positions. */
export function windowFramesFor(spec: Pick<MusicgenSpec, 'maxPositions' | 'numCodebooks'>): number {
  return spec.maxPositions - spec.numCodebooks;
}

export interface GenerateCodesOptions {
  frames: number;
  sampling: SamplingSettings;
  random: Random;
  signal: AbortSignal;
  /** Fraction of the frames generated so far, 0..1. */
  progress?: (fraction: number) => void;
  /** Overrides the window length (tests exercise continuation on short songs). */
  windowFrames?: number;
}

export interface GeneratedCodes {
  /** One array of `frames` codes per codebook. */
  codes: Int32Array[];
  /** Columns sampled (decoder predictions used), all windows together. */
  tokens: number;
  windows: number;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

export async function generateCodes(
  session: ort.InferenceSession,
  spec: MusicgenSpec,
  text: EncodedText,
  options: GenerateCodesOptions,
): Promise<GeneratedCodes> {
  const K = spec.numCodebooks;
  const V = spec.codebookSize;
  const guided = options.sampling.guidanceScale > 1;
  const batch = guided ? 2 : 1;
  const shape: CacheShape = { layers: spec.layers, batch, heads: spec.heads, headDim: spec.headDim };
  const tokens = { bos: spec.bosTokenId, pad: spec.padTokenId };
  const fetches = ['logits', ...presentNames(spec.layers)];

  // The unconditioned row is the conditioned one with zero states and a zero mask (transformers' CFG).
  const hidden = new Float32Array(batch * text.length * text.dim);
  hidden.set(text.hidden, 0);
  const mask = new BigInt64Array(batch * text.length);
  mask.fill(1n, 0, text.length);
  const encoderFeeds = {
    encoder_hidden_states: new ort.Tensor('float32', hidden, [batch, text.length, text.dim]),
    encoder_attention_mask: new ort.Tensor('int64', mask, [batch, text.length]),
  };

  const windowFrames = options.windowFrames ?? windowFramesFor(spec);
  const plan = planWindows(options.frames, windowFrames, Math.floor(windowFrames * CONTINUATION_OVERLAP));
  const song = Array.from({ length: K }, () => new Int32Array(options.frames));
  let done = 0;
  let sampled = 0;

  const run = async (ids: BigInt64Array, width: number, cache: KvCache): Promise<Record<string, ort.Tensor>> => {
    if (options.signal.aborted) throw abortError(options.signal);
    // Both batch rows take the same tokens: guidance differs only in the encoder side.
    const batched = new BigInt64Array(batch * K * width);
    for (let b = 0; b < batch; b += 1) batched.set(ids, b * K * width);
    return session.run(
      {
        ...encoderFeeds,
        ...cache.feeds,
        input_ids: new ort.Tensor('int64', batched, [batch * K, width]),
        use_cache_branch: new ort.Tensor('bool', Uint8Array.from([cache.useCache ? 1 : 0]), [1]),
      },
      fetches,
    );
  };

  for (const window of plan) {
    const P = window.promptFrames;
    const frames = P + window.newFrames;
    const columns = windowColumns(frames, K);
    const prompt = song.map((codes) => codes.slice(done - P, done));
    const delayed = Array.from({ length: K }, () => new Int32Array(columns));
    const first = promptColumns(prompt, K, P + 1, frames, tokens);
    for (let k = 0; k < K; k += 1) delayed[k]?.set(Array.from(first.subarray(k * (P + 1), (k + 1) * (P + 1)), Number));

    let cache = emptyCache(shape);
    let outputs = await run(first, P + 1, cache);
    cache = advanceCache(cache, outputs, shape, P + 1);
    let fed = P + 1;
    for (let column = P + 1; column < columns; column += 1) {
      const logits = outputs.logits;
      if (logits === undefined || logits.dims.length !== 3 || logits.dims[0] !== batch * K || logits.dims[2] !== V) {
        throw new Error(`decoder logits are [${logits?.dims.join(', ') ?? ''}], expected [${batch * K}, n, ${V}]`);
      }
      const width = Number(logits.dims[1]);
      const data = logits.data as Float32Array;
      const row = (r: number): Float32Array => data.subarray((r * width + width - 1) * V, (r * width + width) * V);
      const next = new BigInt64Array(K);
      for (let k = 0; k < K; k += 1) {
        let token = forcedToken(column, k, prompt, frames, tokens);
        if (token === undefined) {
          token = sampleToken(
            guidedLogits(row(k), guided ? row(K + k) : undefined, options.sampling.guidanceScale),
            options.sampling,
            options.random,
          );
          sampled += 1;
        }
        (delayed[k] as Int32Array)[column] = token;
        next[k] = BigInt(token);
      }
      if (column === columns - 1) break;
      outputs = await run(next, 1, cache);
      cache = advanceCache(cache, outputs, shape, 1);
      fed += 1;
      options.progress?.((done + Math.min(window.newFrames, Math.max(0, fed - P - K))) / options.frames);
    }
    const added = framesFromColumns(delayed, P, frames);
    for (let k = 0; k < K; k += 1) song[k]?.set(added[k] as Int32Array, done);
    done += window.newFrames;
    options.progress?.(done / options.frames);
  }
  return { codes: song, tokens: sampled, windows: plan.length };
}
