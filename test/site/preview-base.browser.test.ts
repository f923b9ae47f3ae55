/**
 * `skillpress build --base /skills/` then `skillpress preview` (no --base): preview serves the
 * site where it was built to live, so its stylesheets and scripts load (they used to 404 at /).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture } from './helpers/fixture.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let preview: ChildProcess;
let url: string;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  fixture = await buildFixtureSite({ base: '/skills/' });
  preview = spawn(
    path.join(REPO, 'node_modules/.bin/node'),
    [path.join(REPO, 'scripts/skillpress.mjs'), 'preview', '--out', fixture.outDir, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  url = await new Promise((resolve, reject) => {
    let output = '';
    preview.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/\S*) /.exec(output)?.[1];
      if (found) resolve(found);
    });
    preview.once('exit', (code) => reject(new Error(`skillpress preview exited with ${code}: ${output}`)));
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  preview?.kill('SIGTERM');
  await fixture?.cleanup();
});

describe.skipIf(skip)('preview after build --base /skills/', () => {
  it('serves at the base the build recorded, with every stylesheet and script loaded', async () => {
    expect(new URL(url).pathname).toBe('/skills/');
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
    await page.goto(url);
    expect(
      await page
        .locator('.card')
        .first()
        .evaluate((el) => getComputedStyle(el).borderTopLeftRadius),
    ).toBe('12px');
    await page.click('.card h3 a >> nth=0');
    await page.waitForURL(/\/skills\/skills\/[^/]+\/$/);
    expect(failed).toEqual([]);
    await page.close();
  });
});
