/** Token counting (o200k_base, a real BPE tokenizer) and truncation at line boundaries. */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export const LYRICS_TOKENIZER = 'o200k_base';

export function lyricsTokens(text: string): number {
  return countTokens(text);
}

/**
 * Keeps whole lines while the text stays within `maxTokens`; a section tag left without lines
 * is dropped, so the result always ends at a section or line boundary.
 */
export function truncateLyrics(text: string, maxTokens: number): { text: string; tokens: number } {
  if (lyricsTokens(text) <= maxTokens) return { text, tokens: lyricsTokens(text) };
  const lines = text.split('\n');
  let kept: string[] = [];
  for (const line of lines) {
    const candidate = [...kept, line].join('\n');
    if (lyricsTokens(candidate) > maxTokens) break;
    kept.push(line);
  }
  while (kept.length > 0) {
    const last = kept[kept.length - 1] ?? '';
    if (last.trim() === '' || /^\[.*\]$/.test(last.trim())) kept = kept.slice(0, -1);
    else break;
  }
  const out = kept.join('\n');
  return { text: out, tokens: lyricsTokens(out) };
}
