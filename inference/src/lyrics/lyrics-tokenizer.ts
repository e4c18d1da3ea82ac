/**
 * The tokenizer of a local lyrics LM: a Hugging Face `tokenizer.json` run by @huggingface/tokenizers
 * (its normalizer, pre-tokenizer, model and decoder, as the file declares them: GPT-2 byte-level
 * BPE, SentencePiece-style BPE, ...). Vocabulary and merges live in Maps inside the library, so
 * tokens such as `__proto__` or `constructor` are ordinary tokens.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { z } from 'zod';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';

const TokenizerJson = z.looseObject({
  model: z.looseObject({ type: z.string() }),
  added_tokens: z.array(z.looseObject({ id: z.number().int().nonnegative(), content: z.string() })).default([]),
});

export interface LyricsTokenizer {
  /** Token ids of `text`, without special tokens. */
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  /** The id of a vocabulary or added token, or undefined. */
  tokenId(content: string): number | undefined;
}

export type LyricsTokenizerResult = Result<LyricsTokenizer, DomainError<'LYRICS_TOKENIZER_UNSUPPORTED'>>;

export function loadLyricsTokenizer(json: unknown): LyricsTokenizerResult {
  const parsed = TokenizerJson.safeParse(json);
  if (!parsed.success)
    return fail({ code: 'LYRICS_TOKENIZER_UNSUPPORTED', message: `unsupported tokenizer.json: ${z.prettifyError(parsed.error)}` });
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(json as object, {});
  } catch (err) {
    return fail({
      code: 'LYRICS_TOKENIZER_UNSUPPORTED',
      message: `unsupported tokenizer.json: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  return ok<LyricsTokenizer>({
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
    decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false }),
    tokenId: (content) => tokenizer.token_to_id(content),
  });
}
