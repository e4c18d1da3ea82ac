/**
 * Text encoder: maps prompt words to the model's conditioning vector using the vocabulary in the
 * model manifest (genre, mood, tempo, instrument words), plus explicit "<n> bpm" and key phrases
 * ("in F# minor", "key of D"). Words apply in prompt order; later words refine earlier ones.
 */
import type { ModelManifest } from './manifest.ts';

export interface EncodedPrompt {
  conditioning: Float32Array;
  values: Readonly<Record<string, number>>;
  /** Vocabulary phrases and explicit settings found, in order. */
  matched: readonly string[];
}

const MAX_PHRASE_WORDS = 3;
const PITCH_CLASS: Readonly<Record<string, number>> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };
const KEY_PATTERN = /\b(?:in|key of)\s+([a-g])(#|b|\s+sharp|\s+flat)?(?:\s+(major|minor|maj|min))?\b/;
const KEY_SUFFIX_PATTERN = /\b([a-g])(#|b)?\s+(major|minor)\s+key\b/;
const BPM_PATTERN = /\b(\d{2,3})\s*bpm\b/;

function tokenize(prompt: string): string[] {
  return prompt
    .toLowerCase()
    .replace(/[^a-z0-9#\s-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

export interface ExplicitKey {
  /** 0 = C .. 11 = B. */
  pitchClass: number;
  /** The tonic as written, capitalised with its accidental: `F#`, `Bb`, `C`. */
  tonic: string;
  mode: 'major' | 'minor' | undefined;
  /** The phrase that said it (`in f# minor`). */
  phrase: string;
}

/** The tempo ("96 bpm") and key ("in F# minor", "key of D", "Bb major key") a prompt states, if any. */
export function explicitTempoAndKey(prompt: string): { bpm: number | undefined; key: ExplicitKey | undefined } {
  const text = prompt.toLowerCase();
  const bpm = BPM_PATTERN.exec(text)?.[1];
  const key = KEY_PATTERN.exec(text) ?? KEY_SUFFIX_PATTERN.exec(text);
  if (key?.[1] === undefined) return { bpm: bpm === undefined ? undefined : Number(bpm), key: undefined };
  const accidental = (key[2] ?? '').trim();
  const shift = accidental === '#' || accidental === 'sharp' ? 1 : accidental === 'b' || accidental === 'flat' ? -1 : 0;
  const mode = key[3] === undefined ? undefined : key[3].startsWith('min') ? ('minor' as const) : ('major' as const);
  return {
    bpm: bpm === undefined ? undefined : Number(bpm),
    key: {
      pitchClass: ((PITCH_CLASS[key[1]] ?? 0) + shift + 12) % 12,
      tonic: `${key[1].toUpperCase()}${shift === 1 ? '#' : shift === -1 ? 'b' : ''}`,
      mode,
      phrase: key[0].trim(),
    },
  };
}

export function encodePrompt(prompt: string, conditioning: ModelManifest['conditioning']): EncodedPrompt {
  const values: Record<string, number> = {};
  for (const field of conditioning.fields) values[field.name] = field.default;
  const matched: string[] = [];
  const apply = (phrase: string): void => {
    const entry = conditioning.vocabulary[phrase];
    if (entry === undefined) return;
    for (const [name, v] of Object.entries(entry.set ?? {})) values[name] = v;
    for (const [name, v] of Object.entries(entry.add ?? {})) values[name] = (values[name] ?? 0) + v;
    matched.push(phrase);
  };

  const words = tokenize(prompt);
  for (let i = 0; i < words.length;) {
    let consumed = 1;
    for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 1; n -= 1) {
      const phrase = words.slice(i, i + n).join(' ');
      if (conditioning.vocabulary[phrase] !== undefined) {
        apply(phrase);
        consumed = n;
        break;
      }
    }
    i += consumed;
  }

  const explicit = explicitTempoAndKey(prompt);
  if (explicit.bpm !== undefined && 'bpm' in values) {
    values.bpm = explicit.bpm;
    matched.push(`${explicit.bpm} bpm`);
  }
  if (explicit.key !== undefined && 'key' in values) {
    values.key = explicit.key.pitchClass;
    if (explicit.key.mode !== undefined && 'minor' in values) values.minor = explicit.key.mode === 'minor' ? 1 : 0;
    matched.push(`key ${explicit.key.phrase}`);
  }

  const vector = new Float32Array(conditioning.fields.length);
  conditioning.fields.forEach((field, index) => {
    const v = Math.min(field.max, Math.max(field.min, values[field.name] ?? field.default));
    values[field.name] = v;
    vector[index] = v;
  });
  return { conditioning: vector, values, matched };
}
