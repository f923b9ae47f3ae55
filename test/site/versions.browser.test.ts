/**
 * A skill's version history on its page: a skill written with create/update (three versions),
 * built with the site, served on 127.0.0.1 and opened in Chromium. The Versions panel lists
 * each version newest first with its changes, marks the latest, and links an earlier version's
 * archive whose bytes match the sha256 in the skill JSON.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { createSkill, updateSkill } from '../../src/author/index.ts';
import { build } from '../../src/build.ts';
import { SkillpressConfig } from '../../src/model/config.ts';

const skip = skipWithoutChromium();
let tmp: string;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-versions-site-'));
  const skills = path.join(tmp, 'skills');
  await mkdir(skills);
  await createSkill({
    skills,
    name: 'reset-password',
    description: 'Reset a customer password.',
    body: '# Reset\n\n## Steps\n\n1. Send the link.\n',
    duplicates: false,
  });
  await updateSkill({
    skills,
    name: 'reset-password',
    body: '# Reset\n\n## Steps\n\n1. Send the link.\n\n## Locked accounts\n\nUnlock first.\n',
  });
  await updateSkill({ skills, name: 'reset-password', files: [{ path: 'templates/email.md', content: 'Hi!\n' }] });
  const out = path.join(tmp, 'out');
  await build({ skills, out, config: SkillpressConfig.parse({}) });
  server = await serveStatic({ root: out });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe.skipIf(skip)('the version history on a skill page', () => {
  it('lists every version with its changes, the latest marked, earlier archives downloadable and matching their sha256', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}skills/reset-password/`);
    const panel = page.locator('#versions');
    await expect(panel.locator('h2').textContent()).resolves.toMatch(/Versions\s*3/);
    const items = panel.locator('li[data-version]');
    expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-version')))).toEqual(['3', '2', '1']);
    await expect(items.nth(0).textContent()).resolves.toMatch(/v3\s*latest[\s\S]*file added: templates\/email\.md/);
    await expect(items.nth(1).textContent()).resolves.toMatch(/section "Locked accounts" added/);
    await expect(items.nth(2).textContent()).resolves.toMatch(/created/);
    const link = items.nth(1).locator('a[download]');
    const href = await link.getAttribute('href');
    const sha = (await link.getAttribute('title'))!.replace('sha256 ', '');
    const bytes = await page.evaluate(
      async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())),
      href!,
    );
    expect(createHash('sha256').update(Buffer.from(bytes)).digest('hex')).toBe(sha);
    expect(await items.nth(0).locator('a[download]').count()).toBe(0);
    // How to install one: this site's address filled in (the registry has no configured URL).
    await expect(panel.locator('[data-site-template] code').textContent()).resolves.toBe(
      `skillpress install ${server.url} reset-password@<version>`,
    );
    await page.screenshot({ path: 'test-results/screenshots/skill-versions.png', fullPage: true });
    await page.close();
  });
});
