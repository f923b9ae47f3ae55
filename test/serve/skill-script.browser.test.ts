/**
 * A skill's script never runs on the catalog's origin, even from a page of the site that loads it
 * with `<script src>` (what a tampered cache once put into a rendered SKILL.md): the site's CSP
 * allows scripts from its own origin, so the preview server sends skill scripts as `text/plain`
 * with `nosniff`, which Chromium refuses to run. The same bytes outside the skill-file folders
 * do run (the control: the test can fail).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from '../site/helpers/browser.ts';

const skip = skipWithoutChromium();
const SCRIPT = "document.title = 'script ran';\n";

describe.skipIf(skip)('a skill script loaded by a page of the site', () => {
  let dir: string;
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'skillpress-skill-script-'));
    await mkdir(path.join(dir, 'feed/v1/files/demo'), { recursive: true });
    await mkdir(path.join(dir, '_astro'), { recursive: true });
    await writeFile(path.join(dir, 'feed/v1/files/demo/x.js'), SCRIPT);
    await writeFile(path.join(dir, '_astro/site.js'), SCRIPT);
    const page = (src: string) => `<!doctype html><title>page</title><script src="${src}"></script>`;
    await writeFile(path.join(dir, 'skill.html'), page('/feed/v1/files/demo/x.js'));
    await writeFile(path.join(dir, 'own.html'), page('/_astro/site.js'));
    server = await serveStatic({ root: dir });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('does not run; the site’s own script does', async () => {
    const ctx = await browser.newContext();
    const tab = await ctx.newPage();
    await tab.goto(`${server.url}skill.html`);
    expect(await tab.title()).toBe('page');
    await tab.goto(`${server.url}own.html`);
    expect(await tab.title()).toBe('script ran');
    await ctx.close();
  });
});
