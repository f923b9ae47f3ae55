/**
 * The static embedding model shipped in models/static-bge-small/: it loads and checks its files,
 * tokenizes as the model was trained, and brings a request near the skill it means even when
 * they share no word — what best_skill's ranking by meaning relies on.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmbedder, MODEL_DIR } from '../../src/semantic/load.ts';
import { SkillVectors } from '../../src/semantic/skill-vectors.ts';
import type { Embedder } from '../../src/semantic/embedder.ts';

const TOKENS = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/semantic-tokens.json'), 'utf8')) as {
  cases: Array<{ text: string; ids: number[] }>;
};
const MANIFEST = JSON.parse(readFileSync(path.join(MODEL_DIR, 'model.json'), 'utf8')) as { dims: number };

/** Skills of different purposes, described as their authors would. */
const SKILLS = [
  {
    id: 'dotnet-timezone',
    name: 'dotnet-timezone',
    description: 'Handle time zones and daylight saving time transitions correctly in .NET applications.',
  },
  {
    id: 'aws-cost-optimize',
    name: 'aws-cost-optimize',
    description: 'Find ways to reduce the AWS bill: idle resources, rightsizing, reserved capacity.',
  },
  {
    id: 'sponsor-finder',
    name: 'sponsor-finder',
    description: "Find which of a project's dependencies accept sponsorship or funding, and how to give.",
  },
  { id: 'pdf-forms', name: 'pdf-forms', description: 'Fill in and extract the fields of PDF forms.' },
  { id: 'release-notes', name: 'release-notes', description: 'Write release notes from merged pull requests.' },
  { id: 'sql-tuning', name: 'sql-tuning', description: 'Speed up slow SQL queries with indexes and better plans.' },
  { id: 'slide-deck', name: 'slide-deck', description: 'Create presentation slides from an outline.' },
  { id: 'docker-images', name: 'docker-images', description: 'Make container images smaller and builds faster.' },
];

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});

describe('the shipped static embedding model', () => {
  it("tokenizes exactly as the model was trained (ids from the teacher's Python tokenizer)", () => {
    for (const { text, ids } of TOKENS.cases) expect(embedder.tokenIds(text), text).toEqual(ids);
    expect(Array.from(embedder.embed(TOKENS.cases[0]!.text))).toEqual(
      Array.from(embedder.embedTokens(TOKENS.cases[0]!.ids)),
    );
  });

  it("embeds text as a unit vector of the manifest's dimensions, and nothing as zeros", () => {
    const v = embedder.embed('make our container images smaller');
    expect(v).toHaveLength(MANIFEST.dims);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(Array.from(embedder.embed('')).every((x) => x === 0)).toBe(true);
  });

  it.each([
    ['appointments show up an hour off after the clocks changed', 'dotnet-timezone'],
    ['we are overspending on our cloud account, where does the money go', 'aws-cost-optimize'],
    ['we want to give back to the open source projects we depend on', 'sponsor-finder'],
    ['this query takes 30 seconds', 'sql-tuning'],
  ])('brings "%s" closest to %s', (request, id) => {
    const vectors = new SkillVectors(embedder, SKILLS);
    const closeness = vectors.closeness(request);
    const best = closeness.indexOf(Math.max(...closeness));
    expect(vectors.skills[best]!.id).toBe(id);
    expect(closeness[best]).toBeGreaterThan(1);
  });

  it('says nothing about closeness in a catalog too small to compare with', () => {
    const vectors = new SkillVectors(embedder, SKILLS.slice(0, 3));
    expect(Array.from(vectors.closeness('the clocks changed'))).toEqual([0, 0, 0]);
  });
});

describe('a damaged model', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'skillpress-model-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is refused, naming the file and the digest, not used', async () => {
    cpSync(MODEL_DIR, dir, { recursive: true });
    const file = path.join(dir, 'vectors.bin');
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    writeFileSync(file, bytes);
    await expect(loadEmbedder(`${dir}/`)).rejects.toThrow(
      /vectors\.bin: sha256 [0-9a-f]{64} does not match model\.json's/,
    );
  });
});
