/**
 * Lyrics tokenizer benchmark (`npm run bench:tokenizer`): @huggingface/tokenizers, which the lyrics
 * LM path uses, against the former hand-written byte-level BPE (the baseline, bench/baselines/),
 * in the same run, on the same GPT-2 style tokenizer.json (byte tokens plus a merge chain for every
 * word of the built-in lyrics) and on built-in lyrics of 30 to 240 s songs. Both must produce the
 * same ids; the figures are load time and encode throughput (median of alternating rounds).
 *
 * Environment: BENCH_TOKENIZER_ROUNDS (default 7), BENCH_TOKENIZER_ENCODES (encodes per round, 300).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from '../core/src/result.ts';
import { writeLyrics } from '../inference/src/lyrics/builtin-lyrics.ts';
import { loadLyricsTokenizer } from '../inference/src/lyrics/lyrics-tokenizer.ts';
import { byteLevelTokenizerJson } from '../test/support/tokenizer-json.ts';
import { parseTokenizer } from './baselines/hand-written-bpe.ts';

const ROUNDS = Number(process.env.BENCH_TOKENIZER_ROUNDS ?? 7);
const ENCODES = Number(process.env.BENCH_TOKENIZER_ENCODES ?? 300);

interface Encoder {
  encode(text: string): number[];
}

const texts = [30, 60, 120, 240].flatMap((durationSeconds) =>
  [1n, 2n, 3n].map((seed) => writeLyrics({ prompt: 'dark synthwave about neon city rain', seed, durationSeconds, maxNewTokens: 512 }).text),
);
const words = [
  ...new Set(
    texts
      .join(' ')
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length > 1),
  ),
];
const json = byteLevelTokenizerJson({ words, added: ['<|endoftext|>'] });

function timeLoad(load: () => unknown): number {
  const started = performance.now();
  load();
  return performance.now() - started;
}

function load<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Tokens encoded per second over ENCODES encodes of the texts, in turn. */
function throughput(encoder: Encoder): number {
  let tokens = 0;
  const started = performance.now();
  for (let i = 0; i < ENCODES; i += 1) tokens += encoder.encode(texts[i % texts.length] ?? '').length;
  return tokens / ((performance.now() - started) / 1000);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const libraryLoadMs = median(Array.from({ length: ROUNDS }, () => timeLoad(() => load(loadLyricsTokenizer(JSON.parse(json))))));
const baselineLoadMs = median(Array.from({ length: ROUNDS }, () => timeLoad(() => load(parseTokenizer(JSON.parse(json))))));
const library = load(loadLyricsTokenizer(JSON.parse(json)));
const baseline = load(parseTokenizer(JSON.parse(json)));
const sameIds = texts.every((t) => JSON.stringify(library.encode(t)) === JSON.stringify(baseline.encode(t)));
throughput(library);
throughput(baseline);
const libraryRounds: number[] = [];
const baselineRounds: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  libraryRounds.push(throughput(library));
  baselineRounds.push(throughput(baseline));
}
const report = {
  date: new Date().toISOString(),
  machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
  corpus: {
    texts: texts.length,
    vocabulary: words.length + 256 + 1,
    averageTokens: Math.round(texts.reduce((s, t) => s + library.encode(t).length, 0) / texts.length),
  },
  sameIds,
  library: {
    name: '@huggingface/tokenizers',
    loadMs: Number(libraryLoadMs.toFixed(2)),
    tokensPerSecond: Math.round(median(libraryRounds)),
  },
  baseline: {
    name: 'hand-written BPE (former)',
    loadMs: Number(baselineLoadMs.toFixed(2)),
    tokensPerSecond: Math.round(median(baselineRounds)),
  },
};
const md = [
  '# Lyrics tokenizer: @huggingface/tokenizers vs the former hand-written BPE',
  '',
  `${report.machine.cores} cores (${report.machine.cpu}), Node ${report.machine.node}; ${report.corpus.texts} built-in lyrics of 30-240 s songs (${report.corpus.averageTokens} tokens on average), a GPT-2 style tokenizer.json of ${report.corpus.vocabulary} tokens; median of ${ROUNDS} alternating rounds of ${ENCODES} encodes. Same ids from both: ${sameIds ? 'yes' : 'NO'}.`,
  '',
  '| tokenizer | load ms | tokens/s |',
  '|---|---:|---:|',
  `| ${report.library.name} | ${report.library.loadMs} | ${report.library.tokensPerSecond.toLocaleString('en-US')} |`,
  `| ${report.baseline.name} (baseline) | ${report.baseline.loadMs} | ${report.baseline.tokensPerSecond.toLocaleString('en-US')} |`,
  '',
  'The lyrics LM runs one ONNX forward pass per generated token; tokenizing costs two encodes and one decode per song.',
  '',
].join('\n');
console.log(md);
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(resultsDir, { recursive: true });
await writeFile(join(resultsDir, 'lyrics-tokenizer.json'), `${JSON.stringify(report, null, 2)}\n`);
await writeFile(join(resultsDir, 'lyrics-tokenizer.md'), md);
if (!sameIds) process.exit(1);
