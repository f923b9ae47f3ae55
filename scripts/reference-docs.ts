// Write docs/reference/*.md from the zod schemas and the rule list (scripts/lib/reference.ts).
// `npm run docs` runs it; a test checks the committed pages are current.
import { mkdirSync, writeFileSync } from 'node:fs';
import { REFERENCE_PAGES } from './lib/reference.ts';

const dir = new URL('../docs/reference/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const [file, render] of Object.entries(REFERENCE_PAGES)) {
  writeFileSync(new URL(file, dir), render());
  console.log(`wrote docs/reference/${file}`);
}
