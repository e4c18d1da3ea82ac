import {
  claimAllocation,
  claimFees,
  getPublicSong,
  getPoolHistory,
  readAllocation,
  readPool,
  readSong,
  setPayoutRecipient,
  SongmintApiError,
} from '@songmint/sdk';
import type { HeldAllocation, PoolHistory, SongPool, SongRecord } from '@songmint/sdk';
import { isAddress } from 'viem';
import type { Address } from 'viem';
import { announce, runAction, showError } from '../actions.ts';
import { priceChart } from '../chart.ts';
import type { PricePoint } from '../chart.ts';
import type { AppContext } from '../context.ts';
import { walletOf } from '../context.ts';
import { facts, h } from '../dom.ts';
import { dateTime, eth, percentOfPips, pricePerMillionOf, shortAddress, tokens, vestingLine } from '../format.ts';
import { gatewayUrl } from '../gateway.ts';
import { creatorLink, setCreatorName } from '../creator-link.ts';
import { launchPanel } from './launch.ts';
import { POOL_CHANGED_EVENT, tradePanel } from './trade.ts';
import { mountCoin } from './coin-mount.ts';
import { shareButton } from '../share.ts';
import { songPageOrigin } from './song-edit.ts';
import { downloadLinks } from './downloads.ts';

const HISTORY_LIMIT = 500;
const DAY_MS = 86_400_000;
/** How long to wait for the oracle's indexer to show a trade just made. */
const INDEX_WAIT_MS = 60_000;

interface Metadata {
  name?: unknown;
  description?: unknown;
  image?: unknown;
  animation_url?: unknown;
  /** ERC-721 traits: `{"trait_type": "Genre", "value": "Lo-fi"}` and the like. */
  attributes?: unknown;
  /** The oracle's generation record: the lyrics the song was sung with. */
  properties?: { generation?: { lyrics?: unknown } };
}

/** The value of the metadata's trait `name` (case-insensitive), as text; undefined when it has none. */
function trait(metadata: Metadata, name: string): string | undefined {
  if (!Array.isArray(metadata.attributes)) return undefined;
  const found = (metadata.attributes as Array<{ trait_type?: unknown; value?: unknown } | null>).find(
    (attribute) => typeof attribute?.trait_type === 'string' && attribute.trait_type.toLowerCase() === name.toLowerCase(),
  );
  return typeof found?.value === 'string' || typeof found?.value === 'number' ? String(found.value) : undefined;
}

/** Where a visitor is told to connect: the header's buttons (the page shows them once). */
const connectAbove = (what: string) =>
  h('p', { class: 'connect-hint' }, `Connect a wallet with the buttons at the top of the page to ${what}.`);

/** The creator's link, named once the oracle says the name they set (the address until then, or when it cannot answer). */
function creatorOf(context: AppContext, songId: bigint, creator: Address): HTMLAnchorElement {
  const link = creatorLink(creator);
  link.id = 'song-creator';
  getPublicSong(context.publicApi, { songId, signal: context.signal }).then(
    (song) => setCreatorName(link, creator, song.creator_name),
    () => undefined,
  );
  return link;
}

/** A song page, readable by anyone: the chain, IPFS through the gateway, and the public swap history. */
export function songView(context: AppContext, songId: bigint): HTMLElement {
  const heading = h('h1', { id: 'view-title', tabindex: '-1' }, `Song #${songId}`);
  const view = h('section', { 'aria-labelledby': 'view-title', class: 'view song', 'data-song-id': songId.toString() }, heading);
  view.setAttribute('aria-busy', 'true');
  void (async () => {
    let record: SongRecord;
    try {
      record = await readSong(context.read, { songId });
    } catch (error) {
      view.append(
        h('p', { id: 'song-missing' }, `There is no song #${songId} on this chain.`),
        h('p', {}, h('a', { href: '/app/discover', 'data-link': true }, 'Discover launched songs')),
      );
      view.setAttribute('aria-busy', 'false');
      if (!(error instanceof Error && /revert|nonexistent|ERC721/i.test(error.message))) showError(error);
      return;
    }
    const metadata: Metadata = await fetch(gatewayUrl(context, record.metadataUri), { signal: context.signal })
      .then((response) => (response.ok ? (response.json() as Promise<Metadata>) : {}))
      .catch(() => ({}));
    if (typeof metadata.name === 'string') heading.textContent = metadata.name;
    // Launched: the coin's figures and the trade box open the page (trading first, issue 51).
    const coin = record.launchedAt === 0n ? undefined : mountCoin(context, songId, await poolSection(context, songId));
    if (coin !== undefined) view.append(coin.top);
    const about = h('div', { class: 'song-head' });
    if (typeof metadata.image === 'string')
      about.append(
        h('img', {
          class: 'cover',
          src: gatewayUrl(context, metadata.image),
          alt: `Cover of ${heading.textContent}`,
          width: 160,
          height: 160,
        }),
      );
    const details = h('div', {});
    if (typeof metadata.animation_url === 'string')
      details.append(
        h('audio', {
          id: 'song-player',
          controls: true,
          preload: 'metadata',
          src: gatewayUrl(context, metadata.animation_url),
          'aria-label': `Play ${heading.textContent}`,
        }),
      );
    if (typeof metadata.description === 'string') details.append(h('p', { class: 'description' }, metadata.description));
    details.append(downloadLinks(context, { audioUrl: metadata.animation_url }));
    details.append(shareButton({ path: `/app/song/${songId}`, title: heading.textContent ?? `Song #${songId}`, id: 'share-song' }));
    details.append(...songPageOrigin(context, metadata));
    const genre = trait(metadata, 'genre');
    details.append(
      facts([
        ['Creator', creatorOf(context, songId, record.creator)],
        ...(genre === undefined ? [] : [['Genre', h('span', { id: 'song-genre' }, genre)] as const]),
        ['Royalty', `${record.royaltyBps / 100}% on resales`],
        ['Metadata', h('a', { href: gatewayUrl(context, record.metadataUri) }, 'on IPFS')],
      ]),
    );
    about.append(details);
    view.append(about);
    const lyrics = metadata.properties?.generation?.lyrics;
    if (typeof lyrics === 'string' && lyrics !== '')
      view.append(
        h(
          'section',
          { 'aria-labelledby': 'lyrics-title', id: 'song-lyrics' },
          h('h2', { id: 'lyrics-title' }, 'Lyrics'),
          h('pre', { class: 'lyrics', tabindex: '0' }, lyrics),
        ),
      );
    const wallet = context.session?.chain?.walletClient.account?.address;
    // Once launched, the song page is its coin's page: activity and holders close it.
    if (coin !== undefined) view.append(coin.bottom);
    else if (wallet !== undefined && wallet.toLowerCase() === record.owner.toLowerCase()) {
      const panel = launchPanel(context, songId, () => {
        void poolSection(context, songId).then((section) => {
          const launched = mountCoin(context, songId, section);
          heading.after(launched.top);
          panel.replaceWith(launched.bottom);
          // The launch button went with its panel: the focus goes to the page's heading, the coin right under it.
          if (document.activeElement === null || document.activeElement === document.body) heading.focus();
        }, showError);
      });
      view.append(panel);
    } else
      view.append(
        h('p', { id: 'not-launched' }, 'This song has no token yet: its owner can launch it here.'),
        ...(wallet === undefined ? [connectAbove('launch it, if it is yours')] : []),
      );
    view.setAttribute('aria-busy', 'false');
  })().catch((error: unknown) => {
    view.setAttribute('aria-busy', 'false');
    showError(error);
  });
  return view;
}

function historyPoints(history: PoolHistory): PricePoint[] {
  const points: PricePoint[] = [];
  // In the app's one price unit, ETH per 1M tokens.
  const perMillion = (ethPerToken: string) => Number(ethPerToken) * 1e6;
  if (history.launch !== null) points.push({ time: new Date(history.launch.time), price: perMillion(history.launch.eth_per_token) });
  for (const swap of [...history.swaps].reverse()) points.push({ time: new Date(swap.time), price: perMillion(swap.eth_per_token) });
  return points;
}

async function poolSection(context: AppContext, songId: bigint): Promise<HTMLElement> {
  const section = h('section', { 'aria-labelledby': 'pool-title', class: 'pool' }, h('h2', { id: 'pool-title' }, 'Token and pool'));
  const figures = h('div', { id: 'pool-facts' });
  const chartBox = h('figure', { id: 'price-chart', class: 'chart-box' });
  // The trade box first, then the pool's figures and chart (trading first, issue 51).
  const tradeSlot = h('div', { id: 'trade-slot' });
  section.append(tradeSlot, figures, h('h3', {}, 'Price (ETH per 1M tokens)'), chartBox);

  let pool = await readPool(context.read, { songId });
  let history: PoolHistory | undefined;

  const drawFigures = () => {
    const volume = history?.swaps
      .filter((swap) => Date.parse(swap.time) > Date.now() - DAY_MS)
      .reduce((sum, swap) => sum + BigInt(swap.eth), 0n);
    figures.replaceChildren(
      facts([
        ['Token', h('code', { title: pool.token }, shortAddress(pool.token))],
        ['Price', h('span', { id: 'pool-price', 'data-tokens-per-eth': String(pool.tokensPerEth) }, pricePerMillionOf(pool.tokensPerEth))],
        [
          'Locked liquidity',
          h(
            'span',
            { id: 'pool-liquidity', title: `v4 liquidity L = ${pool.liquidity.toLocaleString('en-US')}` },
            `${eth(pool.reserves.eth)} and ${tokens(pool.reserves.token)}`,
          ),
        ],
        ['24 h volume', h('span', { id: 'pool-volume' }, volume === undefined ? 'loading…' : eth(volume))],
        [
          // Read with the pool, not again each block: it names its block (the trade panel's quotes are live).
          'Launch fee',
          h(
            'span',
            { id: 'pool-fee', 'data-block': pool.feeBlock.number.toString() },
            `${percentOfPips(pool.swapFeePips)} for block ${pool.feeBlock.number.toString()}`,
          ),
        ],
        ['LP fee', percentOfPips(pool.lpFeePips)],
      ]),
    );
  };
  const drawChart = () => {
    const points = history === undefined ? [] : historyPoints(history);
    chartBox.replaceChildren(
      priceChart(points),
      h(
        'figcaption',
        { class: 'note' },
        `${history?.swaps.length ?? 0} ${history?.swaps.length === 1 ? 'trade' : 'trades'} since the launch`,
      ),
    );
  };
  const loadHistory = async () => {
    try {
      history = await getPoolHistory(context.publicApi, { songId, limit: HISTORY_LIMIT, signal: context.signal });
    } catch (error) {
      // The oracle indexes the launch a poll or two after it is mined.
      if (!(error instanceof SongmintApiError && error.code === 'NOT_FOUND')) throw error;
    }
    drawFigures();
    drawChart();
  };
  drawFigures();
  await loadHistory();
  // The oracle indexes a launch a poll or two after it is mined, the pool first and its launch
  // price (PoolManager's Initialize) in a later step: look again until the history has that point.
  const waitForLaunch = window.setInterval(() => {
    if (history !== undefined && history.launch !== null) window.clearInterval(waitForLaunch);
    // A failed read (a busy API, a refused request) is tried again at the next beat.
    else loadHistory().catch(() => undefined);
  }, 2000);
  context.signal.addEventListener('abort', () => window.clearInterval(waitForLaunch));

  // The launch fee falls every block (2 s) for its first 120 s: show it moving until it settles.
  let lastFee = pool.swapFeePips;
  const feeTimer = window.setInterval(() => {
    readPool(context.read, { songId }).then(
      (fresh) => {
        pool = fresh;
        drawFigures();
        if (fresh.swapFeePips === lastFee) window.clearInterval(feeTimer);
        lastFee = fresh.swapFeePips;
      },
      () => window.clearInterval(feeTimer),
    );
  }, 2000);
  context.signal.addEventListener('abort', () => window.clearInterval(feeTimer));

  /** After a trade: the chain's figures now, the chart once the indexer has the swap. */
  const afterTrade = async (txHash: string) => {
    pool = await readPool(context.read, { songId });
    drawFigures();
    const deadline = Date.now() + INDEX_WAIT_MS;
    while (Date.now() < deadline && history?.swaps.some((swap) => swap.tx_hash === txHash) !== true) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await loadHistory();
    }
  };

  if (context.session?.chain === undefined) {
    tradeSlot.replaceWith(h('h3', {}, 'Trade'), connectAbove("buy or sell this song's token"));
    return section;
  }
  tradeSlot.replaceWith(tradePanel(context, songId, afterTrade));
  const address = context.session.chain.walletClient.account?.address.toLowerCase();
  if (address === undefined) return section;
  // The creator's tools, for the launcher's allocation's recipient (its vesting and Claim
  // allocation) and for the payout recipient (fees and payouts): one panel, whichever this wallet is.
  const held = await readAllocation(context.read, { songId });
  const allocation = held.recipient !== null && held.recipient.toLowerCase() === address ? allocationTools(context, held) : undefined;
  const payouts =
    address === pool.payoutRecipient.toLowerCase()
      ? payoutTools(context, songId, pool, async () => {
          pool = await readPool(context.read, { songId });
          drawFigures();
          return pool;
        })
      : undefined;
  if (allocation !== undefined || payouts !== undefined)
    section.append(
      h(
        'section',
        { 'aria-labelledby': 'creator-title', class: 'panel', id: 'creator-tools' },
        h('h3', { id: 'creator-title' }, 'Creator tools'),
        ...(allocation === undefined ? [] : [allocation]),
        ...(payouts === undefined ? [] : payouts),
      ),
    );
  return section;
}

/**
 * The creator tools' allocation part, for its recipient: what has vested, what has not, what was
 * claimed, when the next tokens vest, and Claim allocation, which mints what has vested. Pressed
 * before the cliff it says when the first token vests, and sends nothing.
 */
function allocationTools(context: AppContext, first: HeldAllocation): HTMLElement {
  const line = h('p', { id: 'allocation-vesting' });
  const show = (held: HeldAllocation) => {
    line.textContent = `${vestingLine(held)}. Claimable now: ${tokens(held.claimableAmount)}.`;
    Object.assign(line.dataset, {
      total: held.total.toString(),
      vested: held.vested.toString(),
      claimed: held.claimed.toString(),
      claimable: held.claimableAmount.toString(),
      cliffEnd: held.cliffEnd.toString(),
    });
  };
  show(first);
  const claim = h('button', { type: 'button', id: 'claim-allocation', 'data-action': true }, 'Claim allocation');
  const claimed = h('p', { id: 'allocation-claimed', class: 'note', role: 'status' });
  claim.addEventListener(
    'click',
    () =>
      void runAction(claim, 'Claiming what has vested of your allocation: confirm in your wallet', async () => {
        // The chain's head now, not the client's cached block number (readAllocation reads at it): vesting moves with the clock.
        await context.read.publicClient.getBlockNumber({ cacheTime: 0 });
        const held = await readAllocation(context.read, { songId: first.songId });
        show(held);
        if (held.claimableAmount === 0n)
          throw new Error(
            held.vested === 0n
              ? `Nothing of your allocation has vested yet: it starts vesting on ${dateTime(new Date(Number(held.cliffEnd) * 1000))}. Nothing was sent.`
              : `You have claimed all that has vested so far; the rest vests by ${dateTime(new Date(Number(held.vestingEnd) * 1000))}. Nothing was sent.`,
          );
        const result = await claimAllocation(walletOf(context), { songId: first.songId });
        claimed.textContent = `Claimed ${tokens(result.amount)} of your allocation; ${tokens(result.remaining)} still to vest or claim.`;
        show(await readAllocation(context.read, { songId: first.songId }));
        // Your balance and what it sells for changed.
        document.dispatchEvent(new CustomEvent(POOL_CHANGED_EVENT, { detail: { songId: first.songId } }));
      }),
  );
  return h(
    'section',
    { 'aria-labelledby': 'allocation-title', id: 'allocation-tools' },
    h('h4', { id: 'allocation-title' }, 'Your allocation'),
    line,
    claim,
    claimed,
    h(
      'p',
      { class: 'note' },
      'It vests after a cliff, then bit by bit: only claimed tokens can be sold, so buyers know what you can sell and when.',
    ),
  );
}

/** The creator tools' fees and payouts part, for the payout recipient: claim the fees, move the payouts. */
function payoutTools(context: AppContext, songId: bigint, pool: SongPool, reload: () => Promise<SongPool>): HTMLElement[] {
  const claimable = h('p', { id: 'claimable' });
  const showClaimable = (current: SongPool) => {
    claimable.textContent = `Claimable now: ${eth(current.claimable.creator.eth)} and ${tokens(current.claimable.creator.token)}; ${eth(current.uncollectedSwapFees)} of swap fees not yet collected (a claim collects them first).`;
  };
  showClaimable(pool);
  // A trade here or anywhere (the coin's feed sees those) changes the fees not yet collected: read them again.
  document.addEventListener(POOL_CHANGED_EVENT, () => void reload().then(showClaimable, () => undefined), { signal: context.signal });
  const claim = h('button', { type: 'button', id: 'claim', 'data-action': true }, 'Collect and claim');
  const claimed = h('p', { id: 'claimed', class: 'note', role: 'status' });
  claim.addEventListener(
    'click',
    () =>
      void runAction(claim, 'Collecting and claiming your fees: confirm in your wallet', async () => {
        const result = await claimFees(walletOf(context), { songIds: [songId] });
        claimed.textContent = `Claimed ${eth(result.ethPaid)}`;
        showClaimable(await reload());
      }),
  );
  const recipient = h('input', { id: 'payout-recipient', autocomplete: 'off', spellcheck: 'false', placeholder: '0x…', required: true });
  const move = h('button', { type: 'submit', id: 'set-payout', 'data-action': true }, 'Move payouts');
  const moveForm = h(
    'form',
    { class: 'row' },
    h('div', { class: 'grow' }, h('label', { for: 'payout-recipient' }, 'New payout recipient'), recipient),
    move,
  );
  moveForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void runAction(move, 'Moving the payouts: confirm in your wallet', async () => {
      const to = recipient.value.trim();
      if (!isAddress(to)) throw new Error('The payout recipient must be an address (0x and 40 hex digits)');
      const changed = await setPayoutRecipient(walletOf(context), { songId, recipient: to as Address });
      announce(`Payouts of #${songId} now go to ${changed.newRecipient}: this wallet can no longer claim or move them.`);
      await reload();
      moveForm.replaceWith(h('p', { id: 'payout-moved' }, `Payouts go to ${changed.newRecipient}.`));
      claim.remove();
    });
  });
  return [
    h('h4', { id: 'payouts-title' }, 'Fees and payouts'),
    claimable,
    claim,
    claimed,
    h(
      'p',
      { class: 'note' },
      "Moving the payouts hands this song's creator share, and the right to move it on, to another address: a split contract, a multisig, another wallet.",
    ),
    moveForm,
  ];
}
