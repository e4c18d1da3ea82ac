import { changeProfile, getCreator, SongmintApiError } from '@songmint/sdk';
import type { CreatorProfile, ProfileChange, PublicProfile } from '@songmint/sdk';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import { announce, runAction, showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { apiOf } from '../context.ts';
import { h } from '../dom.ts';
import { eth, pricePerMillion, shortAddress, tokens } from '../format.ts';
import { shareButton } from '../share.ts';
import { publicCardHead } from './public-card-head.ts';

const dollars = (usd: string | null) =>
  usd === null ? '' : ` (≈ $${Number(usd).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })})`;
const date = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

function songCard(context: AppContext, song: CreatorProfile['songs'][number]): HTMLLIElement {
  const title = song.title ?? `Song #${song.song_id}`;
  const coin = song.coin;
  return h(
    'li',
    { class: 'card', 'data-song-id': song.song_id },
    publicCardHead(context, {
      image: song.image,
      title,
      href: song.page_url,
      line: song.minted_at === null ? `Song #${song.song_id}` : `Minted ${date(song.minted_at)} as #${song.song_id}`,
    }),
    coin === null
      ? h('p', { class: 'note' }, 'Not launched: no coin yet.')
      : h(
          'p',
          { class: 'coin-line', 'data-market-cap': coin.market_cap?.eth ?? '' },
          `${coin.symbol}: market cap ${coin.market_cap === null ? 'not yet' : `${eth(BigInt(coin.market_cap.eth))}${dollars(coin.market_cap.usd)}`}`,
          coin.price_eth_per_million_tokens === null ? '' : ` · ${pricePerMillion(coin.price_eth_per_million_tokens)}`,
          ` · 24 h volume ${eth(BigInt(coin.volume_24h.eth))}`,
        ),
  );
}

/** What the API takes as an avatar (checked there as covers are: the bytes must be the type declared). */
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

function dataUriOf(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () => resolve(String(reader.result)));
    reader.addEventListener('error', () => reject(new Error('The image could not be read: choose it again.')));
    reader.readAsDataURL(file);
  });
}

/** The API's refusal in its own words: the Variant C `details.reason` says which field and why. */
function refusal(error: unknown): unknown {
  if (!(error instanceof SongmintApiError) || typeof error.details !== 'object') return error;
  const reason = error.details.reason;
  return typeof reason === 'string' ? new Error(`${error.message.replace(/^[A-Z_0-9]+: /, '')}: ${reason}.`) : error;
}

/** The profile's head: the picture, the name (else the address), the address, the bio, the Farcaster username. */
function renderHead(head: HTMLElement, heading: HTMLElement, address: string, mine: boolean, profile: PublicProfile): void {
  const name = profile.name ?? shortAddress(address);
  heading.textContent = mine ? `Your profile: ${name}` : name;
  head.replaceChildren(
    profile.avatar_url === null
      ? h('div', { class: 'avatar avatar-empty', 'aria-hidden': 'true' }, ([...(profile.name ?? address.slice(2))][0] ?? '').toUpperCase())
      : h('img', { class: 'avatar', id: 'creator-avatar', src: profile.avatar_url, alt: `Picture of ${name}` }),
    h(
      'div',
      { class: 'creator-words' },
      h('p', { class: 'note' }, h('code', { class: 'wrap', id: 'creator-address' }, address)),
      profile.farcaster === null || profile.farcaster.username === null
        ? null
        : h('p', { class: 'note', id: 'creator-farcaster' }, `@${profile.farcaster.username} on Farcaster`),
      profile.bio === null ? null : h('p', { class: 'bio', id: 'creator-bio' }, profile.bio),
    ),
  );
}

/** The owner's form: display name, bio, picture; saved with PATCH /v1/user/profile. */
function editForm(context: AppContext, profile: PublicProfile, saved: (profile: PublicProfile) => void): HTMLElement {
  const name = h('input', { id: 'profile-name', maxlength: 50, autocomplete: 'nickname', 'aria-describedby': 'profile-name-note' });
  name.value = profile.display_name ?? '';
  const bio = h('textarea', { id: 'profile-bio', rows: 3, maxlength: 280, 'aria-describedby': 'profile-bio-note' });
  bio.value = profile.bio ?? '';
  const avatar = h('input', {
    id: 'profile-avatar',
    type: 'file',
    accept: AVATAR_TYPES.join(','),
    'aria-describedby': 'profile-avatar-note',
  });
  const remove = h('input', { id: 'profile-avatar-remove', type: 'checkbox' });
  const save = h('button', { type: 'submit', 'data-action': true }, 'Save profile');
  const form = h(
    'form',
    { id: 'profile-form', class: 'profile-form', hidden: true, 'aria-label': 'Edit your profile' },
    h('div', {}, h('label', { for: name.id }, 'Display name'), name),
    h(
      'p',
      { id: 'profile-name-note', class: 'note' },
      'Up to 50 characters; leave empty to show your address. Names are not unique: your address stays beside it.',
    ),
    h('div', {}, h('label', { for: bio.id }, 'Bio'), bio),
    h('p', { id: 'profile-bio-note', class: 'note' }, 'Up to 280 characters.'),
    h('div', {}, h('label', { for: avatar.id }, 'Picture'), avatar),
    h('p', { id: 'profile-avatar-note', class: 'note' }, 'PNG, JPEG, WebP or GIF up to 5 MB.'),
    profile.avatar === null ? null : h('div', { class: 'row inline' }, remove, h('label', { for: remove.id }, 'Remove my picture')),
    h('div', { class: 'row' }, save),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // Save is disabled while it runs, which drops the focus to the page: it goes back to Save.
    const refocus = () => {
      if (document.activeElement === null || document.activeElement === document.body) save.focus();
    };
    void runAction(save, 'Saving your profile', async () => {
      const change: ProfileChange = { display_name: name.value, bio: bio.value };
      const file = avatar.files?.[0];
      if (file !== undefined) {
        if (!AVATAR_TYPES.some((type) => type === file.type))
          throw new Error('The picture must be a PNG, JPEG, WebP or GIF image: choose another file.');
        if (file.size > AVATAR_MAX_BYTES)
          throw new Error(`The picture is ${(file.size / 1024 / 1024).toFixed(1)} MB, over the 5 MB limit: choose a smaller image.`);
        change.avatar = await dataUriOf(file);
      } else if (remove.checked) change.avatar = null;
      let updated: PublicProfile;
      try {
        updated = await changeProfile(apiOf(context), { ...change, signal: context.signal });
      } catch (error) {
        throw refusal(error);
      }
      avatar.value = '';
      remove.checked = false;
      saved(updated);
      announce('Profile saved.');
    }).then(refocus);
  });
  return form;
}

/**
 * A creator's public profile (/app/creator/<address>): their picture, name and bio (what they set,
 * else their Farcaster name and picture), the songs the address minted, the coins launched from
 * them with their market caps, and what they have earned; a Share button; for the signed-in owner,
 * a form to edit the name, bio and picture. Anyone can open it; the page's Open Graph tags come
 * from the server (scripts/dev-app.ts).
 */
export function creatorView(context: AppContext, address: Address): HTMLElement {
  const checksummed = getAddress(address);
  const mine = context.session?.address.toLowerCase() === checksummed.toLowerCase();
  const heading = h('h1', { id: 'view-title', tabindex: '-1' }, `${mine ? 'Your profile' : 'Creator'} ${shortAddress(checksummed)}`);
  const head = h(
    'div',
    { class: 'creator-head', id: 'creator-head' },
    h('p', { class: 'note' }, h('code', { class: 'wrap' }, checksummed)),
  );
  const edit = h('div', { id: 'creator-edit' });
  const summary = h('dl', { class: 'stats', id: 'creator-stats' });
  const list = h('ol', { id: 'creator-songs', class: 'cards', 'aria-label': 'Songs', 'aria-busy': 'true' });
  const view = h(
    'section',
    { 'aria-labelledby': 'view-title', class: 'view creator', 'data-address': checksummed },
    heading,
    head,
    shareButton({ path: `/app/creator/${checksummed}`, title: `${shortAddress(checksummed)} on Songmint`, id: 'share-creator' }),
    edit,
    summary,
    list,
  );
  getCreator(context.publicApi, { address: checksummed, signal: context.signal })
    .then((profile) => {
      renderHead(head, heading, checksummed, mine, profile.profile);
      if (mine) {
        const toggle = h(
          'button',
          { type: 'button', class: 'secondary', id: 'profile-edit-toggle', 'aria-expanded': 'false', 'aria-controls': 'profile-form' },
          'Edit profile',
        );
        const form = editForm(context, profile.profile, (updated) => renderHead(head, heading, checksummed, mine, updated));
        toggle.addEventListener('click', () => {
          form.hidden = !form.hidden;
          toggle.setAttribute('aria-expanded', String(!form.hidden));
          if (!form.hidden) form.querySelector('input')?.focus();
        });
        edit.replaceChildren(toggle, form);
      }
      summary.replaceChildren(
        h('div', {}, h('dt', {}, 'Songs minted'), h('dd', { id: 'creator-song-count' }, String(profile.songs_total))),
        h('div', {}, h('dt', {}, 'Coins launched'), h('dd', { id: 'creator-coin-count' }, String(profile.coins))),
        h(
          'div',
          {},
          h('dt', {}, 'Earned so far'),
          h(
            'dd',
            { id: 'creator-earnings', 'data-eth': profile.earnings.eth },
            `${eth(BigInt(profile.earnings.eth))}${dollars(profile.earnings.usd)}`,
            BigInt(profile.earnings.token) > 0n ? ` and ${tokens(BigInt(profile.earnings.token))}` : '',
          ),
        ),
      );
      list.replaceChildren(...profile.songs.map((song) => songCard(context, song)));
      if (profile.songs.length === 0) list.append(h('li', { class: 'empty' }, 'No song minted by this address yet.'));
      if (profile.songs_total > profile.songs.length)
        list.after(h('p', { class: 'note' }, `The ${profile.songs.length} newest of ${profile.songs_total} songs.`));
      list.setAttribute('aria-busy', 'false');
    })
    .catch((error: unknown) => {
      list.setAttribute('aria-busy', 'false');
      if (!context.signal.aborted) showError(error, 'The profile could not be loaded: ', list);
    });
  return view;
}
