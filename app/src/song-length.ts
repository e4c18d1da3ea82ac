/**
 * The longest song the next request may ask for: the tighter of the tier's maximum (the profile's
 * `max_duration`) and what the running model finishes within the job limit (the profile's
 * `models.max_duration`, measured by the live workers at start). The app offers only lengths
 * within it, so a length the model cannot finish is never asked for (the API would answer GEN_004).
 */
import type { UserProfile } from '@songmint/sdk';

/** The spec's shortest song. */
export const SHORTEST_SONG_SECONDS = 5;

export interface LongestSong {
  seconds: number;
  /** `model`: the running model is the tighter limit; `plan`: the tier is. */
  limitedBy: 'model' | 'plan';
}

export function longestSong(profile: Pick<UserProfile, 'max_duration' | 'models'>, steps: '27' | '60' = '27'): LongestSong {
  const model = profile.models.max_duration[steps];
  return model !== null && model < profile.max_duration
    ? { seconds: model, limitedBy: 'model' }
    : { seconds: profile.max_duration, limitedBy: 'plan' };
}

/** The lengths to offer from `lengths`: those within `longest`, and `longest` itself when a usual length is cut. */
export function lengthChoices(longest: number, lengths: readonly number[]): number[] {
  const within = lengths.filter((seconds) => seconds <= longest);
  if (longest >= SHORTEST_SONG_SECONDS && within.length < lengths.length && !within.includes(longest)) within.push(longest);
  return within;
}

/** Words for the limit, e.g. "the running model finishes at most 12 s" or "your plan allows 30 s". */
export function describeLongest(longest: LongestSong): string {
  return longest.limitedBy === 'model'
    ? `the running model finishes at most ${longest.seconds} s`
    : `your plan allows ${longest.seconds} s`;
}
