/**
 * The two whole-catalog steps every rebuild repeats however little changed: the search indexes
 * (`buildSearchIndexes`) and the duplicate scan (`findDuplicates`), timed on real catalogs.
 *
 * A set is one or more skills folders joined by commas (public-six = six folders). Each step is
 * timed on its first call in the process and then on rebuilds, each after one skill's
 * description changed, as `skillpress dev` and `skillpress mcp --skills` do after an edit. Body
 * terms and duplicate words come from a per-text memo, as the build's caches hand them over, so
 * only the steps themselves are timed.
 */
import path from 'node:path';
import { loadCatalog } from '../../src/load/index.ts';
import type { Skill } from '../../src/model/skill.ts';
import { buildSearchIndexes, extractHeadings, type SearchEntry } from '../../src/search/index.ts';
import { bodyTerms } from '../../src/search/text.ts';
import { findDuplicates } from '../../src/duplicates/index.ts';
import { tokenize } from '../../src/duplicates/tfidf.ts';

const REBUILDS = 5;

export interface StepRow {
  set: string;
  skills: number;
  /** ms: first call in the process, then the best and median of the rebuilds. */
  search: [number, number, number];
  duplicates: [number, number, number];
  pairs: number;
}

/** Skills of every folder of a set; an id met twice keeps its first skill (one registry). */
export async function loadSet(set: string): Promise<Skill[]> {
  const seen = new Set<string>();
  const skills: Skill[] = [];
  for (const folder of set.split(',')) {
    const catalog = await loadCatalog(folder, { mode: 'lenient' });
    for (const s of catalog.skills) if (!seen.has(s.id) && seen.add(s.id)) skills.push(s);
  }
  return skills.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What the feed hands buildSearchIndexes for a skill (src/emit/feed/write-feed.ts, without the card). */
export function entryOf(skill: Skill): SearchEntry {
  const { tags, domain, version } = skill.registry_fields;
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags,
    ...(domain !== undefined ? { domain } : {}),
    headings: extractHeadings(skill.body),
    paths: skill.files.map((f) => f.path),
    body: skill.body,
    registry: skill.registry,
    ...(version !== undefined ? { version } : {}),
  };
}

function memo<T>(f: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    let v = kept.get(text);
    if (v === undefined) kept.set(text, (v = f(text)));
    return v;
  };
}

const time = (f: () => unknown): number => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

const summary = (first: number, rebuilds: number[]): [number, number, number] => {
  const sorted = [...rebuilds].sort((a, b) => a - b);
  return [first, sorted[0]!, sorted[Math.floor(sorted.length / 2)]!];
};

export async function measureRebuildSteps(set: string, threshold = 0.85): Promise<StepRow> {
  const skills = await loadSet(set);
  const terms = memo(bodyTerms);
  const words = memo(tokenize);
  for (const s of skills) terms(s.body);
  let entries = skills.map(entryOf);
  let current = skills;
  let pairs = 0;
  const searchStep = (): unknown => buildSearchIndexes(entries, terms);
  const duplicateStep = (): unknown =>
    (pairs = findDuplicates(current, { nearThreshold: threshold, tokenize: words }).length);
  const firstSearch = time(searchStep);
  const firstDuplicates = time(duplicateStep);
  const search: number[] = [];
  const duplicates: number[] = [];
  for (let round = 0; round < REBUILDS; round++) {
    // One edit: a skill's description gains a word.
    const k = (round * 7919) % skills.length;
    current = current.map((s, i) => (i === k ? { ...s, description: `${s.description} edited${round}` } : s));
    entries = current.map(entryOf);
    search.push(time(searchStep));
    duplicates.push(time(duplicateStep));
  }
  const name = set
    .split(',')
    .map((f) => path.basename(f))
    .join(' + ');
  return {
    set: name.length > 40 ? `${set.split(',').length} folders` : name,
    skills: skills.length,
    search: summary(firstSearch, search),
    duplicates: summary(firstDuplicates, duplicates),
    pairs,
  };
}
