/**
 * Lyrics from a local ONNX causal language model (LYRICS_MODEL_DIR): `model.onnx` taking
 * `input_ids` (int64 [1, n], plus `attention_mask` when the graph has it) and returning `logits`
 * [1, n, vocab], and its Hugging Face `tokenizer.json`; optional `lyrics.json` names the end
 * token. Sampling is seeded (top-k, temperature), at most 512 new tokens, cut back to the last
 * whole line. The session is created once per process.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { z } from 'zod';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';
import type { GeneratedLyrics, LyricsGenerator, LyricsRequest } from './lyrics-generator.ts';
import { loadLyricsTokenizer } from './lyrics-tokenizer.ts';
import type { LyricsTokenizer } from './lyrics-tokenizer.ts';

const LyricsConfig = z.object({
  eos_token: z.string().default('<|endoftext|>'),
  temperature: z.number().positive().default(0.8),
  top_k: z.number().int().positive().default(40),
});

export type OnnxLyricsResult = Result<LyricsGenerator, DomainError<'LYRICS_MODEL_INVALID'>>;

function prng(seed: bigint): () => number {
  let state = Number(seed & 0xffffffffn) ^ 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample(logits: Float32Array, offset: number, vocab: number, topK: number, temperature: number, random: () => number): number {
  const candidates: { id: number; logit: number }[] = [];
  for (let id = 0; id < vocab; id += 1) candidates.push({ id, logit: logits[offset + id] ?? -Infinity });
  candidates.sort((a, b) => b.logit - a.logit || a.id - b.id);
  const top = candidates.slice(0, topK);
  const max = top[0]?.logit ?? 0;
  const weights = top.map((c) => Math.exp((c.logit - max) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (let i = 0; i < top.length; i += 1) {
    r -= weights[i] ?? 0;
    if (r <= 0) return top[i]?.id ?? 0;
  }
  return top[top.length - 1]?.id ?? 0;
}

export function lyricsPrompt(prompt: string): string {
  return `Song lyrics with [verse], [chorus] and [bridge] sections.\nTopic: ${prompt}\n\n[verse]\n`;
}

export async function loadOnnxLyricsGenerator(dir: string): Promise<OnnxLyricsResult> {
  let tokenizer: LyricsTokenizer;
  let config: z.infer<typeof LyricsConfig>;
  let session: ort.InferenceSession;
  try {
    const parsed = loadLyricsTokenizer(JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')));
    if (!parsed.ok) return fail({ code: 'LYRICS_MODEL_INVALID', message: parsed.error.message });
    tokenizer = parsed.value;
    const configText = await readFile(join(dir, 'lyrics.json'), 'utf8').catch(() => '{}');
    config = LyricsConfig.parse(JSON.parse(configText));
    session = await ort.InferenceSession.create(join(dir, 'model.onnx'), { executionProviders: ['cpu'] });
  } catch (err) {
    return fail({
      code: 'LYRICS_MODEL_INVALID',
      message: `cannot load lyrics model from ${dir}: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  if (!session.inputNames.includes('input_ids') || !session.outputNames.includes('logits')) {
    return fail({ code: 'LYRICS_MODEL_INVALID', message: 'lyrics model needs an input_ids input and a logits output' });
  }
  const eos = tokenizer.tokenId(config.eos_token);
  const withMask = session.inputNames.includes('attention_mask');

  return ok<LyricsGenerator>({
    name: `onnx-causal-lm:${dir}`,
    async generate(request: LyricsRequest): Promise<GeneratedLyrics> {
      const random = prng(request.seed);
      const head = '[verse]\n';
      const ids = tokenizer.encode(lyricsPrompt(request.prompt));
      const promptLength = ids.length;
      while (ids.length - promptLength < request.maxNewTokens) {
        request.signal.throwIfAborted();
        const n = ids.length;
        const feeds: Record<string, ort.Tensor> = {
          input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map((i) => BigInt(i))), [1, n]),
        };
        if (withMask) feeds.attention_mask = new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]);
        const out = await session.run(feeds);
        const logits = out.logits;
        if (logits === undefined) throw new Error('lyrics model returned no logits');
        const vocab = Number(logits.dims[logits.dims.length - 1]);
        const next = sample(logits.data as Float32Array, (n - 1) * vocab, vocab, config.top_k, config.temperature, random);
        if (next === eos) break;
        ids.push(next);
      }
      const generated = ids.slice(promptLength);
      let text = head + tokenizer.decode(generated);
      const hitLimit = generated.length >= request.maxNewTokens;
      // A generation cut by the token limit ends mid-line: keep whole lines only.
      if (hitLimit && text.includes('\n')) text = text.slice(0, text.lastIndexOf('\n'));
      text = text.trimEnd();
      return { text, tokens: tokenizer.encode(text.slice(head.length)).length, tokenizer: 'tokenizer.json' };
    },
  });
}
