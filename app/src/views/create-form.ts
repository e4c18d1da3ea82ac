import { createPreview, generate, getProfile, SongmintApiError, waitForPreview } from '@songmint/sdk';
import type { JobSummary, UserProfile } from '@songmint/sdk';
import { announce, messagesNear, runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf } from '../context.ts';
import { h } from '../dom.ts';
import { count, songsLeft, whenLocal } from '../format.ts';
import { describeLongest, lengthChoices, longestSong } from '../song-length.ts';

/** What the create form holds, kept in localStorage so a reload loses nothing typed. */
export interface GenerateInputs {
  prompt: string;
  duration: number;
  withLyrics: boolean;
  lyrics: string;
}
const FORM_KEY = 'songmint.generate-form';
/** The lengths the form offers, cut to what the plan and the running model allow (../song-length.ts). */
const USUAL_LENGTHS = [10, 20, 30] as const;
/** The length of a preview the form asks for. */
const PREVIEW_SECONDS = 10;
/** The inputs of each job this browser queued (`songmint.job.<id>`): a retry sends them again. */
const jobKey = (jobId: string) => `songmint.job.${jobId}`;
/** The API's bounds (docs/api.md: a prompt of 1 to 500 characters, typed lyrics up to 5,000). */
const PROMPT_MAX_CHARS = 500;
const LYRICS_MAX_CHARS = 5000;
/** Said on `window` whenever something may have used a song of the day (Generate, Try again, an edit): the count next to Generate reads the profile again. */
export const CHARGED_EVENT = 'songmint:charged';
/** A library card's job ended (ready, failed or cancelled): a CustomEvent on `window` whose `detail` is the job id. */
export const JOB_ENDED_EVENT = 'songmint:job-ended';

export function readStored<T>(key: string): Partial<T> {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? {} : (JSON.parse(raw) as Partial<T>);
  } catch {
    return {};
  }
}

function store(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the form still works, it is only not kept.
  }
}

/** Queues a song and records its inputs (for a retry); the caller shows its card. */
export async function queueSong(context: AppContext, inputs: GenerateInputs): Promise<{ job: JobSummary; position: number }> {
  const lyrics = inputs.lyrics.trim();
  try {
    const job = await generate(apiOf(context), {
      prompt: inputs.prompt,
      duration: inputs.duration,
      withLyrics: inputs.withLyrics && lyrics === '',
      ...(lyrics === '' ? {} : { lyrics }),
    });
    store(jobKey(job.jobId), inputs);
    return {
      position: job.position,
      job: {
        job_id: job.jobId,
        status: 'queued',
        progress: 0,
        prompt: inputs.prompt,
        duration: inputs.duration,
        created_at: new Date().toISOString(),
        audio_url: null,
        audio_hash: null,
        error_code: null,
        edit_of: null,
        title: null,
        nft_token_id: null,
        deleted_at: null,
      },
    };
  } finally {
    window.dispatchEvent(new Event(CHARGED_EVENT));
  }
}

/** The inputs a failed or cancelled song was queued with (as typed in this browser, else its prompt and length). */
export function retryInputs(job: JobSummary): GenerateInputs {
  const saved = readStored<GenerateInputs>(jobKey(job.job_id));
  return { prompt: job.prompt, duration: job.duration, withLyrics: saved.withLyrics ?? true, lyrics: saved.lyrics ?? '' };
}

/** What the note under the lyrics promises: sung only when every live worker's model sings (the profile's `models`). */
function lyricsPromise(models: UserProfile['models'] | undefined): string {
  if (models === undefined) return 'Lyrics typed here are used instead of lyrics written for you.';
  if (models.sings) return 'Lyrics typed here are sung as written, instead of lyrics written for you.';
  const names = models.live.map((model) => model.name).join(', ');
  return `The model making songs here${names === '' ? '' : ` (${names})`} makes instrumental music: lyrics, yours or written for you, shape the song and are kept with it, but no voice sings them.`;
}

/**
 * Describe a song: prompt, length, lyrics (typed, or written for you), a private 10 s preview,
 * Generate. What is left today stays next to Generate, read again after anything that may have
 * used a song (`CHARGED_EVENT`).
 */
export function createForm(context: AppContext, queue: (job: JobSummary) => void): HTMLElement {
  const saved = readStored<GenerateInputs>(FORM_KEY);
  const prompt = h('textarea', { id: 'prompt', name: 'prompt', rows: 3, required: true, 'aria-describedby': 'prompt-error' });
  prompt.value = typeof saved.prompt === 'string' ? saved.prompt : 'dreamy synthwave, 96 bpm, in A minor';
  const promptError = h('p', { id: 'prompt-error', class: 'error field-error', hidden: true });
  const duration = h('select', { id: 'duration', name: 'duration', 'aria-describedby': 'duration-note' });
  const durationNote = h('p', { id: 'duration-note', class: 'note', hidden: true });
  /** Offers the usual lengths within `longest` seconds, keeping the chosen one where it still fits. */
  const offerLengths = (longest: number) => {
    const wanted = Number(duration.value || (saved.duration ?? 10));
    const choices = lengthChoices(longest, USUAL_LENGTHS);
    duration.replaceChildren(...choices.map((seconds) => h('option', { value: String(seconds) }, `${seconds} seconds`)));
    duration.value = String(
      choices.includes(wanted) ? wanted : (choices.filter((seconds) => seconds <= wanted).at(-1) ?? choices[0] ?? ''),
    );
  };
  offerLengths(Math.max(...USUAL_LENGTHS));
  const withLyrics = h('input', { type: 'checkbox', id: 'with-lyrics', name: 'with-lyrics', checked: saved.withLyrics ?? true });
  const withLyricsNote = h('span', { id: 'with-lyrics-note', class: 'note' });
  const lyrics = h('textarea', {
    id: 'lyrics',
    name: 'lyrics',
    rows: 4,
    'aria-describedby': 'lyrics-note lyrics-count',
    placeholder: '[verse]\nYour words here\n[chorus]\n…',
  });
  lyrics.value = typeof saved.lyrics === 'string' ? saved.lyrics : '';
  const lyricsCount = h('p', { id: 'lyrics-count', class: 'note' });
  const lyricsNote = h('p', { id: 'lyrics-note', class: 'note' }, lyricsPromise(undefined));
  /** Whether "Write lyrics for me" was ticked before the person typed their own. */
  let wantsWritten = withLyrics.checked;
  const inputs = (): GenerateInputs => ({
    prompt: prompt.value,
    duration: Number(duration.value),
    withLyrics: wantsWritten,
    lyrics: lyrics.value,
  });

  // Typed lyrics are used as they are: "Write lyrics for me" is off while there are any, and the
  // count says how much of the 5,000 characters they use (nothing is cut without a word).
  const showLyrics = () => {
    const typed = lyrics.value.trim() !== '';
    withLyrics.checked = typed ? false : wantsWritten;
    withLyrics.disabled = typed;
    withLyricsNote.textContent = typed ? ' (off: your lyrics are used)' : '';
    const used = [...lyrics.value].length;
    const over = used - LYRICS_MAX_CHARS;
    lyricsCount.textContent =
      over > 0
        ? `${count(used, 'character')}: ${count(over, 'character')} over the ${LYRICS_MAX_CHARS.toLocaleString('en-US')} a song takes. Shorten them.`
        : `${used.toLocaleString('en-US')} of ${LYRICS_MAX_CHARS.toLocaleString('en-US')} characters`;
    lyricsCount.classList.toggle('error', over > 0);
    lyrics.setAttribute('aria-invalid', String(over > 0));
  };
  withLyrics.addEventListener('change', () => {
    wantsWritten = withLyrics.checked;
  });
  lyrics.addEventListener('input', showLyrics);
  showLyrics();

  /** A preview's length: 10 s, or less where the running model finishes less. */
  let previewSeconds: number = PREVIEW_SECONDS;
  const previewButton = h('button', { type: 'button', id: 'preview', class: 'secondary', 'data-action': true }, 'Preview 10 s');
  const generateButton = h('button', { type: 'submit', id: 'generate', 'aria-describedby': 'songs-left' }, 'Generate');
  const left = h('p', { id: 'songs-left', class: 'note', 'aria-live': 'polite' });
  /** The last Generate was refused by a limit: its alert says what this line would, and when to come back. */
  let refusedByLimit = false;
  // The profile: what the next Generate has left, and whether the running model sings.
  const readProfile = async () => {
    const profile = await getProfile(apiOf(context), { signal: context.signal });
    left.textContent = songsLeft(profile.limits.songs);
    left.hidden = refusedByLimit;
    lyricsNote.textContent = lyricsPromise(profile.models);
    const longest = longestSong(profile);
    offerLengths(longest.seconds);
    previewSeconds = Math.min(PREVIEW_SECONDS, longestSong(profile).seconds);
    durationNote.hidden = longest.limitedBy !== 'model';
    durationNote.textContent = `Lengths up to ${longest.seconds} s: ${describeLongest(longest)} within the job time limit.`;
  };
  const refresh = () => void readProfile().catch(() => undefined);
  window.addEventListener(CHARGED_EVENT, refresh);
  context.signal.addEventListener('abort', () => window.removeEventListener(CHARGED_EVENT, refresh));
  const previewPlayer = h('audio', { id: 'preview-player', controls: true, preload: 'auto', hidden: true, 'aria-label': 'Preview' });
  const quota = h(
    'p',
    { id: 'preview-quota', class: 'note' },
    'A preview is a separate, private 10 second take to hear the idea; it costs none of your daily songs. Generate makes a new, full song from the same description.',
  );
  const fields = h(
    'fieldset',
    { id: 'generate-fields', 'data-action': true },
    h('legend', {}, 'Describe a song'),
    h('label', { for: 'prompt' }, 'Prompt'),
    prompt,
    promptError,
    h(
      'div',
      { class: 'row' },
      h('div', {}, h('label', { for: 'duration' }, 'Length'), duration, durationNote),
      h('div', { class: 'check' }, withLyrics, h('label', { for: 'with-lyrics' }, 'Write lyrics for me', withLyricsNote)),
    ),
    h('label', { for: 'lyrics' }, 'Your lyrics (optional)'),
    lyrics,
    lyricsCount,
    lyricsNote,
    h('div', { class: 'row' }, previewButton, generateButton, left),
  );
  refresh();
  const form = h('form', { id: 'generate-form', class: 'panel', novalidate: true }, fields, quota, previewPlayer);
  // Everything typed is kept across a reload.
  form.addEventListener('input', () => store(FORM_KEY, inputs()));
  form.addEventListener('change', () => store(FORM_KEY, inputs()));

  /** A refusal of what was typed, next to the field it is about (not under the buttons). */
  const fieldError = (message: string | undefined) => {
    promptError.textContent = message ?? '';
    promptError.hidden = message === undefined;
    prompt.setAttribute('aria-invalid', String(message !== undefined));
    if (message !== undefined) prompt.focus();
  };
  prompt.addEventListener('input', () => {
    if (!promptError.hidden) fieldError(undefined);
  });
  /** The form's own checks before anything is sent (and charged): false when it said why. */
  const checked = (): boolean => {
    const text = prompt.value.trim();
    if (text === '') {
      fieldError('Describe the song in a few words: the prompt is empty.');
      return false;
    }
    if ([...text].length > PROMPT_MAX_CHARS) {
      fieldError(`The prompt is ${[...text].length} characters: shorten it to ${PROMPT_MAX_CHARS}.`);
      return false;
    }
    fieldError(undefined);
    if ([...lyrics.value].length > LYRICS_MAX_CHARS) {
      lyrics.focus();
      return false;
    }
    return true;
  };
  /** The API's GEN_003 (the prompt refused) goes next to the prompt too; anything else to the buttons. */
  const promptRefused = (error: unknown): boolean => {
    if (!(error instanceof SongmintApiError && error.code === 'GEN_003')) return false;
    const why = typeof error.details === 'string' && error.details !== '' ? error.details : error.message;
    fieldError(`The prompt was refused: ${why.replace(/^prompt: /, '').replace(/\.$/, '')}.`);
    return true;
  };

  previewButton.addEventListener('click', () => {
    if (!checked()) return;
    void runAction(previewButton, 'Making a 10 s preview', async () => {
      const api = apiOf(context);
      const typed = lyrics.value.trim();
      try {
        const queued = await createPreview(api, {
          prompt: prompt.value,
          duration: previewSeconds,
          withLyrics: withLyrics.checked,
          ...(typed === '' ? {} : { lyrics: typed }),
        });
        if (queued.quota !== undefined) {
          quota.textContent = `Previews left this hour: ${queued.quota.remaining} of ${queued.quota.limit} (the count resets at ${whenLocal(queued.quota.resetAt)}).`;
        }
        const preview = await waitForPreview(api, { sessionId: queued.sessionId, signal: context.signal });
        previewPlayer.src = preview.previewUrl;
        previewPlayer.hidden = false;
        announce(
          `Preview ready (${preview.duration} s), playing. It is a separate short take: Generate makes a new, full song from the same description.`,
        );
        await previewPlayer.play().catch(() => undefined);
      } catch (error) {
        if (!promptRefused(error)) throw error;
      }
    });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!checked()) return;
    void runAction(fields, 'Queueing your song', async () => {
      refusedByLimit = false;
      left.hidden = false;
      try {
        const queued = await queueSong(context, inputs());
        const line = `Song queued, position ${queued.position}: it is at the top of your songs.`;
        announce(line);
        // Once the song is made the queue position is no longer true: the line goes (the card says it is ready).
        const status = messagesNear(fields).status;
        const ended = (event: Event) => {
          if ((event as CustomEvent<string>).detail !== queued.job.job_id) return;
          window.removeEventListener(JOB_ENDED_EVENT, ended);
          if (status.textContent === line) status.textContent = '';
        };
        window.addEventListener(JOB_ENDED_EVENT, ended);
        context.signal.addEventListener('abort', () => window.removeEventListener(JOB_ENDED_EVENT, ended));
        queue(queued.job);
      } catch (error) {
        if (promptRefused(error)) return;
        // A limit's refusal says what the line under Generate says, and when to come back: said once,
        // in the alert (the line returns with the next read of the limits).
        if (error instanceof SongmintApiError && error.code.startsWith('RATE_')) {
          refusedByLimit = true;
          left.hidden = true;
        }
        throw error;
      }
    }).then(() => {
      // The fieldset was disabled while it ran: its button lost the focus. Back to it, unless the
      // new card took it.
      if (document.activeElement === document.body || document.activeElement === null) generateButton.focus();
    });
  });
  return form;
}
