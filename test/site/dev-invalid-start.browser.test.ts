/**
 * `skillpress dev` on a catalog that starts with an invalid skill: it serves the others (so the
 * catalog can be worked on), and says which skill it leaves out and why, in the terminal and on
 * the open pages, as `build` would. Found in a trial on the ten public catalogs together, where
 * 26 skills were left out of the served catalog without a word.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { writeFixtureSkills } from './helpers/fixture.ts';
import { stopChild } from '../helpers/stop-child.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const skip = skipWithoutChromium();
let tmp: string;
let dev: ChildProcess | undefined;
let stderr = '';
let stdout = '';
let browser: Browser;

/** Resolves once `stream()` holds `text`. */
function shows(stream: () => string, text: string, timeout = 90_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = setInterval(() => {
      if (stream().includes(text)) {
        clearInterval(check);
        resolve();
      } else if (Date.now() - started > timeout) {
        clearInterval(check);
        reject(new Error(`no "${text}" from skillpress dev in ${timeout} ms:\n${stderr}`));
      }
    }, 20);
  });
}

beforeAll(async () => {
  if (skip) return;
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-dev-invalid-'));
  await writeFixtureSkills(path.join(tmp, 'skills'));
  await mkdir(path.join(tmp, 'skills/broken-start'));
  await writeFile(
    path.join(tmp, 'skills/broken-start/SKILL.md'),
    "---\nname: broken-start\ndescription: 'never closed\n---\nBody.\n",
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stopChild(dev);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe.skipIf(skip)('skillpress dev, a catalog that starts with an invalid skill', () => {
  it('serves the valid skills and names the one left out, in the terminal and on the page', async () => {
    dev = spawn(
      path.join(REPO, 'node_modules/.bin/node'),
      [path.join(REPO, 'scripts/skillpress.mjs'), 'dev', '--skills', 'skills', '--port', '0'],
      { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    dev.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    dev.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));

    await shows(() => stderr, 'dev: build 1:');
    expect(stderr).toMatch(
      /dev: 1 invalid skill\(s\) left out[^\n]*\n {2}skills\/broken-start\/SKILL\.md:\d+: error \[frontmatter-yaml\]/,
    );

    await shows(() => stdout, 'serving at');
    const url = /serving at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)![1]!;
    const page = await browser.newPage();
    await page.goto(url);
    const box = page.locator('#skillpress-dev-warnings');
    await box.waitFor({ timeout: 60_000 });
    expect(await box.locator('summary').textContent()).toMatch(/skillpress dev: 1 invalid skill left out/);
    await box.locator('summary').click();
    expect(await box.locator('pre').first().textContent()).toContain('skills/broken-start/SKILL.md');
    await page.close();
  }, 300_000);
});
