import { runAction } from '../actions.ts';
import type { AppContext } from '../context.ts';
import { h } from '../dom.ts';
import { shortAddress } from '../format.ts';
import { forgetSession, signInWith } from '../session.ts';
import type { WalletKind } from '../session.ts';

/** Connect buttons: the development wallet (local chain only) and a browser wallet. */
export function connectPanel(context: AppContext): HTMLElement {
  const panel = h('div', { class: 'row connect' });
  const connect = (wallet: WalletKind, label: string) => {
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
  return panel;
}

/** The header's wallet area: who is signed in and until when, or the connect buttons. */
export function renderWalletArea(area: HTMLElement, context: AppContext): void {
  const session = context.session;
  if (session === undefined) {
    area.replaceChildren(connectPanel(context));
    return;
  }
  const signOut = h('button', { type: 'button', class: 'secondary', id: 'sign-out' }, 'Sign out');
  signOut.addEventListener('click', () => {
    forgetSession();
    context.setSession(undefined);
  });
  area.replaceChildren(
    h('span', { id: 'wallet-address', title: session.address }, shortAddress(session.address)),
    h(
      'span',
      { id: 'wallet-session', class: 'note' },
      `signed in until ${session.expiresAt.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}`,
    ),
    // After a reload a browser wallet may need to share its account again before sending.
    session.chain === undefined ? connectPanel(context) : '',
    signOut,
  );
}
