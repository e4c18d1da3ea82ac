import { SongmintApiError, SongmintClientError } from '@songmint/sdk';

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

const time = (date: Date) => date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Walks an error's causes (viem nests the wallet's and the transport's errors). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; current = (current as { cause?: unknown }).cause)
    chain.push(current);
  return chain;
}

/** One line a person can act on: a rate limit with its reset time, a refused signature, a chain or API that is down. */
export function describeError(error: unknown): string {
  const all = causes(error);
  if (all.some((e) => (e as { code?: unknown }).code === 4001 || (e as { name?: unknown }).name === 'UserRejectedRequestError')) {
    return 'Your wallet refused to sign: nothing was sent. Try again when you are ready.';
  }
  if (error instanceof SongmintApiError) {
    if (error.code === 'RATE_001' || error.code === 'RATE_002') {
      const reset = error.retryAfter === undefined ? '' : `: try again at ${time(new Date(Date.now() + error.retryAfter * 1000))}`;
      return `${error.message}${reset}.`;
    }
    if (error.code === 'AUTH_ERROR') return 'Your session has ended: connect your wallet again.';
    return error.message;
  }
  if (error instanceof SongmintClientError && error.code === 'NETWORK_ERROR')
    return 'The Songmint API is not answering: check your connection and try again.';
  if (all.some((e) => ['HttpRequestError', 'TimeoutError', 'WebSocketRequestError'].includes(String((e as { name?: unknown }).name)))) {
    return 'The chain is not answering (its RPC node is down or unreachable): try again in a moment.';
  }
  if (error instanceof Error) {
    const short = (error as Error & { shortMessage?: unknown }).shortMessage;
    return typeof short === 'string' ? short : error.message;
  }
  return String(error);
}
