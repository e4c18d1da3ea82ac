/**
 * The two texts ACE-Step 1.5 is conditioned on, in the model's own templates. The caption text
 * is `SFT_GEN_PROMPT` filled with `DEFAULT_DIT_INSTRUCTION`, the caption and the metadata block;
 * the lyric text is `# Languages` + language + `# Lyric` + lyrics. Source: ace-step/ACE-Step-1.5,
 * `acestep/constants.py` (SFT_GEN_PROMPT, DEFAULT_DIT_INSTRUCTION) and `acestep/handler.py`
 * (`_dict_to_meta_string`, `_format_lyrics`; absent metadata reads "N/A", the duration is whole
 * seconds, a song without lyrics is sung as "[Instrumental]"). The model was trained on exactly
 * these texts: a bare caption conditions it on something it never saw.
 */
import { explicitTempoAndKey } from '../text-encoder.ts';

export const DEFAULT_DIT_INSTRUCTION = 'Fill the audio semantic mask based on the given conditions:';
/** `TASK_INSTRUCTIONS["repaint"]`: a repaint's and an extend's (the reference's repaint task, in and outpainting). */
export const REPAINT_INSTRUCTION = 'Repaint the mask area based on the given conditions:';
/** `TASK_INSTRUCTIONS["cover"]`: the instruction a remix (the reference's cover) is conditioned on. */
export const COVER_INSTRUCTION = 'Generate audio semantic tokens based on the given conditions:';
const END_OF_TEXT = '<|endoftext|>';
const INSTRUMENTAL = '[Instrumental]';
/** ACE-Step's own default when the vocal language is not given: the model infers it from the lyrics. */
const UNKNOWN_LANGUAGE = 'unknown';

export interface SongMetadata {
  bpm: number | undefined;
  /** ACE-Step's `keyscale`: `F# minor`, `Bb major`. */
  keyscale: string | undefined;
  /** Beats per bar (ACE-Step writes the numerator only: 2, 3, 4, 6). */
  timeSignature: number | undefined;
  durationSeconds: number;
}

const TIME_SIGNATURE = /\b([2-9]|1[0-2])\s*\/\s*(4|8)\b/;

/** The metadata a prompt states (BPM, key, time signature), beside the asked duration. */
export function promptMetadata(prompt: string, durationSeconds: number): SongMetadata {
  const { bpm, key } = explicitTempoAndKey(prompt);
  const signature = TIME_SIGNATURE.exec(prompt)?.[1];
  return {
    bpm,
    keyscale: key === undefined ? undefined : `${key.tonic} ${key.mode ?? 'major'}`,
    timeSignature: signature === undefined ? undefined : Number(signature),
    durationSeconds,
  };
}

export function metadataBlock(meta: SongMetadata): string {
  const na = (value: number | string | undefined): string => (value === undefined ? 'N/A' : String(value));
  return `- bpm: ${na(meta.bpm)}\n- timesignature: ${na(meta.timeSignature)}\n- keyscale: ${na(meta.keyscale)}\n- duration: ${Math.trunc(meta.durationSeconds)} seconds\n`;
}

export function captionText(caption: string, meta: SongMetadata, instruction: string = DEFAULT_DIT_INSTRUCTION): string {
  return `# Instruction\n${instruction}\n\n# Caption\n${caption.trim()}\n\n# Metas\n${metadataBlock(meta)}${END_OF_TEXT}\n`;
}

export function lyricText(lyrics: string | null, language: string = UNKNOWN_LANGUAGE): string {
  const sung = lyrics === null || lyrics.trim() === '' ? INSTRUMENTAL : lyrics.trim();
  return `# Languages\n${language}\n\n# Lyric\n${sung}${END_OF_TEXT}`;
}
