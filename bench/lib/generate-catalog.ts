/**
 * Generate a synthetic, spec-valid skills catalog on disk for benchmarks.
 *
 *   import { generateCatalog } from './lib/generate-catalog.ts';
 *   const { root, files } = await generateCatalog('/tmp/catalog-1000', { skills: 1000, filesPerSkill: 10, binaryRatio: 0.2 });
 *
 * Shape of what it writes (deterministic: the same options give the same bytes):
 * - `skills` skill folders named `bench-skill-00001`…; every 10th sits in a category folder
 *   (`category-3/bench-skill-00031/`), like `skills/finance/refund-approval/`.
 * - each skill holds `filesPerSkill` files counting SKILL.md: text files (markdown, Python,
 *   JSON, CSV) and, for about `binaryRatio` of the others, binary files (`.png`/`.bin` with
 *   NUL bytes, so the loader stores them as base64). Files after the first few go into nested
 *   folders (`scripts/`, `references/`, `assets/images/`).
 * - text files are 1–4 KiB, binary files 2–8 KiB.
 *
 * A `.generated.json` file in `dir` records the options; calling again with the same options
 * reuses the folder instead of rewriting it. The loader ignores it (the root is not a skill).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { xorshift32 } from './prng.ts';

export interface GenerateOptions {
  skills: number;
  /** Files per skill, SKILL.md included (at least 1). */
  filesPerSkill: number;
  /** Share of the non-SKILL.md files that are binary, 0–1. */
  binaryRatio: number;
}

export interface GeneratedCatalog {
  root: string;
  skills: number;
  files: number;
  bytes: number;
  /** False when an existing folder generated with the same options was reused. */
  generated: boolean;
}

const MARKER = '.generated.json';
const VERSION = 1;

const prng = xorshift32;

const WORDS = (
  'policy claim sample expense threshold review region limit receipt approve refer deny ' +
  'report metric quarter revenue margin customer churn plan query table index stage memory ' +
  'temperature window biomarker integrity ratio payout deductible matrix band category'
).split(' ');

function prose(rand: () => number, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const sentence: string[] = [];
    const len = 6 + (rand() % 10);
    for (let i = 0; i < len; i++) sentence.push(WORDS[rand() % WORDS.length]!);
    const line = sentence.join(' ') + '.\n';
    out.push(line[0]!.toUpperCase() + line.slice(1));
    n += line.length;
  }
  return out.join('');
}

function binary(rand: () => number, bytes: number, png: boolean): Buffer {
  const buf = Buffer.allocUnsafe(bytes);
  for (let i = 0; i + 4 <= bytes; i += 4) buf.writeUInt32LE(rand(), i);
  for (let i = bytes - (bytes % 4); i < bytes; i++) buf[i] = rand() & 0xff;
  if (png) Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf);
  buf[8] = 0; // a NUL byte guarantees base64, whatever the random bytes are
  return buf;
}

function skillMd(name: string, i: number, rand: () => number, fileList: string[]): string {
  const links = fileList
    .slice(0, 3)
    .map((f) => `- [${path.posix.basename(f)}](${f})`)
    .join('\n');
  return [
    '---',
    `name: ${name}`,
    `description: Synthetic benchmark skill number ${i}. Use when measuring how fast skillpress loads, validates and publishes a large catalog.`,
    'license: Apache-2.0',
    'metadata:',
    `  domain: domain-${i % 7}`,
    `  tags: bench, synthetic, group-${i % 13}`,
    '  author: skillpress bench',
    `  version: "1.${i % 10}.0"`,
    '---',
    '',
    `# ${name}`,
    '',
    prose(rand, 600),
    '## Files',
    '',
    links,
    '',
  ].join('\n');
}

/** Relative path and kind of file `k` (1-based, after SKILL.md) of a skill. */
function fileSlot(k: number, isBinary: boolean): string {
  const nested = k > 3;
  if (isBinary) return nested ? `assets/images/image-${k}.png` : `data-${k}.bin`;
  const ext = ['md', 'py', 'json', 'csv'][k % 4]!;
  if (!nested) return `file-${k}.${ext}`;
  return ext === 'md' ? `references/doc-${k}.md` : `scripts/file-${k}.${ext}`;
}

function textFile(file: string, rand: () => number, size: number): string {
  if (file.endsWith('.json'))
    return JSON.stringify({ rows: prose(rand, size).split('\n').filter(Boolean) }, null, 2) + '\n';
  if (file.endsWith('.csv'))
    return (
      'id,text\n' +
      prose(rand, size)
        .split('\n')
        .filter(Boolean)
        .map((l, i) => `${i},"${l}"`)
        .join('\n') +
      '\n'
    );
  if (file.endsWith('.py'))
    return (
      '"""Synthetic script."""\n\n' +
      prose(rand, size)
        .split('\n')
        .filter(Boolean)
        .map((l) => `# ${l}`)
        .join('\n') +
      '\nprint("ok")\n'
    );
  return `# Notes\n\n${prose(rand, size)}`;
}

export async function generateCatalog(dir: string, options: GenerateOptions): Promise<GeneratedCatalog> {
  const { skills, filesPerSkill, binaryRatio } = options;
  if (!Number.isInteger(skills) || skills < 1) throw new Error('skills must be a whole number of at least 1');
  if (!Number.isInteger(filesPerSkill) || filesPerSkill < 1)
    throw new Error('filesPerSkill must be a whole number of at least 1');
  if (!(binaryRatio >= 0 && binaryRatio <= 1)) throw new Error('binaryRatio must be between 0 and 1');

  const root = path.resolve(dir);
  const markerPath = path.join(root, MARKER);
  const wanted = { version: VERSION, skills, filesPerSkill, binaryRatio };
  if (existsSync(markerPath)) {
    const previous = JSON.parse(readFileSync(markerPath, 'utf8')) as typeof wanted & { files: number; bytes: number };
    if (
      previous.version === VERSION &&
      previous.skills === skills &&
      previous.filesPerSkill === filesPerSkill &&
      previous.binaryRatio === binaryRatio
    ) {
      return { root, skills, files: previous.files, bytes: previous.bytes, generated: false };
    }
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });

  let files = 0;
  let bytes = 0;
  const made = new Set<string>();
  const write = (file: string, data: string | Buffer): void => {
    const folder = path.dirname(file);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    writeFileSync(file, data);
    files++;
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  };

  for (let i = 1; i <= skills; i++) {
    const rand = prng(i * 2654435761);
    const name = `bench-skill-${String(i).padStart(5, '0')}`;
    const skillDir = i % 10 === 1 ? path.join(root, `category-${i % 7}`, name) : path.join(root, name);
    // Spread binaries evenly: file k is binary when the running share falls below the ratio.
    const others: string[] = [];
    let binaries = 0;
    for (let k = 1; k < filesPerSkill; k++) {
      const isBinary = binaries < Math.round(k * binaryRatio);
      if (isBinary) binaries++;
      others.push(fileSlot(k, isBinary));
    }
    write(path.join(skillDir, 'SKILL.md'), skillMd(name, i, rand, others));
    for (const rel of others) {
      const abs = path.join(skillDir, ...rel.split('/'));
      if (rel.endsWith('.png') || rel.endsWith('.bin'))
        write(abs, binary(rand, 2048 + (rand() % 6144), rel.endsWith('.png')));
      else write(abs, textFile(rel, rand, 1024 + (rand() % 3072)));
    }
  }
  writeFileSync(markerPath, JSON.stringify({ ...wanted, files, bytes }) + '\n');
  return { root, skills, files, bytes, generated: true };
}
