import { launchSong, readLaunchTerms } from '@songmint/sdk';
import type { LaunchedSong, LaunchTerms } from '@songmint/sdk';
import { announce, runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { walletOf } from '../context.ts';
import { h } from '../dom.ts';
import { clock, percentOfPips, tokens } from '../format.ts';

/** A contract's period in whole days ("7 days"). */
const days = (seconds: bigint) => `${Math.round(Number(seconds) / 86_400).toLocaleString('en-US')} days`;

/** The allocation the launch panel offers first: 5% of the supply. */
const DEFAULT_ALLOCATION_PERCENT = 5;

function allocationBps(input: HTMLInputElement, terms: LaunchTerms): number {
  const percent = Number(input.value);
  const bps = Math.round(percent * 100);
  if (input.value.trim() === '' || !Number.isFinite(percent) || bps < 0 || bps > terms.maxAllocationBps)
    throw new Error(`Your allocation must be a percentage from 0 to ${terms.maxAllocationBps / 100}`);
  return bps;
}

/** What the creator reads before a launch: what cannot be undone, what they receive, the fee schedule. */
function terms(songId: bigint, launchTerms: LaunchTerms, bps: number): HTMLElement {
  const allocation = (launchTerms.supply * BigInt(bps)) / 10_000n;
  const creatorShare = `${(10_000 - launchTerms.platformShareBps) / 100}%`;
  const minutes = Number(launchTerms.launchFeeSeconds);
  return h(
    'div',
    { class: 'launch-terms' },
    h('h4', {}, 'Cannot be undone'),
    h(
      'ul',
      {},
      h('li', {}, `Song #${songId} (the NFT) goes into the SongVault for good: nobody, you included, can take it out again.`),
      h(
        'li',
        {},
        `The pool is seeded with ${tokens(launchTerms.supply - allocation)} and that liquidity is locked in the vault forever: it can never be withdrawn.`,
      ),
    ),
    h('h4', {}, 'What you receive'),
    h(
      'ul',
      {},
      h(
        'li',
        {},
        bps === 0
          ? 'No allocation: every token starts in the pool.'
          : `An allocation of ${tokens(allocation)} (${bps / 100}% of the supply) that vests: nothing for ${days(launchTerms.allocationCliffSeconds)} after the launch, then bit by bit over ${days(launchTerms.allocationVestingSeconds)}. Claim what has vested with “Claim allocation” (claimAllocation) on the song page; buyers see on the coin what you hold and when it frees.`,
      ),
      h(
        'li',
        { id: 'launch-pool-eth' },
        'The pool starts with tokens only and holds only the ETH buyers pay in: selling, your allocation included, can take out at most that ETH, so the most you can sell at any time is what buyers have paid for (the trade panel’s Max quotes it).',
      ),
      h(
        'li',
        {},
        `${creatorShare} of every fee the pool earns (the launch fee and the LP fee); the platform keeps ${launchTerms.platformShareBps / 100}%. Claim it on the song page at any time.`,
      ),
    ),
    h('h4', {}, 'Fee schedule for traders'),
    h(
      'ul',
      {},
      h(
        'li',
        {},
        `A launch fee of ${percentOfPips(launchTerms.launchFeePips)} at the launch, falling every block to ${percentOfPips(launchTerms.baseFeePips)} over ${minutes} s, then ${percentOfPips(launchTerms.baseFeePips)} for good: it damps bots buying the first block. What it charges above ${percentOfPips(launchTerms.baseFeePips)} is burnt: nobody, you included, gets it back.`,
      ),
      h('li', {}, `The pool’s LP fee of ${percentOfPips(launchTerms.lpFeePips)} on every trade.`),
    ),
  );
}

/**
 * Launch, with a confirmation first: a button opens the terms (what is irreversible, what the
 * creator receives, the fee schedule) and the allocation to take; only “Launch for good” sends.
 */
export function launchPanel(context: AppContext, songId: bigint, onLaunched: (launched: LaunchedSong) => void): HTMLElement {
  const open = h(
    'button',
    { type: 'button', id: 'launch-open', 'aria-expanded': 'false', 'aria-controls': 'launch-confirm', 'data-action': true },
    `Launch #${songId}…`,
  );
  const confirm = h('section', { id: 'launch-confirm', 'aria-labelledby': 'launch-confirm-title', hidden: true });
  const panel = h(
    'section',
    { 'aria-labelledby': 'launch-title', class: 'panel' },
    h('h2', { id: 'launch-title' }, 'Launch a token for this song'),
    h('p', {}, 'A launch gives the song a token with a Uniswap v4 pool, so anyone can buy and sell it.'),
    open,
    confirm,
  );
  open.addEventListener(
    'click',
    () =>
      void runAction(open, 'Reading the launch terms from the chain', async () => {
        const launchTerms = await readLaunchTerms(context.read);
        const percent = h('input', {
          id: 'launch-allocation',
          inputmode: 'decimal',
          class: 'short',
          value: String(DEFAULT_ALLOCATION_PERCENT),
        });
        const body = h('div', {});
        const draw = () => {
          try {
            body.replaceChildren(terms(songId, launchTerms, allocationBps(percent, launchTerms)));
          } catch (error) {
            body.replaceChildren(h('p', { class: 'refusal' }, error instanceof Error ? error.message : String(error)));
          }
        };
        percent.addEventListener('input', draw);
        draw();
        const go = h('button', { type: 'button', id: 'launch-confirm-button', 'data-action': true }, 'Launch for good');
        const cancel = h('button', { type: 'button', class: 'secondary', id: 'launch-cancel' }, 'Cancel');
        const heading = h('h3', { id: 'launch-confirm-title', tabindex: '-1' }, `Before you launch #${songId}`);
        confirm.replaceChildren(
          heading,
          h('div', { class: 'row inline' }, h('label', { for: 'launch-allocation' }, 'Your allocation (% of the supply)'), percent),
          body,
          h('div', { class: 'row' }, go, cancel),
        );
        confirm.hidden = false;
        open.hidden = true;
        open.setAttribute('aria-expanded', 'true');
        heading.focus();
        cancel.addEventListener('click', () => {
          confirm.hidden = true;
          open.hidden = false;
          open.setAttribute('aria-expanded', 'false');
          open.focus();
        });
        go.addEventListener(
          'click',
          () =>
            void runAction(go, 'Launching: approve the vault for the NFT, then launch, each in your wallet', async () => {
              const launched = await launchSong(walletOf(context), {
                songId,
                allocationBps: allocationBps(percent, launchTerms),
              });
              const until = clock(new Date(Number(launched.allocationClaimableAt) * 1000));
              announce(
                launched.allocation > 0n
                  ? `Launched: the pool is open; your allocation of ${tokens(launched.allocation)} stays with the vault until ${until}.`
                  : 'Launched: the pool is open.',
              );
              onLaunched(launched);
            }),
        );
      }),
  );
  return panel;
}
