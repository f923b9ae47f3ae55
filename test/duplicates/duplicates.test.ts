/** Duplicate skills: identical content under two names, and near-duplicates by TF-IDF cosine. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { duplicateProblems, findDuplicates } from '../../src/duplicates/index.ts';
import { tfidfVectors, similarPairs, tokenize } from '../../src/duplicates/tfidf.ts';
import type { Skill } from '../../src/model/skill.ts';
import { loadSkills, tempDir, writeSkills } from '../federate/helpers/skills.ts';

const PDF_BODY = `# Extract text from PDF files

1. Run scripts/extract.py on the input PDF to get plain text, one page per section.
2. Check that every page produced text; scanned pages need OCR with tesseract.
3. Report the page count, the word count and any pages that failed.
`;
const REFUND_BODY = `# Approve refunds

Check the order date against the refund window, confirm the payment method,
and escalate to a supervisor when the amount is over the approval limit.
Tell the customer the expected settlement time for their card issuer.
`;

let tmp: string;
let skills: Skill[];

beforeAll(async () => {
  tmp = await tempDir('duplicates');
  await writeSkills(tmp, [
    { name: 'pdf-extract', body: PDF_BODY, files: { 'scripts/extract.py': 'print("extract")\n' } },
    // Same instructions and files under another name and description: identical.
    {
      name: 'pdf-text',
      description: 'Gets text out of PDFs.',
      body: PDF_BODY,
      files: { 'scripts/extract.py': 'print("extract")\n' },
    },
    // Same text but a different script: not identical, but an agent could not tell them apart.
    { name: 'pdf-extract-v2', body: PDF_BODY, files: { 'scripts/extract.py': 'print("extract v2")\n' } },
    // Lightly reworded: a near-duplicate.
    {
      name: 'pdf-reader',
      description: 'Does pdf-extract things. Use when pdf-extract is needed.',
      body: PDF_BODY.replace('plain text', 'the text').replace('failed', 'could not be read'),
      files: { 'scripts/extract.py': 'print("other")\n' },
    },
    { name: 'refund-approval', body: REFUND_BODY },
  ]);
  const catalog = await loadSkills(tmp, 'home');
  skills = catalog.skills;
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('findDuplicates', () => {
  it('reports identical content under two names once, as identical', () => {
    const dups = findDuplicates(skills, { nearThreshold: 0.85 });
    const identical = dups.filter((d) => d.kind === 'identical');
    expect(identical).toEqual([{ kind: 'identical', a: 'pdf-extract', b: 'pdf-text', similarity: 1 }]);
    expect(dups.some((d) => d.kind === 'near' && d.a === 'pdf-extract' && d.b === 'pdf-text')).toBe(false);
  });

  it('reports near-duplicates at or above the threshold, most similar first, and not unrelated skills', () => {
    const dups = findDuplicates(skills, { nearThreshold: 0.85 });
    const near = dups.filter((d) => d.kind === 'near');
    expect(near.map((d) => `${d.a}~${d.b}`)).toEqual(
      expect.arrayContaining(['pdf-extract~pdf-extract-v2', 'pdf-extract~pdf-reader']),
    );
    expect(near.every((d) => d.similarity >= 0.85 && d.similarity <= 1)).toBe(true);
    expect(dups.some((d) => d.a === 'refund-approval' || d.b === 'refund-approval')).toBe(false);
    const sims = dups.map((d) => d.similarity);
    expect(sims).toEqual([...sims].sort((x, y) => y - x));
  });

  it('the threshold from config decides what counts as near', () => {
    const strict = findDuplicates(skills, { nearThreshold: 0.999 });
    expect(strict.some((d) => d.b === 'pdf-reader' || d.a === 'pdf-reader')).toBe(false);
    const loose = findDuplicates(skills, { nearThreshold: 0.01 });
    expect(loose.length).toBeGreaterThan(strict.length);
  });

  it('turns into warnings that say what to do', () => {
    const problems = duplicateProblems(findDuplicates(skills, { nearThreshold: 0.85 }), skills, 0.85);
    const identical = problems.find((p) => p.rule === 'duplicate-identical')!;
    expect(identical).toMatchObject({ severity: 'warning', skill: 'pdf-text', file: 'SKILL.md' });
    expect(identical.message).toBe(
      '"pdf-text" has the same instructions and files as "pdf-extract": remove one, or make it differ',
    );
    const near = problems.find((p) => p.rule === 'duplicate-near')!;
    expect(near.message).toMatch(
      /% similar to ".+" \(TF-IDF cosine of description and body; duplicates.near_threshold is 0.85\)/,
    );
  });

  it('names an imported skill by its peer and id, and leaves pairs of two imported skills to their registry', () => {
    const imported = (s: Skill): Skill => ({
      ...s,
      source: { kind: 'peer', peer: 'union', feed_url: 'https://union.example/feed/v1/index.json' },
    });
    const pdf = ['pdf-extract', 'pdf-text'].map((id) => skills.find((s) => s.id === id)!);
    const [local, peer] = [pdf[0]!, imported(pdf[1]!)];
    const one = duplicateProblems(findDuplicates([local, peer], { nearThreshold: 0.85 }), [local, peer], 0.85);
    expect(one.map((p) => p.skill)).toEqual(['peer:union/skills/pdf-text']);
    const both = pdf.map(imported);
    const found = findDuplicates(both, { nearThreshold: 0.85 });
    expect(found).toHaveLength(1);
    expect(duplicateProblems(found, both, 0.85)).toEqual([]);
  });
});

describe('TF-IDF cosine', () => {
  it('is 1 for the same text, 0 for texts that share no words, and symmetric in between', () => {
    const docs = [
      'extract text from pdf files',
      'extract text from pdf files',
      'approve customer refunds quickly',
      'extract tables from pdf',
    ].map(tokenize);
    const pairs = similarPairs(tfidfVectors(docs), 0);
    const sim = (i: number, j: number) => pairs.find((p) => p.i === i && p.j === j)?.similarity ?? 0;
    expect(sim(0, 1)).toBeCloseTo(1, 10);
    expect(sim(0, 2)).toBe(0);
    expect(sim(0, 3)).toBeGreaterThan(0.2);
    expect(sim(0, 3)).toBeLessThan(1);
  });

  it('ignores case, punctuation and stop words', () => {
    expect(tokenize('The PDF, and the Text!')).toEqual(['pdf', 'text']);
  });
});
