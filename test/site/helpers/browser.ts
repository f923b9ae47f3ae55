/** Debian's Chromium, driven by playwright-core. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** Headless, and nothing of its own on the network (updates, background fetches) while it is timed or tested. */
export const CHROMIUM_SWITCHES = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
] as const;

/** `extraArgs`: more switches, e.g. the certificate a bench's HTTPS server may use. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_SWITCHES, ...extraArgs] });
}

/**
 * Browser tests run wherever Chromium is installed and always under CI (.ci/run installs it);
 * elsewhere they are skipped with one loud line instead of failing on a missing binary.
 */
export function skipWithoutChromium(): boolean {
  if (hasChromium()) return false;
  if (process.env.CI)
    throw new Error(`Chromium is required under CI: nothing at ${CHROMIUM} (apt-get install -y chromium)`);
  process.stderr.write(
    `\n*** site browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH) ***\n\n`,
  );
  return true;
}
