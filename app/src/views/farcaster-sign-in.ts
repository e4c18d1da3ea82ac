import { createAppClient, viemConnector } from '@farcaster/auth-client';
import { renderSVG } from 'uqr';
import { showError } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { signInWithFarcasterClient } from '../session.ts';

/** How long the QR code waits for the user's Farcaster client, and how often it asks the relay. */
const CHANNEL_TIMEOUT_MS = 300_000;
const POLL_INTERVAL_MS = 1_500;

/**
 * Sign In With Farcaster as AuthKit does it: a channel on the relay carrying one of the API's
 * nonces, shown as a QR code and a deep link for the user's Farcaster client; the client signs
 * the SIWF message and the relay hands it back to this page, which the API then verifies. Its own
 * chunk (the relay client and the QR encoder load only when asked for).
 */
export function farcasterSignInDialog(context: AppContext, relay: string): void {
  const dialog = h('dialog', { id: 'farcaster-dialog', class: 'farcaster-dialog', 'aria-labelledby': 'farcaster-dialog-title' });
  const state = h('p', { id: 'farcaster-state', role: 'status' }, 'Opening a channel to your Farcaster client…');
  const close = h('button', { type: 'button', class: 'secondary', id: 'farcaster-cancel' }, 'Cancel');
  dialog.append(h('h2', { id: 'farcaster-dialog-title' }, 'Sign in with Farcaster'), state, close);
  document.body.append(dialog);
  // Closing (Cancel, Escape, leaving the page) ends the wait: a late answer signs nobody in.
  const abandoned = new AbortController();
  const end = () => {
    abandoned.abort();
    dialog.remove();
  };
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', end);
  context.signal.addEventListener('abort', () => dialog.close(), { once: true });
  dialog.showModal();
  void waitForClient(context, relay, dialog, state, abandoned.signal).catch((error: unknown) => {
    if (abandoned.signal.aborted) return;
    dialog.close();
    showError(error, 'Sign in with Farcaster failed: ');
  });
}

async function waitForClient(context: AppContext, relay: string, dialog: HTMLDialogElement, state: HTMLElement, abandoned: AbortSignal) {
  const { data: challenge, error } = await context.publicApi.http.GET('/api/auth/nonce');
  if (challenge === undefined) throw new Error(`no sign-in nonce: ${JSON.stringify(error)}`);
  // The relay only carries messages; the API verifies them (the connector's RPC is never called here).
  const client = createAppClient({ relay, ethereum: viemConnector() });
  const channel = await client.createChannel({ siweUri: challenge.uri, domain: challenge.domain, nonce: challenge.nonce });
  if (channel.isError) throw new Error(`the Farcaster relay refused the channel: ${channel.error?.message ?? 'unknown error'}`);
  if (abandoned.aborted) return;
  const qr = h('div', {
    class: 'farcaster-qr',
    id: 'farcaster-qr',
    role: 'img',
    'aria-label': 'QR code to scan with your Farcaster client',
  });
  // uqr's own SVG markup of the channel URL (no outside text reaches it but the relay's URL, encoded as modules).
  qr.innerHTML = renderSVG(channel.data.url, { border: 2 });
  const link = h('a', { href: channel.data.url, id: 'farcaster-deep-link', rel: 'noopener' }, 'Open in your Farcaster client');
  state.textContent = 'Scan the code with your phone, or open the link on this device, and approve the sign-in.';
  dialog.insertBefore(h('div', { class: 'farcaster-channel' }, qr, link), state.nextSibling);

  const status = await client.watchStatus({
    channelToken: channel.data.channelToken,
    timeout: CHANNEL_TIMEOUT_MS,
    interval: POLL_INTERVAL_MS,
  });
  if (abandoned.aborted) return;
  if (status.isError) throw new Error(`no answer from your Farcaster client: ${status.error?.message ?? 'timed out'}`);
  const { message, signature } = status.data;
  if (message === undefined || signature === undefined) throw new Error('the Farcaster client answered without a signed message');
  state.textContent = 'Signing in…';
  const session = await signInWithFarcasterClient(context.config, { message, signature });
  if (abandoned.aborted) return;
  dialog.close();
  context.setSession(session);
}
