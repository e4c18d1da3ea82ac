import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { builtinLyricsGenerator, writeLyrics } from '../../inference/src/lyrics/builtin-lyrics.ts';
import { MAX_LYRICS_TOKENS } from '../../inference/src/lyrics/lyrics-generator.ts';
import { lyricsRhythm } from '../../inference/src/lyrics/lyrics-rhythm.ts';
import { loadLyricsTokenizer } from '../../inference/src/lyrics/lyrics-tokenizer.ts';
import { loadOnnxLyricsGenerator } from '../../inference/src/lyrics/onnx-lyrics.ts';
import { truncateLyrics } from '../../inference/src/lyrics/token-budget.ts';
import { GraphBuilder, encodeModel } from '../../inference/src/model/onnx-builder.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { parseTokenizer } from '../../bench/baselines/hand-written-bpe.ts';
import { byteLevelTokenizerJson } from '../support/tokenizer-json.ts';

const request = (over: Partial<Parameters<typeof writeLyrics>[0]> = {}) => ({
  prompt: 'dreamy synthwave about neon city rain',
  seed: 42n,
  durationSeconds: 90,
  maxNewTokens: MAX_LYRICS_TOKENS,
  ...over,
});

describe('lyrics step: built-in generator', () => {
  it('writes [verse], [chorus] and [bridge] sections about the prompt, deterministic per seed', () => {
    const a = writeLyrics(request({ durationSeconds: 120 }));
    assert.match(a.text, /^\[verse\]\n/);
    for (const tag of ['[chorus]', '[bridge]']) assert.ok(a.text.includes(tag), `has ${tag}`);
    assert.match(a.text, /neon|city|rain|synthwave/);
    assert.ok(
      a.text.split('\n\n').every((section) => /^\[(verse|chorus|bridge)\]\n\S/.test(section)),
      'blank-line separated tagged sections',
    );
    assert.deepEqual(writeLyrics(request({ durationSeconds: 120 })), a);
    assert.notEqual(writeLyrics(request({ durationSeconds: 120, seed: 43n })).text, a.text);
  });

  it('never exceeds 512 tokens (o200k_base) and truncates long songs at a line boundary', async () => {
    const long = writeLyrics(request({ durationSeconds: 240 }));
    assert.equal(long.tokens, countTokens(long.text));
    assert.ok(long.tokens <= 512 && long.tokens > 400, `tokens ${long.tokens}`);
    const lastLine = long.text.split('\n').at(-1) ?? '';
    assert.ok(!/^\[.*\]$/.test(lastLine) && lastLine.trim().length > 0, 'ends with a sung line');
    const tight = truncateLyrics('[verse]\nline one here\nline two here\n\n[chorus]\nla la la', 8);
    assert.equal(tight.text, '[verse]\nline one here');
    assert.ok(tight.tokens <= 8);
    const generated = await builtinLyricsGenerator.generate({ ...request({ durationSeconds: 240 }), signal: new AbortController().signal });
    assert.equal(generated.text, long.text);
  });

  it('lyrics shape the melody rhythm: syllables of the first sung line become accents', () => {
    const fallback = Array.from({ length: 16 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const short = lyricsRhythm('[verse]\nHold on\nmore words', fallback);
    const long = lyricsRhythm('[verse]\nEverybody is dancing underneath the city lights tonight', fallback);
    assert.equal(short.filter((v) => v > 0).length, 2);
    assert.ok(long.filter((v) => v > 0).length >= 12);
    assert.deepEqual([...lyricsRhythm('[verse]\n', fallback)], fallback);
  });
});

/** A tiny causal "LM" (a bigram table as an ONNX graph) and a GPT-2 style byte-level tokenizer.json. */
async function tinyLyricsModel(dir: string): Promise<void> {
  const vocab = 257;
  const eos = 256;
  const next = new Map<string, string>([
    ['\n', 'l'],
    ['l', 'a'],
    ['a', ' '],
    [' ', 'd'],
    ['d', 'i'],
    ['i', '\n'],
  ]);
  const table = new Float32Array(vocab * vocab).fill(-10);
  for (let t = 0; t < 256; t += 1) {
    const successor = next.get(String.fromCharCode(t));
    table[t * vocab + (successor === undefined ? eos : successor.charCodeAt(0))] = 10;
  }
  const g = new GraphBuilder('');
  const ids = g.input('input_ids', 'int64', [1, 'n']);
  g.output(g.op('Gather', [g.f([...table], [vocab, vocab]), ids], { axis: { int: 0 } }), 'logits', 'float', [1, 'n', vocab]);
  await writeFile(join(dir, 'model.onnx'), encodeModel(g.graph('bigram'), 'test bigram LM'));
  await writeFile(join(dir, 'tokenizer.json'), byteLevelTokenizerJson({ added: ['<|endoftext|>'] }));
  await writeFile(join(dir, 'lyrics.json'), JSON.stringify({ top_k: 1 }));
}

describe('lyrics step: ONNX causal LM loader (LYRICS_MODEL_DIR)', () => {
  let temp: TempDir;
  let dir: string;
  before(async () => {
    temp = await makeTempDir('lyrics-lm');
    dir = temp.path;
    await tinyLyricsModel(dir);
  });
  after(() => temp.remove());

  it('tokenizes with tokenizer.json and round-trips text', async () => {
    const { readFile } = await import('node:fs/promises');
    const parsed = loadLyricsTokenizer(JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')));
    assert.ok(parsed.ok);
    const text = 'Héllo [verse]\n';
    assert.equal(parsed.value.decode(parsed.value.encode(text)), text);
    assert.equal(parsed.value.tokenId('<|endoftext|>'), 256);
    assert.equal(loadLyricsTokenizer({ model: { type: 'WordPiece' } }).ok, false);
    assert.equal(loadLyricsTokenizer({ nothing: true }).ok, false);
  });

  it('treats __proto__, constructor, toString and hasOwnProperty as plain tokens, in the vocabulary, the merges and lookups', () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    const json = byteLevelTokenizerJson({ words: [...names, 'verse'], added: ['<|endoftext|>'] });
    const parsed = loadLyricsTokenizer(JSON.parse(json));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
    const tokenizer = parsed.value;
    const vocab = (JSON.parse(json) as { model: { vocab: Record<string, number> } }).model.vocab;
    for (const name of names) {
      const id = tokenizer.tokenId(name);
      assert.equal(typeof id, 'number', name);
      assert.equal(id, vocab[name], name);
      assert.equal(tokenizer.decode([id ?? -1]), name);
    }
    // Names an object inherits but the vocabulary lacks are not tokens.
    for (const name of ['valueOf', 'isPrototypeOf', '__defineGetter__']) assert.equal(tokenizer.tokenId(name), undefined, name);
    // Merges build the words; text made of them round-trips with integer ids only.
    assert.deepEqual(tokenizer.encode('constructor'), [vocab.constructor]);
    assert.deepEqual(tokenizer.encode('toString'), [vocab.toString]);
    const text = '__proto__ constructor\ntoString hasOwnProperty valueOf __proto__';
    const ids = tokenizer.encode(text);
    assert.ok(
      ids.every((id) => Number.isInteger(id)),
      JSON.stringify(ids),
    );
    assert.equal(tokenizer.decode(ids), text);
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('encodes exactly as the former hand-written BPE, so lyrics token counts and sampled lyrics are unchanged', () => {
    const json = JSON.parse(byteLevelTokenizerJson({ words: ['verse', 'chorus', 'the', 'night'], added: ['<|endoftext|>'] })) as unknown;
    const library = loadLyricsTokenizer(json);
    const former = parseTokenizer(json);
    assert.ok(library.ok && former.ok);
    for (const text of ['[verse]\nthe night is young\n\n[chorus]\nOh night', 'Héllo  wörld 😀\t42', "it's we'll they've"]) {
      assert.deepEqual(library.value.encode(text), former.value.encode(text), text);
      assert.equal(library.value.decode(library.value.encode(text)), text);
    }
  });

  it('generates with the model up to the token limit, cut back to whole lines', async () => {
    const loaded = await loadOnnxLyricsGenerator(dir);
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error.message);
    const out = await loaded.value.generate({
      prompt: 'anything',
      seed: 1n,
      durationSeconds: 30,
      maxNewTokens: 20,
      signal: new AbortController().signal,
    });
    assert.equal(out.text, '[verse]\nla di\nla di\nla di');
    assert.ok(out.tokens <= 20);
    const missing = await loadOnnxLyricsGenerator(join(dir, 'nope'));
    assert.equal(missing.ok ? 'ok' : missing.error.code, 'LYRICS_MODEL_INVALID');
  });
});
