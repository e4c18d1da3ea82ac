/** The built-in model's identity and its conditioning vector, which the text encoder fills by name. */

export const BUILTIN_SAMPLE_RATE = 44100;
export const BUILTIN_MODEL_NAME = 'songmint-builtin-procedural';
export const BUILTIN_MODEL_VERSION = '1.1.0';

/** Conditioning vector layout; the text encoder writes these by name. */
export const CONDITIONING_FIELDS = [
  { name: 'bpm', default: 112, min: 50, max: 200, meaning: 'tempo in beats per minute' },
  { name: 'key', default: 0, min: 0, max: 11, meaning: 'tonic pitch class, 0 = C' },
  { name: 'minor', default: 0, min: 0, max: 1, meaning: '1 = natural minor, 0 = major' },
  { name: 'brightness', default: 0.5, min: 0, max: 1, meaning: 'lead partial roll-off, hats, bass drive' },
  { name: 'density', default: 0.5, min: 0, max: 1, meaning: 'melody note rate, hat and bass subdivision' },
  { name: 'drums', default: 0.8, min: 0, max: 1, meaning: 'drum level' },
  { name: 'bass', default: 0.8, min: 0, max: 1, meaning: 'bass level' },
  { name: 'pad', default: 0.6, min: 0, max: 1, meaning: 'chord pad level' },
  { name: 'lead', default: 0.7, min: 0, max: 1, meaning: 'melody level' },
  { name: 'groove', default: 0, min: 0, max: 2, meaning: '0 backbeat, 1 four-on-the-floor, 2 half-time' },
  { name: 'width', default: 0.6, min: 0, max: 1, meaning: 'stereo width of pad and hats' },
  { name: 'legato', default: 0.4, min: 0, max: 1, meaning: 'melody note decay length' },
] as const;

export type ConditioningName = (typeof CONDITIONING_FIELDS)[number]['name'];
