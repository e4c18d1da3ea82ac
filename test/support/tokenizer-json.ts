/**
 * Byte-level BPE `tokenizer.json` files made here for the tiny models and the lyrics tests, in the
 * structure Hugging Face's `tokenizers` writes: the 256 byte tokens (id = byte value), then each
 * extra word spelled by left-to-right merges, then the added (special) tokens. Two flavours, as
 * the real files differ: GPT-2's (no normalizer, offsets trimmed, the decoder adding a prefix
 * space) and Qwen3's (NFC, nothing trimmed or added). The vocabulary is built with
 * `Object.fromEntries`, so keys such as `__proto__` are ordinary own keys, as in a real file.
 */

export type ByteLevelFlavour = 'gpt2' | 'qwen3';

export interface ByteLevelTokenizerOptions {
  flavour?: ByteLevelFlavour;
  words?: readonly string[];
  added?: readonly string[];
}

/** GPT-2's reversible map from bytes to printable characters (Qwen's byte-level BPE uses it too), indexed by byte. */
export function byteLevelChars(): string[] {
  const printable = new Set<number>();
  for (const [from, to] of [
    [33, 126],
    [161, 172],
    [174, 255],
  ] as const)
    for (let b = from; b <= to; b += 1) printable.add(b);
  let shifted = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(printable.has(b) ? b : 256 + shifted++));
}

const FLAVOURS: Record<ByteLevelFlavour, { normalizer: object | null; trimOffsets: boolean; decoderPrefixSpace: boolean }> = {
  gpt2: { normalizer: null, trimOffsets: true, decoderPrefixSpace: true },
  qwen3: { normalizer: { type: 'NFC' }, trimOffsets: false, decoderPrefixSpace: false },
};

/** An `added_tokens` entry of a special token, as `tokenizers` writes it. */
export function specialToken(id: number, content: string) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

/** The file's JSON value, and how many ids it defines (byte tokens, merged words, added tokens). */
export function byteLevelTokenizer(options: ByteLevelTokenizerOptions = {}): { json: object; vocabSize: number } {
  const flavour = FLAVOURS[options.flavour ?? 'gpt2'];
  const chars = byteLevelChars();
  const vocab = new Map<string, number>(chars.map((char, byte) => [char, byte]));
  const merges: [string, string][] = [];
  for (const word of options.words ?? []) {
    let left = chars[(word.codePointAt(0) ?? 0) & 0xff] ?? '';
    for (const char of word.slice(1)) {
      merges.push([left, char]);
      left += char;
      if (!vocab.has(left)) vocab.set(left, vocab.size);
    }
  }
  const added = (options.added ?? []).map((content, i) => specialToken(vocab.size + i, content));
  return {
    vocabSize: vocab.size + added.length,
    json: {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: added,
      normalizer: flavour.normalizer,
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: flavour.trimOffsets, use_regex: true },
      post_processor: null,
      decoder: { type: 'ByteLevel', add_prefix_space: flavour.decoderPrefixSpace, trim_offsets: flavour.trimOffsets, use_regex: true },
      model: {
        type: 'BPE',
        dropout: null,
        unk_token: null,
        continuing_subword_prefix: '',
        end_of_word_suffix: '',
        fuse_unk: false,
        byte_fallback: false,
        vocab: Object.fromEntries(vocab),
        merges,
      },
    },
  };
}

/** `byteLevelTokenizer`'s file as JSON text. */
export function byteLevelTokenizerJson(options: ByteLevelTokenizerOptions = {}): string {
  return JSON.stringify(byteLevelTokenizer(options).json);
}
