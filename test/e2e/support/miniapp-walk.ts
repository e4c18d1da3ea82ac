/**
 * Songmint inside a Farcaster client, walked on an `npm start` stack (test/e2e/npm-start.test.ts
 * starts it with FARCASTER_RPC_URL, FARCASTER_QUICK_AUTH_ORIGIN and FARCASTER_RELAY_URL naming the
 * doubles `startFarcasterDoubles` starts). A host page built with @farcaster/miniapp-host (the
 * SDK's own message channel, as Farcaster clients expose it) frames the app at 424 x 695. The
 * host's `signIn` builds and signs the SIWF message with the custody key of a fid registered on the
 * local OP chain's IdRegistry double; the app's Quick Auth server is the loopback double of
 * Farcaster's, which verifies that SIWF with @farcaster/auth-client and issues the token; the
 * host's wallet is a funded key on the stack's chain, signing in Node.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createWalletClient as createFarcasterWalletClient } from '@farcaster/auth-client';
import { build } from 'esbuild';
import { createPublicClient, createWalletClient, http, parseEther } from 'viem';
import type { Hex, TypedDataDefinition } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Page } from 'playwright-core';
import { connectSongmint, launchSong, localBaseChain } from '../../../sdk/src/index.ts';
import type { SongmintContracts } from '../../../sdk/src/index.ts';
import { startFarcasterRelay } from '../../support/farcaster-relay.ts';
import type { FarcasterRelay } from '../../support/farcaster-relay.ts';
import { startLocalOptimism } from '../../support/local-optimism.ts';
import type { LocalOptimism } from '../../support/local-optimism.ts';
import type { NpmStartStack } from '../../support/npm-start.ts';
import { startQuickAuthIssuer } from '../../support/quick-auth-issuer.ts';
import type { QuickAuthIssuer } from '../../support/quick-auth-issuer.ts';
import { launchChromium } from './browser.ts';

const SCREENSHOTS = join(process.cwd(), 'test-results', 'browser');
const STEP_TIMEOUT_MS = 180_000;
const FRAME = { width: 424, height: 695 };
const INSETS = { top: 44, bottom: 34, left: 0, right: 0 };

// The host page's script: its handlers answer from Node through playwright's exposed functions.
const HOST_SCRIPT = `
import { exposeToIframe } from '@farcaster/miniapp-host';
const setup = window.hostSetup;
const iframe = document.getElementById('app');
const ethProvider = {
  request: async (request) => {
    const answer = JSON.parse(await window.hostEthRequest(JSON.stringify(request)));
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    return answer.result;
  },
  on() {},
  removeListener() {},
};
exposeToIframe({
  iframe,
  miniAppOrigin: setup.appOrigin,
  ethProvider,
  sdk: {
    context: setup.context,
    ready: async () => { await window.hostReady(); },
    close: () => {},
    openUrl: () => {},
    signIn: async (options) => JSON.parse(await window.hostSignIn(JSON.stringify(options))),
    composeCast: async (options) => {
      await window.hostComposeCast(JSON.stringify(options));
      return { cast: { hash: '0x' + '11'.repeat(20), text: options.text, embeds: options.embeds } };
    },
    getCapabilities: async () => ['actions.ready', 'actions.signIn', 'actions.composeCast', 'wallet.getEthereumProvider', 'quickAuth'],
    getChains: async () => ['eip155:' + setup.chainId],
  },
});
iframe.src = setup.appUrl;
`;

async function hostBundle(): Promise<string> {
  const result = await build({
    stdin: { contents: HOST_SCRIPT, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error('no host bundle');
  return file.text;
}

/** The outside services a Farcaster sign-in reaches, as loopback doubles, and the stack's environment naming them. */
export interface FarcasterDoubles {
  chain: LocalOptimism;
  issuer: QuickAuthIssuer;
  relay: FarcasterRelay;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startFarcasterDoubles(): Promise<FarcasterDoubles> {
  const chain = await startLocalOptimism();
  const issuer = await startQuickAuthIssuer({ farcasterRpcUrl: chain.rpcUrl });
  const relay = await startFarcasterRelay();
  return {
    chain,
    issuer,
    relay,
    env: { FARCASTER_RPC_URL: chain.rpcUrl, FARCASTER_QUICK_AUTH_ORIGIN: issuer.origin, FARCASTER_RELAY_URL: relay.url },
    stop: async () => {
      await Promise.all([chain.stop(), issuer.stop(), relay.stop()]);
    },
  };
}

/** The host page (another origin than the app's: localhost, not 127.0.0.1, as a Farcaster client's page is). */
async function startHostPage(): Promise<{ url: string; close(): Promise<void> }> {
  const script = await hostBundle();
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Farcaster host</title>
<style>body{margin:0;background:#222}iframe{border:0;display:block;width:${FRAME.width}px;height:${FRAME.height}px;background:#fff}</style></head>
<body><iframe id="app" title="Songmint"></iframe><script type="module" src="/host.js"></script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/host.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Quick Auth through the host, the frame's fit, generate, mint, buy and share as a cast, every transaction through the host's wallet. */
export async function walkTheMiniApp(stack: NpmStartStack, { chain }: FarcasterDoubles): Promise<void> {
  const custody = privateKeyToAccount(generatePrivateKey());
  const wallet = privateKeyToAccount(generatePrivateKey());
  const fid = await chain.registerFid(custody.address);
  const { rpc, contracts } = JSON.parse(await readFile(join(stack.dataDir, 'dev-stack.json'), 'utf8')) as {
    rpc: string;
    contracts: SongmintContracts;
  };
  // The host's wallet: a fresh key, funded on the stack's chain.
  await createPublicClient({ transport: http(rpc) }).request({
    method: 'hardhat_setBalance' as never,
    params: [wallet.address, `0x${parseEther('100').toString(16)}`] as never,
  });
  const host = await startHostPage();
  const hostUrl = host.url;
  try {
    await mkdir(SCREENSHOTS, { recursive: true });
    const appUrl = `${stack.baseUrl}/app/`;
    const appHost = new URL(stack.baseUrl).host;
    const readClient = createPublicClient({ chain: localBaseChain(rpc), transport: http(rpc) });
    const walletClient = createWalletClient({ account: wallet, chain: localBaseChain(rpc), transport: http(rpc) });
    const farcasterWallet = createFarcasterWalletClient({
      ethereum: { getFid: async () => 0n, isValidAuthAddress: async () => false } as never,
    });

    const readyCalls: number[] = [];
    const casts: Array<{ text?: string; embeds?: string[] }> = [];
    const signIns: string[] = [];
    const walletRequests: string[] = [];
    const browser = await launchChromium({ width: 480, height: 760 });
    try {
      const page: Page = await browser.context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const consoleLines: string[] = [];
      page.on('console', (line) => consoleLines.push(`${line.type()}: ${line.text()}`));
      const hostSetup = {
        appOrigin: new URL(stack.baseUrl).origin,
        appUrl,
        chainId: await readClient.getChainId(),
        context: {
          user: { fid: Number(fid), username: 'songwriter' },
          client: { clientFid: 9152, added: false, safeAreaInsets: INSETS },
          location: { type: 'launcher' },
        },
      };
      // A string (the project's TypeScript has no DOM types): the host page's script reads it.
      await page.addInitScript(`window.hostSetup = ${JSON.stringify(hostSetup)};`);
      await page.exposeFunction('hostReady', () => void readyCalls.push(Date.now()));
      await page.exposeFunction(
        'hostComposeCast',
        (json: string) => void casts.push(JSON.parse(json) as { text?: string; embeds?: string[] }),
      );
      // The Farcaster client's sign-in: a SIWF message for the app's domain, signed by the fid's custody key.
      await page.exposeFunction('hostSignIn', async (json: string) => {
        const options = JSON.parse(json) as { nonce: string; notBefore?: string; expirationTime?: string };
        const built = farcasterWallet.buildSignInMessage({
          address: custody.address,
          fid: Number(fid),
          uri: appUrl,
          domain: appHost,
          nonce: options.nonce,
          ...(options.notBefore === undefined ? {} : { notBefore: new Date(options.notBefore) }),
          ...(options.expirationTime === undefined ? {} : { expirationTime: new Date(options.expirationTime) }),
        });
        if (built.isError) throw built.error;
        signIns.push(built.message);
        return JSON.stringify({
          message: built.message,
          signature: await custody.signMessage({ message: built.message }),
          authMethod: 'custody',
        });
      });
      // The Farcaster client's wallet: the funded key signs here; reads go to the stack's chain.
      await page.exposeFunction('hostEthRequest', async (json: string) => {
        const { method, params = [] } = JSON.parse(json) as { method: string; params?: unknown[] };
        walletRequests.push(method);
        try {
          const result = await (async (): Promise<unknown> => {
            switch (method) {
              case 'eth_requestAccounts':
              case 'eth_accounts':
                return [wallet.address];
              case 'personal_sign':
                return wallet.signMessage({ message: { raw: params[0] as Hex } });
              case 'eth_signTypedData_v4':
                return wallet.signTypedData(JSON.parse(params[1] as string) as TypedDataDefinition);
              case 'eth_sendTransaction': {
                const tx = params[0] as { to: Hex; data?: Hex; value?: Hex; gas?: Hex };
                return walletClient.sendTransaction({
                  to: tx.to,
                  ...(tx.data === undefined ? {} : { data: tx.data }),
                  ...(tx.value === undefined ? {} : { value: BigInt(tx.value) }),
                  ...(tx.gas === undefined ? {} : { gas: BigInt(tx.gas) }),
                });
              }
              default:
                return readClient.request({ method: method as never, params: params as never });
            }
          })();
          return JSON.stringify({ result });
        } catch (error) {
          return JSON.stringify({ error: { code: 4001, message: error instanceof Error ? error.message : String(error) } });
        }
      });

      await page.goto(hostUrl);
      const frame = page.frameLocator('#app');
      const appFrame = async () => {
        const found = page.frames().find((candidate) => candidate.url().startsWith(stack.baseUrl));
        assert.ok(found !== undefined, 'the app is framed');
        return found;
      };

      // ready() once the first page is on screen; the insets as padding; nothing wider than the frame.
      const signInButton = frame.getByRole('button', { name: 'Sign in with Farcaster' });
      await signInButton.waitFor({ timeout: STEP_TIMEOUT_MS });
      for (let waited = 0; readyCalls.length === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(readyCalls.length, 1, 'sdk.actions.ready() called once');
      assert.equal(
        await frame.getByRole('button', { name: 'Connect browser wallet' }).count(),
        0,
        "the host's wallet, not a browser wallet",
      );
      const layout = (await (
        await appFrame()
      ).evaluate(`({
          miniapp: document.documentElement.classList.contains('miniapp'),
          paddingTop: getComputedStyle(document.body).paddingTop,
          paddingBottom: getComputedStyle(document.body).paddingBottom,
          scrollWidth: document.documentElement.scrollWidth,
          width: window.innerWidth,
          height: window.innerHeight,
        })`)) as { miniapp: boolean; paddingTop: string; paddingBottom: string; scrollWidth: number; width: number; height: number };
      assert.deepEqual(
        { ...layout, scrollWidth: undefined },
        { miniapp: true, paddingTop: '44px', paddingBottom: '34px', scrollWidth: undefined, width: FRAME.width, height: FRAME.height },
      );
      assert.ok(layout.scrollWidth <= FRAME.width, `nothing scrolls sideways (${layout.scrollWidth} px)`);
      await page.screenshot({ path: join(SCREENSHOTS, 'miniapp-1-signed-out.png') });

      // Quick Auth through the host: one SIWF signature by the custody key, one wallet proof the first time.
      await signInButton.click();
      await frame.locator('#wallet-fid').or(frame.locator('[role="alert"]:not(:empty)')).first().waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.deepEqual(
        await frame.locator('[role="alert"]:not(:empty)').allTextContents(),
        [],
        `no error shown; console: ${consoleLines.join('\n')}`,
      );
      assert.equal((await frame.locator('#wallet-fid').textContent())?.trim(), `fid ${fid}`);
      assert.equal(await frame.locator('#wallet-address').getAttribute('title'), wallet.address);
      assert.equal(signIns.length, 1);
      assert.match(signIns[0] ?? '', new RegExp(`farcaster://fid/${fid}`));
      assert.equal(walletRequests.filter((method) => method === 'personal_sign').length, 1, 'one wallet proof');
      await page.screenshot({ path: join(SCREENSHOTS, 'miniapp-2-signed-in.png') });

      // Generate and mint, every transaction through the host's wallet.
      await frame.getByLabel('Prompt').fill('warm lo-fi piano, 80 bpm, rainy evening');
      await frame.getByRole('button', { name: 'Generate' }).click();
      const done = frame.locator('#songs li.card[data-status="completed"]').first();
      await done.waitFor({ timeout: STEP_TIMEOUT_MS });
      await done.getByRole('button', { name: 'Mint this song…' }).click();
      await done.getByRole('button', { name: 'Mint', exact: true }).click();
      await done.locator('.state', { hasText: /^Minted as #\d+/ }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const tokenId = BigInt(/#(\d+)/.exec(await done.locator('.state').first().innerText())?.[1] ?? '0');
      assert.ok(tokenId > 0n);
      assert.ok(walletRequests.includes('eth_sendTransaction'), "the mint went through the host's wallet");
      await page.screenshot({ path: join(SCREENSHOTS, 'miniapp-3-minted.png') });

      // Launched by its owner (the same key, from Node), then bought inside the frame.
      await launchSong(connectSongmint({ rpcUrl: rpc, contracts, wallet: { account: wallet } }), { songId: tokenId });
      const sentBefore = walletRequests.filter((method) => method === 'eth_sendTransaction').length;
      // The app's own navigation (a link's click), to the song page.
      await (
        await appFrame()
      ).evaluate(`window.history.pushState(null, '', '/app/song/${tokenId}'); window.dispatchEvent(new PopStateEvent('popstate'));`);
      await frame.getByLabel('ETH to spend').fill('0.01');
      await frame.locator('#buy-quote dl.facts').waitFor({ timeout: STEP_TIMEOUT_MS });
      await frame.getByRole('button', { name: 'Buy', exact: true }).click();
      await frame.locator('#last-trade', { hasText: 'Bought' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.ok(
        walletRequests.filter((method) => method === 'eth_sendTransaction').length > sentBefore,
        "the buy went through the host's wallet",
      );
      await page.screenshot({ path: join(SCREENSHOTS, 'miniapp-4-bought.png') });

      // Share: the host's cast composer with the song page as the embed.
      await frame.locator('#share-song').click();
      for (let waited = 0; casts.length === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(casts.length, 1);
      assert.deepEqual(casts[0]?.embeds, [`${stack.baseUrl}/app/song/${tokenId}`]);
      await frame.getByText('Shared as a cast.').first().waitFor({ timeout: STEP_TIMEOUT_MS });
      await page.screenshot({ path: join(SCREENSHOTS, 'miniapp-5-cast.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
    }
  } finally {
    await host.close();
  }
}

/** Outside a Farcaster client: Sign in with Farcaster shows the relay's channel as a QR code and deep link, and signs the fid in. */
export async function walkFarcasterRelaySignIn(stack: NpmStartStack, { chain, relay }: FarcasterDoubles): Promise<void> {
  const signer = privateKeyToAccount(generatePrivateKey());
  const otherFid = await chain.registerFid(signer.address);
  const farcasterWallet = createFarcasterWalletClient({
    ethereum: { getFid: async () => 0n, isValidAuthAddress: async () => false } as never,
  });
  const browser = await launchChromium({ width: 1280, height: 800 });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${stack.baseUrl}/app/`);
    await page.locator('#farcaster-sign-in').click();
    const link = page.locator('#farcaster-deep-link');
    await link.waitFor({ timeout: STEP_TIMEOUT_MS });
    const [channel] = relay.channels().slice(-1);
    assert.ok(channel !== undefined, 'a channel on the relay');
    assert.equal(await link.getAttribute('href'), channel.url);
    assert.equal(await page.locator('#farcaster-qr svg').count(), 1, 'the QR code');
    assert.equal(channel.domain, new URL(stack.baseUrl).host);
    assert.equal(await page.evaluate(`document.documentElement.classList.contains('miniapp')`), false);
    await page.screenshot({ path: join(SCREENSHOTS, 'siwf-1-qr.png') });

    // The user's Farcaster client signs the channel's SIWF message with the fid's custody key.
    const built = farcasterWallet.buildSignInMessage({
      address: signer.address,
      fid: Number(otherFid),
      uri: channel.siweUri,
      domain: channel.domain,
      nonce: channel.nonce,
    });
    assert.equal(built.isError, false, built.error?.message);
    const message = built.message as string;
    relay.approve(channel.channelToken, { message, signature: await signer.signMessage({ message }), fid: Number(otherFid) });
    await page.locator('#wallet-fid').waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal((await page.locator('#wallet-fid').textContent())?.trim(), `fid ${otherFid}`);
    assert.equal(await page.locator('#wallet-address').getAttribute('title'), signer.address);
    assert.equal(await page.locator('#farcaster-dialog').count(), 0, 'the dialog is gone');
    await page.screenshot({ path: join(SCREENSHOTS, 'siwf-2-signed-in.png') });
  } finally {
    await browser.close();
  }
}
