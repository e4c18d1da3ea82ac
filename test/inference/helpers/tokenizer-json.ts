/**
 * A GPT-2 style `tokenizer.json` (ByteLevel pre-tokenizer and decoder, BPE model) made here: the
 * 256 byte tokens, then each extra word spelled by left-to-right merges, then added tokens. Written
 * as JSON text, so vocabulary keys such as `__proto__` are ordinary own keys, as in a real file.
 */

/** GPT-2's reversible map from bytes to printable characters. */
export function gpt2ByteChars(): Map<number, string> {
  const printable = [...range(33, 126), ...range(161, 172), ...range(174, 255)];
  const map = new Map<number, string>(printable.map((b) => [b, String.fromCodePoint(b)]));
  let shifted = 0;
  for (let b = 0; b < 256; b += 1) {
    if (!map.has(b)) map.set(b, String.fromCodePoint(256 + shifted++));
  }
  return map;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export function byteLevelTokenizerJson(options: { words?: readonly string[]; added?: readonly string[] } = {}): string {
  const vocab = new Map<string, number>();
  for (const [byte, char] of gpt2ByteChars()) vocab.set(char, byte);
  const merges: Array<[string, string]> = [];
  for (const word of options.words ?? []) {
    let left = word[0] ?? '';
    for (const char of word.slice(1)) {
      merges.push([left, char]);
      left += char;
      if (!vocab.has(left)) vocab.set(left, vocab.size);
    }
  }
  const added = (options.added ?? []).map((content, i) => ({
    id: vocab.size + i,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
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
  });
}
