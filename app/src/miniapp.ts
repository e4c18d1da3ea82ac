import type { sdk as miniAppSdkInstance } from '@farcaster/miniapp-sdk';
import type { EIP1193Provider } from 'viem';
import type { AppConfig } from './config.ts';

/**
 * Songmint inside a Farcaster client (a Mini App). The client renders the app in an iframe (web)
 * or a React Native webview (mobile) and answers over the SDK's message channel: a Quick Auth
 * token for sign-in, its wallet for every transaction, its cast composer for sharing and the
 * safe-area insets of its frame. The SDK is imported only in such a frame, so the first load of
 * the web app in a browser tab stays within its script budget.
 */
export interface MiniApp {
  /** The client's wallet (EIP-1193): the wallet proof and every transaction. */
  provider: EIP1193Provider;
  /** A Quick Auth JWT for this app's domain, from the client's Quick Auth server. */
  quickAuthToken(): Promise<string>;
  /** Tells the client the first page is on screen (it hides its splash screen). */
  ready(): Promise<void>;
  /** The user's fid as the client reports it (not proof of anything: the token is). */
  fid: number;
}

type MiniAppSdk = typeof miniAppSdkInstance;

/** Could this page be a Mini App? A parent frame or a React Native webview; a plain tab is not. */
export function maybeInMiniApp(): boolean {
  return window.parent !== window || 'ReactNativeWebView' in window;
}

/** The SDK when a Farcaster client hosts this page (checked over its message channel), else undefined. */
export async function miniAppSdk(): Promise<MiniAppSdk | undefined> {
  if (!maybeInMiniApp()) return undefined;
  const { sdk } = await import('@farcaster/miniapp-sdk');
  return (await sdk.isInMiniApp()) ? sdk : undefined;
}

/** The client's frame edges the app must keep clear of (notch, home bar, the client's own buttons). */
function applySafeAreaInsets(insets: { top: number; bottom: number; left: number; right: number } | undefined): void {
  const root = document.documentElement;
  root.classList.add('miniapp');
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const pixels = insets?.[side];
    root.style.setProperty(`--safe-area-${side}`, `${typeof pixels === 'number' && Number.isFinite(pixels) && pixels > 0 ? pixels : 0}px`);
  }
}

/** Connects to the hosting Farcaster client, or undefined in a plain browser tab. */
export async function connectMiniApp(config: AppConfig): Promise<MiniApp | undefined> {
  const sdk = await miniAppSdk();
  if (sdk === undefined) return undefined;
  const context = await sdk.context;
  applySafeAreaInsets(context.client.safeAreaInsets);
  const provider = await sdk.wallet.getEthereumProvider();
  if (provider === undefined) throw new Error('This Farcaster client offers no Ethereum wallet to this app');
  return {
    provider: provider as unknown as EIP1193Provider,
    fid: context.user.fid,
    quickAuthToken: async () => (await sdk.quickAuth.getToken({ quickAuthServerOrigin: config.quickAuthOrigin })).token,
    ready: () => sdk.actions.ready(),
  };
}

/** Shares a page as a cast: the client's composer with the text and the page's link as an embed. */
export async function composeCast(sdk: MiniAppSdk, { text, url }: { text: string; url: string }): Promise<boolean> {
  const result = await sdk.actions.composeCast({ text, embeds: [url] });
  return result?.cast !== null && result?.cast !== undefined;
}
