import { SongmintError } from '@songmint/sdk';

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

export function setText(id: string, text: string): void {
  byId(id).textContent = text;
}

export function show(id: string, visible: boolean): void {
  byId(id).hidden = !visible;
}

/** One line for the alert region: the SDK's code and message, or the error's own message. */
export function describeError(error: unknown): string {
  if (error instanceof SongmintError) return error.message;
  if (error instanceof Error) {
    // viem's errors carry a one-line reason besides the long message.
    const short = (error as Error & { shortMessage?: unknown }).shortMessage;
    return typeof short === 'string' ? short : error.message;
  }
  return String(error);
}
