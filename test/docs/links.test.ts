/**
 * The docs travel in the npm package: every relative link of README.md, docs/ and the other pages
 * it ships must land on a file that is in the repository and that the package ships (`files` of
 * package.json), or a reader of the installed package follows it to nothing.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const shipped = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  'scripts/static-model/README.md',
  ...(readdirSync(path.join(root, 'docs'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
];

/** The relative link targets of a markdown page, as paths from the repository's root (anchors dropped). */
function relativeLinks(page: string): string[] {
  // Links shown as examples, in code blocks and code spans, are not links of the page.
  const text = readFileSync(path.join(root, page), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target))
    .map((target) => path.normalize(path.join(path.dirname(page), decodeURI(target))));
}

const inPackage = (file: string): boolean =>
  shipped.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) || `${file}/` === entry : file === entry));

describe('relative links of the markdown pages the package ships', () => {
  it('land on files that exist and that the package ships', () => {
    const broken: string[] = [];
    for (const page of pages)
      for (const target of relativeLinks(page))
        if (!existsSync(path.join(root, target)) || !inPackage(target)) broken.push(`${page} → ${target}`);
    expect([...new Set(broken)]).toEqual([]);
  });
});
