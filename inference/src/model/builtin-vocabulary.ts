/**
 * Conditioning vocabulary of the built-in model: prompt words and phrases and what they do to the
 * conditioning vector. Written into the model's manifest by scripts/build-model.ts.
 */
import type { VocabularyEntry } from './manifest.ts';

export const BUILTIN_VOCABULARY: Readonly<Record<string, VocabularyEntry>> = {
  // Genres: tempo, groove and instrument balance.
  pop: { set: { bpm: 112, groove: 0, density: 0.55 } },
  rock: { set: { bpm: 124, groove: 0, drums: 0.95, brightness: 0.65 } },
  metal: { set: { bpm: 168, groove: 0, drums: 1, brightness: 0.85, minor: 1, density: 0.8 } },
  punk: { set: { bpm: 176, groove: 0, drums: 1, density: 0.75 } },
  house: { set: { bpm: 124, groove: 1, density: 0.7, drums: 0.95 } },
  techno: { set: { bpm: 132, groove: 1, density: 0.75, minor: 1, drums: 1 } },
  edm: { set: { bpm: 128, groove: 1, density: 0.7, brightness: 0.75 } },
  disco: { set: { bpm: 118, groove: 1, density: 0.7, brightness: 0.7 } },
  dance: { set: { groove: 1 }, add: { bpm: 8, density: 0.1 } },
  'hip hop': { set: { bpm: 90, groove: 2, bass: 1, density: 0.45 } },
  hiphop: { set: { bpm: 90, groove: 2, bass: 1, density: 0.45 } },
  trap: { set: { bpm: 140, groove: 2, bass: 1, minor: 1, density: 0.7 } },
  'lo-fi': { set: { bpm: 78, groove: 2, brightness: 0.25, legato: 0.6, density: 0.35 } },
  lofi: { set: { bpm: 78, groove: 2, brightness: 0.25, legato: 0.6, density: 0.35 } },
  jazz: { set: { bpm: 104, groove: 0, drums: 0.5, legato: 0.7, brightness: 0.45, density: 0.6 } },
  funk: { set: { bpm: 104, groove: 0, bass: 1, density: 0.7 } },
  reggae: { set: { bpm: 76, groove: 2, bass: 1, density: 0.4 } },
  ambient: { set: { bpm: 66, drums: 0.05, pad: 1, legato: 1, density: 0.2, brightness: 0.35 } },
  classical: { set: { bpm: 84, drums: 0, pad: 0.8, legato: 0.8, density: 0.5 } },
  ballad: { set: { bpm: 70, drums: 0.45, legato: 0.85, density: 0.3 } },
  folk: { set: { bpm: 96, drums: 0.4, legato: 0.5, brightness: 0.5 } },
  cinematic: { set: { bpm: 80, pad: 1, legato: 0.9, width: 1 } },
  // Tempo words.
  slow: { add: { bpm: -28, density: -0.15 } },
  chill: { add: { bpm: -16, brightness: -0.1, density: -0.1 } },
  relaxed: { add: { bpm: -16, density: -0.1 } },
  fast: { add: { bpm: 30, density: 0.15 } },
  upbeat: { add: { bpm: 18, density: 0.1 }, set: { minor: 0 } },
  energetic: { add: { bpm: 22, density: 0.2, drums: 0.15 } },
  driving: { add: { bpm: 10, drums: 0.15 } },
  // Moods: mode and brightness.
  happy: { set: { minor: 0 }, add: { brightness: 0.2 } },
  joyful: { set: { minor: 0 }, add: { brightness: 0.2 } },
  uplifting: { set: { minor: 0 }, add: { brightness: 0.25 } },
  bright: { set: { minor: 0 }, add: { brightness: 0.35 } },
  sunny: { set: { minor: 0 }, add: { brightness: 0.25 } },
  sad: { set: { minor: 1 }, add: { brightness: -0.25, bpm: -10 } },
  melancholic: { set: { minor: 1 }, add: { brightness: -0.25 } },
  melancholy: { set: { minor: 1 }, add: { brightness: -0.25 } },
  dark: { set: { minor: 1 }, add: { brightness: -0.35 } },
  moody: { set: { minor: 1 }, add: { brightness: -0.2 } },
  gloomy: { set: { minor: 1 }, add: { brightness: -0.3 } },
  epic: { add: { pad: 0.3, width: 0.3, drums: 0.1 } },
  dreamy: { add: { legato: 0.3, width: 0.3, brightness: -0.1 } },
  aggressive: { add: { brightness: 0.3, drums: 0.2, density: 0.2 } },
  warm: { add: { brightness: -0.15, pad: 0.15 } },
  // Instruments and arrangement.
  piano: { set: { legato: 0.6 }, add: { lead: 0.1 } },
  synth: { add: { brightness: 0.15, pad: 0.1 } },
  guitar: { add: { brightness: 0.1, lead: 0.1 } },
  strings: { add: { pad: 0.3, legato: 0.2 } },
  'bass heavy': { set: { bass: 1 } },
  'no drums': { set: { drums: 0 } },
  acoustic: { add: { drums: -0.3, brightness: -0.05 } },
  minimal: { add: { density: -0.25, pad: -0.2 } },
  busy: { add: { density: 0.3 } },
  wide: { set: { width: 1 } },
  mono: { set: { width: 0 } },
  major: { set: { minor: 0 } },
  minor: { set: { minor: 1 } },
};

/** Accent per sixteenth note when no lyrics shape the melody's rhythm. */
export const BUILTIN_DEFAULT_RHYTHM = [1, 0, 0.5, 0, 0.8, 0, 0.5, 0.3, 1, 0, 0.5, 0, 0.8, 0.3, 0.5, 0.2];
