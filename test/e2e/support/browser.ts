/**
 * Debian's Chromium driven by playwright-core for the web app's test: never a downloaded browser.
 * Install it with `apt-get install -y chromium`; without it the browser test is skipped with
 * that reason printed.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { makeTempDir } from '../../../core/src/testing/temp-dirs.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser test cannot run here, or undefined when it can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM_PATH)
    ? undefined
    : `no Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install -y chromium) to run the browser test`;
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The test starts playback from script; a person's click needs no such flag.
  '--autoplay-policy=no-user-gesture-required',
];

/** A headless Chromium with a fresh profile folder (removed by `close`). */
export async function launchChromium(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = await makeTempDir('chromium-profile');
  const context = await chromium.launchPersistentContext(profile.path, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      await profile.remove();
    },
  };
}
