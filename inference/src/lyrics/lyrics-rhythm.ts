/**
 * How lyrics shape the music: the syllables of the first sung line are spread over a bar of
 * sixteenth notes and become the melody's accent pattern (a word's first syllable accented), so
 * the melody's note rhythm follows the words.
 */

function syllables(word: string): number {
  const groups = word
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .match(/[aeiouy]+/g);
  const count = groups?.length ?? 0;
  return Math.max(1, word.toLowerCase().endsWith('e') && count > 1 ? count - 1 : count);
}

/** Accent per sixteenth note of a bar from the first lyric line (tags skipped). */
export function lyricsRhythm(lyrics: string, fallback: readonly number[]): Float32Array {
  const line = lyrics
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !/^\[.*\]$/.test(l));
  if (line === undefined) return Float32Array.from(fallback);
  const accents: number[] = [];
  for (const word of line.split(/\s+/).filter((w) => /[a-z]/i.test(w))) {
    const n = syllables(word);
    for (let s = 0; s < n; s += 1) accents.push(s === 0 ? 1 : 0.6);
  }
  const rhythm = new Float32Array(16);
  const used = Math.min(16, accents.length);
  for (let k = 0; k < used; k += 1) {
    const position = Math.floor((k * 16) / used);
    rhythm[position] = Math.max(rhythm[position] ?? 0, accents[k] ?? 0);
  }
  return rhythm;
}
