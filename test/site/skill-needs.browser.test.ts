/**
 * "What this skill needs" once the build has checked the tools against real stdio MCP servers
 * (the tools check's fixture server): each badge says what was found, an agent's own tool is
 * "built-in" and a server the config does not list "not configured"; on a phone the badges
 * wrap whole, between words, and nothing overflows.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';
import { NODE } from '../mcp/helpers.ts';

const SERVER = path.resolve(import.meta.dirname, '../tools-check/fixtures/mcp-server.mjs');
const SCREENSHOTS = path.resolve('test-results/screenshots');
const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;

/** As trailofbits/skills writes them: tools of a server that is up, one that crashes, one not listed. */
const AUDIT = {
  name: 'contract-audit',
  frontmatter: [
    'name: contract-audit',
    'description: Audit a Solidity contract with slither and fuzz it with echidna.',
    'allowed-tools: Read Bash(slither:*) mcp__slither__run_detectors mcp__slither__list_detector mcp__echidna__fuzz mcp__serena__find_symbol',
    'requires:',
    '  mcp: [slither, medusa, echidna]',
  ].join('\n'),
  body: '# Contract audit\n\nRun the detectors, then fuzz.\n',
};

beforeAll(async () => {
  if (skip) return;
  const config = {
    mcp_servers: {
      slither: { command: NODE, args: [SERVER, 'tools', 'run_detectors,list_detectors'] },
      echidna: { command: NODE, args: [SERVER, 'crash'] },
    },
  };
  fixture = await buildFixtureSite({ skills: [AUDIT], config });
  server = await serveStatic({ root: fixture.outDir });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
});

describe.skipIf(skip)("a skill page's tools check badges", () => {
  it('say built-in for an agent\'s own tools and "not configured" for a server mcp_servers does not list', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}skills/contract-audit/`);
    const badge = (item: string) => page.locator(`[data-needs] [${item}] .badge`);
    const badges = {
      Read: await badge('data-tool="Read"').textContent(),
      'Bash(slither:*)': await badge('data-tool="Bash(slither:*)"').textContent(),
      run_detectors: await badge('data-tool="mcp__slither__run_detectors"').textContent(),
      list_detector: await badge('data-tool="mcp__slither__list_detector"').textContent(),
      fuzz: await badge('data-tool="mcp__echidna__fuzz"').textContent(),
      find_symbol: await badge('data-tool="mcp__serena__find_symbol"').textContent(),
      medusa: await badge('data-mcp-server="medusa"').textContent(),
    };
    expect(badges).toEqual({
      Read: 'built-in',
      'Bash(slither:*)': 'built-in',
      run_detectors: 'available',
      list_detector: 'missing',
      fuzz: 'server unreachable',
      find_symbol: 'not configured',
      medusa: 'not configured',
    });
    expect(await badge('data-mcp-server="medusa"').getAttribute('title')).toBe('no server "medusa" in mcp_servers');
    await page.close();
  });

  it('wrap whole at 390 px: no badge breaks inside, nothing overflows', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}skills/contract-audit/`);
    // A badge broken across lines has more than one box.
    const broken = await page.$$eval('[data-needs] .badge', (els) =>
      els.filter((el) => el.getClientRects().length > 1).map((el) => el.textContent),
    );
    expect(broken).toEqual([]);
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.locator('[data-needs]').screenshot({ path: path.join(SCREENSHOTS, 'skill-needs-390.png') });
    await page.close();
  });
});
