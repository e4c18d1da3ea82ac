/**
 * The built-in lyrics generator: deterministic (seeded) template lyrics about the prompt's own
 * words, in the prompt's mood, laid out as verse / chorus / verse / chorus / bridge / chorus and
 * sized to the song, at most 512 tokens.
 */
import type { GeneratedLyrics, LyricsGenerator, LyricsRequest } from './lyrics-generator.ts';
import { LYRICS_TOKENIZER, truncateLyrics } from './token-budget.ts';

const STOPWORDS = new Set(
  'a an the and or but of in on at to for with from by about into over under song track music beat beats bpm tempo style vibe vibes feel feeling like some very really make made sound sounds sounding song with without no key major minor'.split(
    ' ',
  ),
);
const BRIGHT = ['light', 'sun', 'gold', 'open sky', 'morning', 'fire', 'summer', 'dance'];
const DARK = ['shadow', 'rain', 'night', 'cold wind', 'silence', 'smoke', 'winter', 'midnight'];
const DARK_WORDS = new Set(['dark', 'sad', 'melancholic', 'melancholy', 'moody', 'gloomy', 'minor', 'lonely', 'night']);

const VERSE_LINES = [
  'I walk the road where the {w} begins',
  'Every {w} tells me where I have been',
  'Counting {i} in the {w} tonight',
  'Holding on to the {w} till the morning light',
  'We were young and the {w} was wide',
  'Carry the {i} on the other side',
  'Under the {i} I can hear your name',
  'Nothing about the {w} stays the same',
];
const CHORUS_LINES = [
  'Oh {w}, {w}, take me home',
  'Sing it loud, we are not alone',
  'All the {i} in the {w} tonight',
  'Hold me close and we will be alright',
];
const BRIDGE_LINES = [
  'And when the {i} falls down',
  'I will find you in the {w}',
  'Turn it up, turn it round',
  'Till the {w} is all we know',
];

/** mulberry32: a small deterministic PRNG seeded from the job seed. */
function prng(seed: bigint): () => number {
  let state = Number(seed & 0xffffffffn) ^ Number((seed >> 32n) & 0xffffffffn);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function themeWords(prompt: string): { themes: string[]; dark: boolean } {
  const words = prompt
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2);
  const dark = words.some((w) => DARK_WORDS.has(w));
  const themes = [...new Set(words.filter((w) => !STOPWORDS.has(w) && !DARK_WORDS.has(w)))];
  return { themes: themes.length > 0 ? themes : ['heart'], dark };
}

export function writeLyrics(request: Omit<LyricsRequest, 'signal'>): GeneratedLyrics {
  const random = prng(request.seed);
  const { themes, dark } = themeWords(request.prompt);
  const imagery = dark ? DARK : BRIGHT;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] ?? (list[0] as T);
  const fill = (template: string): string => template.replace(/\{w\}/g, () => pick(themes)).replace(/\{i\}/g, () => pick(imagery));
  const section = (tag: string, templates: readonly string[], count: number): string => {
    const lines = Array.from({ length: count }, () => fill(pick(templates)));
    return [`[${tag}]`, ...lines].join('\n');
  };
  // Longer songs get longer verses and more sections; the token limit truncates the longest.
  const versesLines = Math.max(2, Math.min(12, Math.round(request.durationSeconds / 12)));
  const chorus = section('chorus', CHORUS_LINES, 4);
  const parts = [
    section('verse', VERSE_LINES, versesLines),
    chorus,
    section('verse', VERSE_LINES, versesLines),
    chorus,
    section('bridge', BRIDGE_LINES, Math.max(2, Math.round(versesLines / 2))),
    chorus,
    section('verse', VERSE_LINES, versesLines),
    chorus,
    chorus,
  ];
  const sectionsWanted = Math.max(2, Math.min(parts.length, Math.ceil(request.durationSeconds / 20)));
  const truncated = truncateLyrics(parts.slice(0, sectionsWanted).join('\n\n'), request.maxNewTokens);
  return { text: truncated.text, tokens: truncated.tokens, tokenizer: LYRICS_TOKENIZER };
}

export const builtinLyricsGenerator: LyricsGenerator = {
  name: 'builtin-template',
  generate(request) {
    if (request.signal.aborted)
      return Promise.reject(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'));
    return Promise.resolve(writeLyrics(request));
  },
};
