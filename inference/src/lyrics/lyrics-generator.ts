/**
 * The lyrics step's plug-in interface. The built-in generator writes structured lyrics from
 * templates; an ONNX causal language model replaces it when LYRICS_MODEL_DIR is set.
 */

/** Spec: the lyrics step produces at most 512 new tokens. */
export const MAX_LYRICS_TOKENS = 512;

export interface LyricsRequest {
  prompt: string;
  seed: bigint;
  /** Song length: longer songs get more lines, up to the token limit. */
  durationSeconds: number;
  maxNewTokens: number;
  signal: AbortSignal;
}

export interface GeneratedLyrics {
  /** Sections tagged `[verse]`, `[chorus]`, `[bridge]`, separated by blank lines. */
  text: string;
  /** New tokens counted by the generator's tokenizer. */
  tokens: number;
  tokenizer: string;
}

export interface LyricsGenerator {
  readonly name: string;
  generate(request: LyricsRequest): Promise<GeneratedLyrics>;
}
