// Write docs/reference/*.md from the zod schemas and the rule list (scripts/lib/reference.ts).
// `npm run docs` runs it; `npm run docs -- --check` (part of `npm run check`) exits 1 when a
// committed page is not current, as a test does.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { REFERENCE_PAGES } from './lib/reference.ts';

const dir = new URL('../docs/reference/', import.meta.url);
const check = process.argv.includes('--check');
const stale: string[] = [];
mkdirSync(dir, { recursive: true });
for (const [file, render] of Object.entries(REFERENCE_PAGES)) {
  const page = new URL(file, dir);
  if (!check) {
    writeFileSync(page, render());
    console.log(`wrote docs/reference/${file}`);
  } else if (readFileSync(page, 'utf8') !== render()) stale.push(`docs/reference/${file}`);
}
if (stale.length > 0) {
  console.error(`${stale.join(', ')}: not current; run \`npm run docs\` and commit the result`);
  process.exit(1);
}
