import { runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { shortAddress } from '../format.ts';
import type { MiniApp } from '../miniapp.ts';
import { forgetSession, signInWith, signInWithMiniApp } from '../session.ts';

/**
 * Connect buttons: the development wallet (local chain only), a browser wallet and, when the
 * stack verifies it, Sign In With Farcaster (a QR code for the user's Farcaster client).
 */
export function connectPanel(context: AppContext): HTMLElement {
  const panel = h('div', { class: 'row connect' });
  const connect = (wallet: 'development' | 'injected', label: string) => {
    const button = h('button', { type: 'button', class: wallet === 'injected' ? 'secondary' : undefined, 'data-action': true }, label);
    button.addEventListener(
      'click',
      () =>
        void runAction(button, 'Sign the message in your wallet to sign in', async () =>
          context.setSession(await signInWith(context.config, wallet)),
        ),
    );
    return button;
  };
  if (context.config.developmentWallet) panel.append(connect('development', 'Use the development wallet'));
  panel.append(connect('injected', 'Connect browser wallet'));
  const relay = context.config.farcasterRelayUrl;
  if (relay !== undefined && context.session === undefined) {
    const button = h(
      'button',
      { type: 'button', class: 'secondary', id: 'farcaster-sign-in', 'data-action': true },
      'Sign in with Farcaster',
    );
    button.addEventListener(
      'click',
      () =>
        void runAction(button, 'Opening Sign in with Farcaster', async () => {
          const { farcasterSignInDialog } = await import('./farcaster-sign-in.ts');
          farcasterSignInDialog(context, relay);
        }),
    );
    panel.append(button);
  }
  return panel;
}

/** Inside a Farcaster client: one button, Quick Auth through the client (its wallet signs once, the first time). */
function miniAppPanel(context: AppContext, miniApp: MiniApp): HTMLElement {
  const button = h('button', { type: 'button', id: 'miniapp-sign-in', 'data-action': true }, 'Sign in with Farcaster');
  button.addEventListener(
    'click',
    () =>
      void runAction(button, 'Signing in through your Farcaster client', async () =>
        context.setSession(await signInWithMiniApp(context.config, miniApp)),
      ),
  );
  return h('div', { class: 'row connect' }, button);
}

/** The header's wallet area: who is signed in and until when, or the connect buttons. */
export function renderWalletArea(area: HTMLElement, context: AppContext, miniApp?: MiniApp): void {
  const session = context.session;
  if (session === undefined) {
    area.replaceChildren(miniApp === undefined ? connectPanel(context) : miniAppPanel(context, miniApp));
    return;
  }
  const signOut = h('button', { type: 'button', class: 'secondary', id: 'sign-out' }, 'Sign out');
  signOut.addEventListener('click', () => {
    forgetSession();
    context.setSession(undefined);
  });
  area.replaceChildren(
    h('span', { id: 'wallet-address', title: session.address }, shortAddress(session.address)),
    session.socialFid === null ? '' : h('span', { id: 'wallet-fid', class: 'note' }, `fid ${session.socialFid}`),
    h(
      'span',
      { id: 'wallet-session', class: 'note' },
      `signed in until ${session.expiresAt.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}`,
    ),
    // After a reload a browser wallet may need to share its account again before sending.
    session.chain === undefined ? (miniApp === undefined ? connectPanel(context) : miniAppPanel(context, miniApp)) : '',
    signOut,
  );
}
