/**
 * axe-core in a page of the site: its source is read once and evaluated through the DevTools
 * protocol, so the page's CSP (scripts from 'self' only) does not apply.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

let source: Promise<string> | undefined;

/** axe-core's violations on the page as it is now; `options` as axe.run takes them (e.g. `runOnly`). */
export async function axeViolations(
  page: Page,
  options: object = { resultTypes: ['violations'] },
): Promise<Violation[]> {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await source);
  return (await page.evaluate(
    (o) =>
      (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe
        .run(document, o)
        .then((r) => r.violations),
    options,
  )) as Violation[];
}
