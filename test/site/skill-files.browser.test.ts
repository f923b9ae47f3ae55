/**
 * No skill file runs script on the catalog's origin (issue 11, row 4): a skill ships a raw
 * `page.html` and an `evil.svg`; served by `skillpress preview` (the CLI, as a user runs it),
 * Chromium downloads them instead of running them, every skill file is sandboxed, the site links
 * active types as downloads, and `site.files_base_url` moves the files to an origin of their own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture } from './helpers/fixture.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { stopChild } from '../helpers/stop-child.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let separate: BuiltFixture;
let preview: ChildProcess;
let previewUrl: string;
let filesOrigin: StaticServer;
let separateSite: StaticServer;
let browser: Browser;

/** `skillpress preview --out <dir> --port 0`, resolved with the URL it prints. */
function startPreview(out: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    path.join(REPO, 'node_modules/.bin/node'),
    [path.join(REPO, 'scripts/skillpress.mjs'), 'preview', '--out', out, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`skillpress preview exited with ${code}: ${output}`)));
  });
}

beforeAll(async () => {
  if (skip) return;
  // The files' own origin: its address must be known before the build that links to it.
  let filesRoot = '';
  filesOrigin = await serveStatic({ root: () => filesRoot, base: '/skill-files/' });
  [fixture, separate] = await Promise.all([
    buildFixtureSite(),
    buildFixtureSite({ config: { site: { files_base_url: filesOrigin.url } } }),
  ]);
  filesRoot = path.join(separate.outDir, 'feed/v1/files');
  separateSite = await serveStatic({ root: separate.outDir });
  ({ child: preview, url: previewUrl } = await startPreview(fixture.outDir));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stopChild(preview);
  await separateSite?.close();
  await filesOrigin?.close();
  await fixture?.cleanup();
  await separate?.cleanup();
});

/** A page that records dialogs (what a script in a skill file would open). */
async function watchedPage(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser.newPage({ acceptDownloads: true });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, dialogs };
}

describe.skipIf(skip)('skill files on the catalog origin', () => {
  it('sends every skill file sandboxed and unsniffed, and active types as attachments', async () => {
    const { page } = await watchedPage();
    await page.goto(previewUrl);
    const headers = await page.evaluate(async (base) => {
      const out: Record<string, Record<string, string | null>> = {};
      for (const file of ['page.html', 'evil.svg', 'evil.html', 'SKILL.md']) {
        const res = await fetch(`${base}feed/v1/files/xss-attempt/${file}`);
        out[file] = {
          csp: res.headers.get('content-security-policy'),
          nosniff: res.headers.get('x-content-type-options'),
          disposition: res.headers.get('content-disposition'),
          type: res.headers.get('content-type'),
        };
      }
      return out;
    }, previewUrl);
    for (const file of ['page.html', 'evil.svg', 'evil.html'])
      expect(headers[file], file).toMatchObject({ csp: 'sandbox', nosniff: 'nosniff', disposition: 'attachment' });
    expect(headers['SKILL.md']).toEqual({
      csp: 'sandbox',
      nosniff: 'nosniff',
      disposition: null,
      type: 'text/markdown; charset=utf-8',
    });
    // The same rules, for static hosts that read a _headers file.
    const rules = await readFile(path.join(fixture.outDir, '_headers'), 'utf8');
    expect(rules).toContain(
      '/feed/v1/files/*\n  Content-Security-Policy: sandbox\n  X-Content-Type-Options: nosniff\n',
    );
    expect(rules).toContain('/feed/v1/files/*.svg\n  Content-Disposition: attachment\n');
    await page.close();
  });

  it('downloads page.html and evil.svg opened from the site instead of running them', async () => {
    const { page, dialogs } = await watchedPage();
    for (const file of ['page.html', 'evil.svg']) {
      await page.goto(`${previewUrl}skills/xss-attempt/`);
      const href = `${previewUrl}feed/v1/files/xss-attempt/${file}`;
      const download = page.waitForEvent('download');
      // As a visitor pasting the file's address, or following a link to it.
      await page.evaluate((h) => (location.href = h), href);
      expect((await download).suggestedFilename()).toBe(file);
      expect(page.url()).toBe(`${previewUrl}skills/xss-attempt/`);
    }
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('offers active types only as downloads in their file views', async () => {
    const { page } = await watchedPage();
    for (const file of ['page.html', 'evil.svg', 'evil.html']) {
      await page.goto(`${previewUrl}skills/xss-attempt/files/${file}/`);
      expect(await page.locator('[data-file-panel] [data-raw-link]').count(), file).toBe(0);
      expect(await page.getAttribute('[data-file-panel] [data-download-link]', 'download')).toBe(file);
    }
    await page.goto(`${previewUrl}skills/pdf-toolkit/files/scripts/extract.py/`);
    expect(await page.locator('[data-file-panel] [data-raw-link]').count()).toBe(1);
    await page.close();
  });
});

describe.skipIf(skip)('site.files_base_url', () => {
  it('links every skill file on the separate origin, and shows images from it', async () => {
    const { page } = await watchedPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${separateSite.url}skills/pdf-toolkit/`);
    const img = page.locator('[data-skill-body] img');
    expect(await img.getAttribute('src')).toBe(`${filesOrigin.url}pdf-toolkit/assets/logo.png`);
    expect(
      await img.evaluate((el: HTMLImageElement) =>
        el.decode().then(
          () => el.naturalWidth,
          () => 0,
        ),
      ),
    ).toBe(2);
    await page.click('.file-tree a:has-text("extract.py")');
    await page.waitForSelector('[data-viewer] [data-download-link]');
    const href = await page.getAttribute('[data-viewer] [data-download-link]', 'href');
    expect(href).toBe(`${filesOrigin.url}pdf-toolkit/scripts/extract.py`);
    expect(new URL(href!).origin).not.toBe(new URL(separateSite.url).origin);
    expect(errors).toEqual([]);
    await page.close();
  });
});
