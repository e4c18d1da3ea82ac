/**
 * MusicGen's codebook delay pattern. The decoder predicts all K codebooks at once, codebook k
 * lagging k steps behind codebook 0: column 0 of the delayed sequence is the start token for
 * every codebook, and column c holds frame c - 1 - k of codebook k. Before a codebook's first
 * frame its column holds the start token, after its last frame the pad token; a window of F
 * frames therefore spans F + K columns. A continuation window begins with P prompt frames (the
 * end of the previous window): their columns are forced, not sampled.
 */

export interface DelayTokens {
  bos: number;
  pad: number;
}

/** The frame of codebook `codebook` that delayed column `column` holds (negative: before the first). */
export function frameOfColumn(column: number, codebook: number): number {
  return column - 1 - codebook;
}

/** Columns a window of `frames` frames spans over `codebooks` codebooks. */
export function windowColumns(frames: number, codebooks: number): number {
  return frames + codebooks;
}

/**
 * The token column `column` must hold for `codebook` whatever the model predicts, or undefined
 * where the model's prediction is sampled. `prompt[k]` holds the window's first frames of codebook
 * k; `frames` is the window's whole length in frames (prompt included).
 */
export function forcedToken(
  column: number,
  codebook: number,
  prompt: readonly Int32Array[],
  frames: number,
  tokens: DelayTokens,
): number | undefined {
  const frame = frameOfColumn(column, codebook);
  if (frame < 0) return tokens.bos;
  if (frame >= frames) return tokens.pad;
  const known = prompt[codebook];
  if (known !== undefined && frame < known.length) return known[frame];
  return undefined;
}

/**
 * The first `columns` delayed columns, codebook-major ([K][columns] flattened), for a window that
 * starts with `prompt` (every value forced: the caller asks only for columns the prompt fully
 * determines, 0..P).
 */
export function promptColumns(
  prompt: readonly Int32Array[],
  codebooks: number,
  columns: number,
  frames: number,
  tokens: DelayTokens,
): BigInt64Array {
  const out = new BigInt64Array(codebooks * columns);
  for (let k = 0; k < codebooks; k += 1) {
    for (let c = 0; c < columns; c += 1) {
      const token = forcedToken(c, k, prompt, frames, tokens);
      if (token === undefined)
        throw new Error(`column ${c} of codebook ${k} is not determined by a ${prompt[k]?.length ?? 0}-frame prompt`);
      out[k * columns + c] = BigInt(token);
    }
  }
  return out;
}

/** Undoes the delay: frames `from..to-1` of each codebook out of a window's delayed columns ([K][columns]). */
export function framesFromColumns(delayed: readonly Int32Array[], from: number, to: number): Int32Array[] {
  return delayed.map((columns, k) => {
    const out = new Int32Array(to - from);
    for (let f = from; f < to; f += 1) {
      const value = columns[f + 1 + k];
      if (value === undefined) throw new Error(`frame ${f} of codebook ${k} lies beyond the window's ${columns.length} columns`);
      out[f - from] = value;
    }
    return out;
  });
}
