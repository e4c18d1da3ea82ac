import { SongmintApiError, SongmintClientError } from '@songmint/sdk';
import { whenLocal } from './format.ts';

export { whenLocal } from './format.ts';

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** An element with attributes (`on…` functions become listeners; false/undefined are left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** A term/description list from pairs. */
export function facts(pairs: ReadonlyArray<readonly [string, Child]>, attributes: Attributes = {}): HTMLDListElement {
  return h('dl', { class: 'facts', ...attributes }, ...pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

/** Walks an error's causes (viem nests the wallet's and the transport's errors). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; current = (current as { cause?: unknown }).cause)
    chain.push(current);
  return chain;
}

const nameOf = (error: unknown) => String((error as { name?: unknown }).name);

/** What the API's refusals mean to the person, and what they can do next. */
function describeApiError(error: SongmintApiError): string {
  // The SDK's message starts with the code; the person reads only the API's words.
  const text = error.message.startsWith(`${error.code}: `) ? error.message.slice(error.code.length + 2) : error.message;
  const at = error.retryAfter === undefined ? undefined : whenLocal(new Date(Date.now() + error.retryAfter * 1000));
  const retry = at === undefined ? 'try again later' : `try again at ${at}`;
  switch (error.code) {
    case 'RATE_001':
      return `You have made all the songs your plan allows today: ${at === undefined ? 'try again tomorrow' : `you can generate again at ${at}`}.`;
    case 'RATE_002':
      return `${text.replace(/\.$/, '')}: that is the most your plan allows in an hour, ${retry}.`;
    case 'AUTH_ERROR':
      return 'Your session has ended: connect your wallet again.';
    case 'SIGN_001':
      return 'This song is not in your library for this wallet: reload the page, or connect the wallet that made it.';
    case 'SIGN_002':
      return 'The mint signature was refused: one was already issued for this song (an earlier try or another device). If that mint went through, reload to see it; otherwise mint from where it was issued.';
    case 'SIGN_003':
      return 'The mint signature was refused: the song is not finished yet. Mint it once it is ready.';
    case 'SIGN_004':
      return 'The mint signature was refused: the audio does not match the song that was made. Generate it again.';
    case 'SIGN_005':
      return 'The mint signature was refused: the model that made this song is licensed for non-commercial use only, so it cannot be minted.';
    case 'GEN_001':
    case 'GEN_002':
      return `The music service is busy (${text.replace(/\.$/, '')}): nothing was charged; ${retry}.`;
    case 'SERVICE_UNAVAILABLE':
      return `The service cannot answer right now: nothing was charged; ${retry}.`;
    case 'GEN_003':
      return `The description was refused (${(typeof error.details === 'string' ? error.details : text).replace(/^prompt: /, '')}): describe the song in 1 to 500 characters.`;
    case 'LIBRARY_001':
      return 'This song is minted: its name and audio are on chain for good, so it cannot be renamed or deleted.';
    case 'LIBRARY_002':
      return 'This song is in the trash: restore it first (Show: Trash).';
    case 'LIBRARY_003':
      return 'This song can no longer be restored: retention deleted its audio.';
    case 'LIBRARY_004':
      return 'This song is still being made: cancel it first, then delete it.';
    default: {
      const details = typeof error.details === 'string' && error.details !== '' ? `: ${error.details}` : '';
      return `${text}${details}`.replace(/\.?$/, '.');
    }
  }
}

/** A contract's revert, decoded by viem from the ABI (custom error or reason string), as a sentence. */
function describeRevert(revert: { data?: { errorName?: string; args?: readonly unknown[] }; reason?: string }): string | undefined {
  const name = revert.data?.errorName ?? '';
  const args = revert.data?.args ?? [];
  const song = typeof args[0] === 'bigint' ? `#${args[0]}` : 'this song';
  const sentences: Record<string, string> = {
    NotSongOwner: `Only the owner of ${song} can do this: connect the wallet that holds it.`,
    NotSongCreator: `Only the creator of ${song} can do this: connect the wallet that made it.`,
    NotPayoutRecipient: `Only the payout recipient of ${song} can do this: connect that wallet.`,
    InvalidPayoutRecipient: 'That payout address cannot receive payouts: enter another address.',
    ZeroAddress: 'An address is missing: enter a full 0x… address.',
    AlreadyLaunched: `${song} is already launched: reload the page to trade it.`,
    NotLaunched: `${song} is not launched yet: launch it first.`,
    AllocationTooLarge: 'The creator allocation is larger than the launch allows: choose a smaller share.',
    NothingToClaim: 'There is nothing to claim yet: fees arrive as people trade the song.',
    NoAllocation: 'There is no allocation to claim: it was claimed already, or none was taken at launch.',
    AllocationLocked:
      typeof args[1] === 'bigint'
        ? `The allocation is locked through the launch fee window: claim it after ${whenLocal(new Date(Number(args[1]) * 1000))}.`
        : 'The allocation is still locked: claim it after the launch fee window.',
    ExactEthSwapNotFilled: 'The pool cannot pay out that much ETH at once: reduce the amount.',
    ERC20InsufficientBalance: 'You hold fewer tokens than that: reduce the amount (Max sells what you hold).',
    ERC721NonexistentToken: 'This song does not exist on this chain: check the link.',
    EthTransferFailed: 'The ETH could not be sent to the recipient (it refuses ETH): change the payout address.',
  };
  const known = sentences[name];
  if (known !== undefined) return known;
  if (revert.reason === 'Invalid signature')
    return 'The chain refused the mint signature (the platform key that made it is no longer trusted): mint again for a new one.';
  if (revert.reason === 'Signature used') return 'This song is minted already: reload the page to see it.';
  return undefined;
}

/**
 * One line a person can act on: a rate limit with the local time it lifts, a refused signature,
 * a contract's refusal in words, too little ETH, a chain or API that is down.
 */
export function describeError(error: unknown): string {
  const all = causes(error);
  if (all.some((e) => (e as { code?: unknown }).code === 4001 || nameOf(e) === 'UserRejectedRequestError')) {
    return 'Your wallet refused to sign: nothing was sent. Try again when you are ready.';
  }
  if (error instanceof SongmintApiError) return describeApiError(error);
  if (error instanceof SongmintClientError && error.code === 'NETWORK_ERROR')
    return 'The Songmint API is not answering: check your connection and try again.';
  if (all.some((e) => nameOf(e) === 'InsufficientFundsError'))
    return 'Your wallet does not hold enough ETH for this and its network fee: top up the wallet or reduce the amount.';
  for (const e of all) {
    if (nameOf(e) !== 'ContractFunctionRevertedError') continue;
    const sentence = describeRevert(e as Parameters<typeof describeRevert>[0]);
    if (sentence !== undefined) return sentence;
    const reason =
      (e as { reason?: unknown; data?: { errorName?: unknown } }).reason ?? (e as { data?: { errorName?: unknown } }).data?.errorName;
    const what = all.map((c) => (c as { functionName?: unknown }).functionName).find((f) => typeof f === 'string');
    return `The contract refused ${typeof what === 'string' ? `\`${what}\`` : 'the transaction'}${typeof reason === 'string' ? ` (${reason})` : ''}: nothing changed on chain. Check the amounts and try again.`;
  }
  if (all.some((e) => ['HttpRequestError', 'TimeoutError', 'WebSocketRequestError'].includes(nameOf(e)))) {
    return 'The chain is not answering (its RPC node is down or unreachable): try again in a moment.';
  }
  if (error instanceof Error) {
    const short = (error as Error & { shortMessage?: unknown }).shortMessage;
    return typeof short === 'string' ? short : error.message;
  }
  return String(error);
}
