/**
 * The lyrics step's former hand-written byte-level BPE (GPT-2 style), kept only as the baseline of
 * bench/lyrics-tokenizer.ts. The product uses @huggingface/tokenizers (inference/src/lyrics/lyrics-tokenizer.ts).
 */
import { z } from 'zod';
import { fail, ok } from '../../core/src/result.ts';
import type { Result } from '../../core/src/result.ts';

const TokenizerJson = z.object({
  model: z.object({
    type: z.literal('BPE'),
    vocab: z.record(z.string(), z.number().int().nonnegative()),
    merges: z.array(z.union([z.string(), z.tuple([z.string(), z.string()])])),
  }),
  added_tokens: z.array(z.object({ id: z.number().int(), content: z.string(), special: z.boolean().optional() })).default([]),
});

const PRETOKENIZE = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

/** GPT-2's reversible map from bytes to printable characters. */
export function byteToUnicode(): Map<number, string> {
  const bytes: number[] = [];
  for (let b = 33; b <= 126; b += 1) bytes.push(b);
  for (let b = 161; b <= 172; b += 1) bytes.push(b);
  for (let b = 174; b <= 255; b += 1) bytes.push(b);
  const chars = [...bytes];
  let n = 0;
  for (let b = 0; b < 256; b += 1) {
    if (!bytes.includes(b)) {
      bytes.push(b);
      chars.push(256 + n);
      n += 1;
    }
  }
  return new Map(bytes.map((b, i) => [b, String.fromCodePoint(chars[i] ?? b)]));
}

export interface BpeTokenizer {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  tokenId(content: string): number | undefined;
}

export type TokenizerResult = Result<BpeTokenizer>;

export function parseTokenizer(json: unknown): TokenizerResult {
  const parsed = TokenizerJson.safeParse(json);
  if (!parsed.success)
    return fail({ code: 'LYRICS_TOKENIZER_UNSUPPORTED', message: `unsupported tokenizer.json: ${z.prettifyError(parsed.error)}` });
  const { vocab, merges } = parsed.data.model;
  const ranks = new Map<string, number>();
  merges.forEach((m, i) => ranks.set(typeof m === 'string' ? m : `${m[0]} ${m[1]}`, i));
  const idToToken = new Map<number, string>();
  for (const [token, id] of Object.entries(vocab)) idToToken.set(id, token);
  for (const added of parsed.data.added_tokens) idToToken.set(added.id, added.content);
  const b2u = byteToUnicode();
  const u2b = new Map([...b2u].map(([b, u]) => [u, b]));

  const bpe = (word: string): string[] => {
    let parts = [...word];
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < parts.length - 1; i += 1) {
        const rank = ranks.get(`${parts[i]} ${parts[i + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) return parts;
      parts = [...parts.slice(0, best), `${parts[best]}${parts[best + 1]}`, ...parts.slice(best + 2)];
    }
  };

  return ok<BpeTokenizer>({
    encode(text) {
      const ids: number[] = [];
      for (const piece of text.match(PRETOKENIZE) ?? []) {
        const mapped = [...new TextEncoder().encode(piece)].map((b) => b2u.get(b) ?? '').join('');
        for (const token of bpe(mapped)) {
          const id = vocab[token];
          if (id === undefined) throw new Error(`token ${JSON.stringify(token)} missing from the vocabulary`);
          ids.push(id);
        }
      }
      return ids;
    },
    decode(ids) {
      const bytes: number[] = [];
      for (const id of ids) {
        for (const ch of idToToken.get(id) ?? '') {
          const b = u2b.get(ch);
          if (b !== undefined) bytes.push(b);
        }
      }
      return new TextDecoder().decode(Uint8Array.from(bytes));
    },
    tokenId(content) {
      return vocab[content] ?? parsed.data.added_tokens.find((t) => t.content === content)?.id;
    },
  });
}
