/**
 * Synthetic search entries with realistic text statistics, for measuring search index sizes.
 * bench/lib/generate-catalog.ts repeats a few dozen words, which would make any index look
 * tiny; real skill text has a large vocabulary with a Zipf-like word distribution. Here:
 * a vocabulary of 20,000 made-up words drawn with Zipf's law, descriptions of 20–52 words,
 * 2–5 tags from 400, 3–10 headings (words from the 5,000 most frequent), 10 file paths per
 * skill (`folder/word_word.ext`, words from the 2,000 most frequent), bodies of 300–1,500 words
 * with code blocks. Deterministic for a given count.
 */
import type { SearchEntry } from '../../src/search/index.ts';
import { xorshift32 } from './prng.ts';

/** Uniform floats in [0, 1). */
function prng(seed: number): () => number {
  const next = xorshift32(seed);
  return () => next() / 0x1_0000_0000;
}

const SYLLABLES =
  'ka lo mi tra ven sor pel dri an ex con fig qua ter bil nox rem sta tic por lin gra phe mon cal dat ist ion ent ure'.split(
    ' ',
  );

function vocabulary(size: number, rand: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 1 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf sampler over `n` ranks (s = 1.05), by inverse CDF on a precomputed table. */
function zipf(n: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, 1.05);
  return () => {
    const u = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function realisticEntries(count: number): SearchEntry[] {
  const rand = prng(42);
  const vocab = vocabulary(20_000, rand);
  const rank = zipf(vocab.length, rand);
  const word = (): string => vocab[rank()]!;
  // File names and headings use everyday words more than prose does: draw them from the most
  // frequent part of the vocabulary.
  const common = (top: number): string => vocab[Math.floor(rank() % top)]!;
  const words = (min: number, max: number): string =>
    Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, word).join(' ');
  const tags = Array.from({ length: 400 }, (_, i) => `${vocab[i * 7 + 3]}`);
  const domains = Array.from({ length: 20 }, (_, i) => vocab[i * 11 + 5]!);
  const folders = ['scripts', 'references', 'assets', 'templates', 'data'];
  const exts = ['py', 'md', 'json', 'csv', 'sh', 'ts', 'yaml', 'png'];
  const entries: SearchEntry[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    let name: string;
    do name = [word(), word(), ...(rand() < 0.5 ? [word()] : [])].join('-').slice(0, 64).replace(/-+$/, '');
    while (names.has(name));
    names.add(name);
    const body: string[] = [];
    const paragraphs = 3 + Math.floor(rand() * 8);
    for (let p = 0; p < paragraphs; p++) {
      body.push(
        `## ${Array.from({ length: 1 + Math.floor(rand() * 4) }, () => common(5_000)).join(' ')}`,
        '',
        `${words(40, 150)}.`,
        '',
      );
      if (rand() < 0.4) body.push('```bash', `python scripts/${word()}.py --${word()} ${word()}.csv`, '```', '');
    }
    entries.push({
      id: name,
      name,
      description: `${words(15, 40)}. Use when ${words(5, 12)}.`,
      tags: Array.from({ length: 2 + Math.floor(rand() * 4) }, () => tags[Math.floor(rand() * tags.length)]!),
      domain: domains[Math.floor(rand() * domains.length)]!,
      headings: body.filter((l) => l.startsWith('## ')).map((l) => l.slice(3)),
      paths: [
        'SKILL.md',
        ...Array.from(
          { length: 9 },
          () =>
            `${folders[Math.floor(rand() * folders.length)]}/${common(2_000)}_${common(2_000)}.${exts[Math.floor(rand() * exts.length)]}`,
        ),
      ],
      body: body.join('\n'),
      registry: 'local',
      version: `1.${i % 10}.0`,
    });
  }
  return entries;
}
