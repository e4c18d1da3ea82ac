/**
 * The host half of ACE-Step 1.5's condition encoder, for exports that split it into
 * text_projector, lyric_encoder and timbre_encoder graphs (shreyask/ACE-Step-v1.5-ONNX). The
 * reference (`AceStepConditionEncoder.forward` in the checkpoint's modeling_acestep_v15_*.py):
 *
 *   packed, mask = pack_sequences(lyric, timbre, lyric_mask, timbre_mask)
 *   packed, mask = pack_sequences(packed, text, mask, text_mask)
 *
 * where `pack_sequences` concatenates two masked sequences along the tokens, moves the valid
 * tokens (mask 1) to the front in their order (a stable descending sort of the mask), and
 * returns the mask as "the first sum(mask) tokens are valid". `prepare_condition`'s context is
 * `cat([src_latents, chunk_masks], -1)`. (The timbre encoder graph unpacks its references to
 * songs itself, as the reference module's forward does.)
 */

/** States `[batch, tokens, width]` (row-major) with a 0/1 mask `[batch, tokens]`. */
export interface MaskedStates {
  states: Float32Array;
  mask: Uint8Array;
  batch: number;
  tokens: number;
  width: number;
}

function checkShape(name: string, s: MaskedStates): void {
  if (s.states.length !== s.batch * s.tokens * s.width)
    throw new Error(`${name}: ${s.states.length} values, expected ${s.batch}x${s.tokens}x${s.width}`);
  if (s.mask.length !== s.batch * s.tokens) throw new Error(`${name}: mask has ${s.mask.length} values, expected ${s.batch}x${s.tokens}`);
}

/** ACE-Step's `pack_sequences`: `a` then `b`, valid tokens first (in order), mask = leading ones. */
export function packSequences(a: MaskedStates, b: MaskedStates): MaskedStates {
  checkShape('first sequence', a);
  checkShape('second sequence', b);
  if (a.batch !== b.batch || a.width !== b.width)
    throw new Error(`cannot pack [${a.batch}, ${a.tokens}, ${a.width}] with [${b.batch}, ${b.tokens}, ${b.width}]`);
  const { batch, width } = a;
  const tokens = a.tokens + b.tokens;
  const states = new Float32Array(batch * tokens * width);
  const mask = new Uint8Array(batch * tokens);
  for (let n = 0; n < batch; n += 1) {
    const source = (t: number): [Float32Array, number, number] =>
      t < a.tokens
        ? [a.states, (n * a.tokens + t) * width, a.mask[n * a.tokens + t] ?? 0]
        : [b.states, (n * b.tokens + t - a.tokens) * width, b.mask[n * b.tokens + t - a.tokens] ?? 0];
    // Stable sort by mask, descending: every valid token in order, then every masked one in order.
    let out = 0;
    for (const valid of [true, false])
      for (let t = 0; t < tokens; t += 1) {
        const [values, offset, m] = source(t);
        if ((m !== 0) !== valid) continue;
        states.set(values.subarray(offset, offset + width), (n * tokens + out) * width);
        if (valid) mask[n * tokens + out] = 1;
        out += 1;
      }
  }
  return { states, mask, batch, tokens, width };
}

/** The condition the DiT attends to: lyrics and timbre packed, then the caption after them. */
export function packCondition(parts: { lyric: MaskedStates; timbre: MaskedStates; text: MaskedStates }): MaskedStates {
  return packSequences(packSequences(parts.lyric, parts.timbre), parts.text);
}

/** `prepare_condition`'s context: each frame's source latent followed by its chunk mask, `[frames, 2C]`. */
export function contextLatents(source: Float32Array, chunkMask: Float32Array, frames: number, channels: number): Float32Array {
  if (source.length !== frames * channels || chunkMask.length !== frames * channels)
    throw new Error(`context: source and chunk mask must be ${frames}x${channels}`);
  const out = new Float32Array(frames * 2 * channels);
  for (let f = 0; f < frames; f += 1) {
    out.set(source.subarray(f * channels, (f + 1) * channels), f * 2 * channels);
    out.set(chunkMask.subarray(f * channels, (f + 1) * channels), (f * 2 + 1) * channels);
  }
  return out;
}
