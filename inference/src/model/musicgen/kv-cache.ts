/**
 * The merged decoder's key/value cache. `decoder_model_merged.onnx` takes
 * `past_key_values.<layer>.{decoder,encoder}.{key,value}` ([batch, heads, length, head_dim]) and a
 * `use_cache_branch` flag, and returns `present.<layer>.…` of the same names. The first call of a
 * window (no cache) passes empty pasts and computes the cross-attention keys and values from the
 * encoder states; later calls pass the cache. Self-attention (decoder) entries grow by the tokens
 * fed each call; cross-attention (encoder) entries are kept from the first call, since the merged
 * export's cached branch does not recompute them (it may return placeholders there).
 */
import * as ort from 'onnxruntime-node';

export type AttentionKind = 'decoder' | 'encoder';
const KINDS: readonly AttentionKind[] = ['decoder', 'encoder'];
const PARTS = ['key', 'value'] as const;

export const pastName = (layer: number, kind: AttentionKind, part: 'key' | 'value'): string => `past_key_values.${layer}.${kind}.${part}`;
export const presentName = (layer: number, kind: AttentionKind, part: 'key' | 'value'): string => `present.${layer}.${kind}.${part}`;

export interface CacheShape {
  layers: number;
  batch: number;
  heads: number;
  headDim: number;
}

export interface KvCache {
  /** Tokens the decoder entries hold. */
  readonly length: number;
  /** Whether the decoder should take its cached branch. */
  readonly useCache: boolean;
  readonly feeds: Readonly<Record<string, ort.Tensor>>;
}

/** The cache of a window's first call: every entry empty. */
export function emptyCache(shape: CacheShape): KvCache {
  const feeds: Record<string, ort.Tensor> = {};
  const empty = new ort.Tensor('float32', new Float32Array(0), [shape.batch, shape.heads, 0, shape.headDim]);
  for (let layer = 0; layer < shape.layers; layer += 1) {
    for (const kind of KINDS) for (const part of PARTS) feeds[pastName(layer, kind, part)] = empty;
  }
  return { length: 0, useCache: false, feeds };
}

/** Names of every present output, for `session.run`'s fetch list. */
export function presentNames(layers: number): string[] {
  const names: string[] = [];
  for (let layer = 0; layer < layers; layer += 1)
    for (const kind of KINDS) for (const part of PARTS) names.push(presentName(layer, kind, part));
  return names;
}

/**
 * The cache after a call that fed `fed` tokens: decoder entries from the outputs (checked to have
 * grown by exactly `fed`), encoder entries from the outputs on the first call and kept after.
 */
export function advanceCache(
  cache: KvCache,
  outputs: Readonly<Record<string, ort.Tensor | undefined>>,
  shape: CacheShape,
  fed: number,
): KvCache {
  const feeds: Record<string, ort.Tensor> = {};
  const length = cache.length + fed;
  let encoderLength: number | undefined;
  for (let layer = 0; layer < shape.layers; layer += 1) {
    for (const part of PARTS) {
      const present = outputs[presentName(layer, 'decoder', part)];
      if (present === undefined) throw new Error(`decoder returned no ${presentName(layer, 'decoder', part)}`);
      const [b, h, l, d] = present.dims;
      if (b !== shape.batch || h !== shape.heads || l !== length || d !== shape.headDim) {
        throw new Error(
          `${presentName(layer, 'decoder', part)} is [${present.dims.join(', ')}], expected [${shape.batch}, ${shape.heads}, ${length}, ${shape.headDim}]`,
        );
      }
      feeds[pastName(layer, 'decoder', part)] = present;

      const kept = cache.feeds[pastName(layer, 'encoder', part)];
      const encoder = cache.useCache ? kept : outputs[presentName(layer, 'encoder', part)];
      if (encoder === undefined) throw new Error(`decoder returned no ${presentName(layer, 'encoder', part)}`);
      const el = encoder.dims[2];
      if (encoder.dims[0] !== shape.batch || el === undefined || el === 0 || (encoderLength !== undefined && el !== encoderLength)) {
        throw new Error(`${presentName(layer, 'encoder', part)} is [${encoder.dims.join(', ')}]: not a cross-attention cache`);
      }
      encoderLength = el;
      feeds[pastName(layer, 'encoder', part)] = encoder;
    }
  }
  return { length, useCache: true, feeds };
}
