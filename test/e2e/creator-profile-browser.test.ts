/**
 * A creator edits their profile in the web app (issue 51 item 5), in Debian's Chromium: the
 * oracle over the storage stack's real PostgreSQL, s3rver and IPFS blockstore, the app's real
 * build at /app as npm start mounts it. Signed in (the session the app keeps), the owner opens the
 * Edit profile form with the keyboard, is refused a name with a bidi override next to Save, saves a
 * name, bio and picture, and a visitor then sees them; axe finds no violation of any impact, and
 * the page is screenshotted at 1280 and 360 px (test-results/browser/creator-profile-*).
 * No chain is started: the creator page reads only the API (its chain reads fail and are left out).
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import type { BrowserContext, Page } from 'playwright-core';
import { devAppRouter, ensureAppBuilt } from '../../scripts/dev-app.ts';
import { RGB, encodePng } from '../../scripts/png.ts';
import type { LoggedIn } from '../oracle/helpers/test-app.ts';
import { PUBLIC_BASE_URL, coinsWithoutChain, startStorageStack } from '../oracle/storage-stack.ts';
import type { StorageStack } from '../oracle/storage-stack.ts';
import { chromiumMissing, launchChromium } from './support/browser.ts';
import { SCREENSHOTS, checkView } from './support/web-app-walk.ts';

const browserSkip = chromiumMissing();
if (browserSkip !== undefined) console.log(`# creator profile browser test skipped: ${browserSkip}`);

const VAULT = '0x00000000000000000000000000000000000000f1' as Address;

/** What the page's functions below read of the page (this file is compiled without the DOM library). */
declare const document: { readonly activeElement: { readonly id: string; readonly textContent: string | null } | null };
declare const localStorage: { setItem(key: string, value: string): void; removeItem(key: string): void };

describe('a creator edits their profile in the web app', { skip: browserSkip }, () => {
  let stack: StorageStack;
  let alice: LoggedIn;
  let browser: { context: BrowserContext; close(): Promise<void> };

  before(async () => {
    await ensureAppBuilt();
    await mkdir(SCREENSHOTS, { recursive: true });
    stack = await startStorageStack({
      coins: coinsWithoutChain(VAULT),
      publicRouters: [{ path: '/app', router: devAppRouter({ rpcUrl: 'http://127.0.0.1:9', contracts: {}, developmentWallet: false }) }],
    });
    alice = await stack.app.login();
    browser = await launchChromium({ width: 1280, height: 900 });
    // The CDN in front of the bucket's public prefixes (covers/, where avatars live): answered from s3rver.
    await browser.context.route(`${PUBLIC_BASE_URL}/**`, async (route) => {
      const key = new URL(route.request().url()).pathname.slice(1);
      const object = await stack.objectStore.get(key);
      if (!object.ok) return route.fulfill({ status: 404 });
      return route.fulfill({
        status: 200,
        contentType: object.value.contentType ?? 'application/octet-stream',
        body: Buffer.from(object.value.bytes),
      });
    });
  });
  after(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** The page with the session the app keeps after a sign-in (a browser wallet it no longer trusts: signed in, no wallet). */
  async function signedInPage(): Promise<Page> {
    const page = await browser.context.newPage();
    const session = {
      token: alice.token,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      address: getAddress(alice.address),
      wallet: 'injected',
      tier: 'free',
      socialFid: null,
    };
    await page.addInitScript((kept) => localStorage.setItem('songmint.session', kept), JSON.stringify(session));
    return page;
  }

  it('edits name, bio and picture with the keyboard; refusals next to Save; a visitor sees them', async () => {
    const page = await signedInPage();
    const path = `/app/creator/${getAddress(alice.address)}`;
    await page.goto(`${stack.app.baseUrl}${path}`);
    const toggle = page.locator('#profile-edit-toggle');
    await toggle.waitFor();
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'profile-name', 'the form opens on its first field');

    // A name that would reorder the text around it: refused next to Save, nothing saved.
    await page.keyboard.type('evil\u202Egnp.exe');
    await page.keyboard.press('Enter');
    const alert = page.locator('#profile-form .action-messages .action-alert');
    await alert.waitFor({ state: 'visible' });
    assert.match((await alert.textContent()) ?? '', /bidi/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'profile-name', 'focus stays where Enter was pressed');
    const stored = await stack.app.db.one<{ display_name: string | null }>('SELECT display_name FROM users WHERE id = $1', [alice.userId]);
    assert.equal(stored.display_name, null);

    await page.locator('#profile-name').fill('');
    await page.locator('#profile-name').focus();
    await page.keyboard.type('Alice Nightdrive');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'profile-bio');
    await page.keyboard.type('Synthwave at night.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Berlin, 3 am.');
    const picture = encodePng(96, 96, RGB, (x, y) => [200 - x, 80 + y, 180]);
    await page.locator('#profile-avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(picture) });
    const save = page.locator('#profile-form button[type=submit]');
    await save.focus();
    await page.keyboard.press('Enter');
    await page.locator('#profile-form .action-messages .action-status', { hasText: 'Profile saved.' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Save profile', 'focus stays on Save');
    assert.equal(await page.locator('#view-title').textContent(), 'Your profile: Alice Nightdrive');
    assert.equal(await page.locator('#creator-bio').textContent(), 'Synthwave at night.\nBerlin, 3 am.');
    await page.locator('#creator-avatar').waitFor();
    assert.ok(
      await page.locator('#creator-avatar').evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth === 96),
      'the picture loads',
    );
    await checkView(page, 'creator-profile-owner', { everyImpact: true });

    // A visitor: the name, bio and picture, the address beside them, no form.
    const other = await browser.context.newPage();
    await other.addInitScript(() => localStorage.removeItem('songmint.session'));
    await other.goto(`${stack.app.baseUrl}${path}`);
    await other.locator('#creator-bio').waitFor();
    assert.equal(await other.locator('#view-title').textContent(), 'Alice Nightdrive');
    assert.equal(await other.locator('#creator-address').textContent(), getAddress(alice.address));
    assert.equal(await other.locator('#profile-edit-toggle').count(), 0);
    await other.locator('#creator-avatar').waitFor();
    await checkView(other, 'creator-profile-visitor', { everyImpact: true });
    await other.close();
    await page.close();
  });
});
