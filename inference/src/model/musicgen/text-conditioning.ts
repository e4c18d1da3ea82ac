/**
 * MusicGen's text conditioning: the prompt (and the lyrics, when the song has them) tokenized
 * with the export's `tokenizer.json` (T5's SentencePiece unigram, read by Hugging Face's
 * tokenizers.js) and run through `text_encoder.onnx` (`input_ids`, `attention_mask` ->
 * `last_hidden_state`). MusicGen does not sing: lyrics steer the music only as text.
 */
import { readFile } from 'node:fs/promises';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import type { EncodedText } from './generate-codes.ts';

/** T5's context; longer text is cut (the end-of-sequence token kept). */
export const MAX_TEXT_TOKENS = 512;

export function conditioningText(prompt: string, lyrics: string | null): string {
  const text = prompt.trim();
  return lyrics === null || lyrics.trim() === '' ? text : `${text}\nLyrics:\n${lyrics.trim()}`;
}

export interface TextTokenizer {
  encode(text: string): number[];
}

export async function loadTokenizer(tokenizerPath: string, configPath: string | undefined): Promise<TextTokenizer> {
  const json: unknown = JSON.parse(await readFile(tokenizerPath, 'utf8'));
  const config: unknown = configPath === undefined ? {} : JSON.parse(await readFile(configPath, 'utf8'));
  const tokenizer = new Tokenizer(json as object, config as object);
  return {
    encode(text) {
      const ids = tokenizer.encode(text).ids;
      if (ids.length <= MAX_TEXT_TOKENS) return ids;
      return [...ids.slice(0, MAX_TEXT_TOKENS - 1), ids[ids.length - 1] ?? 0];
    },
  };
}

export async function encodeText(session: ort.InferenceSession, ids: readonly number[]): Promise<EncodedText> {
  if (ids.length === 0) throw new Error('the tokenizer produced no tokens');
  const n = ids.length;
  const out = await session.run(
    {
      input_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from(ids, (id) => BigInt(id)),
        [1, n],
      ),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
    },
    ['last_hidden_state'],
  );
  const hidden = out.last_hidden_state;
  if (hidden === undefined || hidden.type !== 'float32' || hidden.dims.length !== 3 || hidden.dims[1] !== n) {
    throw new Error(`text encoder returned last_hidden_state [${hidden?.dims.join(', ') ?? ''}], expected [1, ${n}, d]`);
  }
  return { hidden: hidden.data as Float32Array, length: n, dim: Number(hidden.dims[2]) };
}
