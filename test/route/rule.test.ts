/**
 * best_skill's rule on hand-made retrievals: the threshold rises with the catalog's size, so the
 * same evidence that names a skill in a catalog of a few hundred is a none among the 1,650 skills
 * of ten public catalogs together, where a near rival ranks first as often as the right skill
 * (bench/README.md, the union set).
 */
import { describe, expect, it } from 'vitest';
import {
  evidenceOf,
  RULE,
  ruleJudge,
  strength,
  thresholdFor,
  type Candidate,
  type Retrieval,
} from '../../src/route/index.ts';

function candidate(id: string, score: number, coverage: number, metadataCoverage: number, meaning: number): Candidate {
  return {
    id,
    name: id,
    description: `What ${id} is for.`,
    score,
    wordScore: score * 10,
    meaning,
    words: [{ word: 'airflow', fields: ['name', 'description'], exact: true }],
    coverage,
    weightedCoverage: coverage,
    metadataCoverage,
  };
}

function retrieval(catalogSize: number, candidates: Candidate[]): Retrieval {
  return {
    request: 'write an airflow DAG that loads files to the warehouse nightly',
    words: [{ word: 'airflow', documents: 3, weight: 5 }],
    candidates,
    catalogSize,
  };
}

/** A top whose evidence (about 0.71) passes the rule in a catalog of hundreds, not in one of 1,650. */
const BORDERLINE = [candidate('airflow-dags', 2.5, 0.6, 0.3, 3), candidate('airflow-migrations', 2, 0.5, 0.3, 3)];

describe("the rule's threshold and the catalog's size", () => {
  it('is the fitted threshold up to the catalogs it was fitted on, the large one from 800 skills, rising between', () => {
    expect(thresholdFor(7)).toBe(RULE.threshold);
    expect(thresholdFor(RULE.fittedCatalog)).toBe(RULE.threshold);
    expect(thresholdFor(RULE.largeCatalog)).toBeCloseTo(RULE.largeThreshold, 10);
    expect(thresholdFor(10_000)).toBeCloseTo(RULE.largeThreshold, 10);
    const between = [500, 600, 700].map((n) => thresholdFor(n));
    expect(between[0]).toBeGreaterThan(RULE.threshold);
    expect(between[1]).toBeGreaterThan(between[0]!);
    expect(between[2]).toBeGreaterThan(between[1]!);
    expect(between[2]).toBeLessThan(RULE.largeThreshold);
  });

  it('names the top skill of borderline evidence in a catalog of hundreds, and says none among 1,650 skills', () => {
    const [top, second] = BORDERLINE;
    const p = strength(evidenceOf(top!, second));
    expect(p).toBeGreaterThan(RULE.threshold);
    expect(p).toBeLessThan(RULE.largeThreshold);

    expect(ruleJudge(retrieval(300, BORDERLINE))).toMatchObject({ id: 'airflow-dags', confidence: round(p) });
    const large = ruleJudge(retrieval(1650, BORDERLINE));
    expect(large.id).toBeUndefined();
    expect(large.confidence).toBe(round(1 - p));
    // Still one plain sentence, saying why: the evidence does not single the skill out among that many.
    expect(large.reason).toMatch(
      /^The closest skill, "airflow-dags", .*not enough to single it out among 1,650 skills\.$/,
    );
    expect(large.reason.match(/\. [A-Z]/g)).toBeNull();
  });

  it('shows a word matched only by a typo neighbour or a prefix as ~word, the guess it is', () => {
    const guessed = candidate('airflow-dags', 2.5, 0.6, 0.3, 3);
    guessed.words = [
      { word: 'airflow', fields: ['name'], exact: true },
      { word: 'warehose', fields: ['description'], exact: false },
    ];
    expect(ruleJudge(retrieval(300, [guessed])).reason).toContain('(airflow, ~warehose)');
  });

  it('still answers a clear winner in a large catalog, and turns down weak evidence at any size', () => {
    const clear = [candidate('airflow-dags', 3, 0.9, 0.8, 5), candidate('cron-jobs', 1, 0.3, 0.1, 2)];
    expect(ruleJudge(retrieval(1650, clear)).id).toBe('airflow-dags');
    const weak = [candidate('airflow-dags', 1.2, 0.35, 0.1, 1), candidate('cron-jobs', 1.1, 0.3, 0.1, 1)];
    for (const size of [50, 1650]) {
      const verdict = ruleJudge(retrieval(size, weak));
      expect(verdict.id).toBeUndefined();
      expect(verdict.reason).toMatch(/not enough to say it is the one asked for\.$/);
    }
  });
});

describe('close calls', () => {
  // Strong evidence, but the runner-up scores within a few percent: on the routing sets such answers were right 10 times in 17.
  const nearTie = [candidate('semgrep', 2.52, 1, 1, 5), candidate('semgrep-rule-creator', 2.39, 1, 1, 6.3)];

  it('names the top skill with a confidence of at most closeConfidence, and names the runner-up', () => {
    const [top, second] = nearTie;
    const e = evidenceOf(top!, second);
    expect(e.lead).toBeLessThan(RULE.closeLead);
    expect(strength(e)).toBeGreaterThan(0.9);
    const verdict = ruleJudge(retrieval(300, nearTie));
    expect(verdict).toMatchObject({
      id: 'semgrep',
      confidence: RULE.closeConfidence,
      runnerUp: 'semgrep-rule-creator',
    });
    expect(verdict.reason).toMatch(
      /leads "semgrep-rule-creator" by 5%: a close call, so "semgrep-rule-creator" may be the one asked for\.$/,
    );
    expect(verdict.reason.match(/\. [A-Z]/g)).toBeNull();
  });

  it('keeps the evidence as the confidence once the top leads by closeLead or more', () => {
    const clear = [nearTie[0]!, candidate('semgrep-rule-creator', 2.52 * (1 - RULE.closeLead - 0.01), 1, 1, 6.3)];
    const verdict = ruleJudge(retrieval(300, clear));
    expect(verdict.id).toBe('semgrep');
    expect(verdict.runnerUp).toBeUndefined();
    expect(verdict.confidence).toBe(round(strength(evidenceOf(clear[0]!, clear[1]))));
    expect(verdict.confidence).toBeGreaterThan(RULE.closeConfidence);
  });
});

describe('small catalogs (20 skills or fewer)', () => {
  // Strong evidence from the body and from meaning, with almost nothing in the name, description or tags.
  const bodyOnly = [candidate('deploy-to-vercel', 2.5, 0.8, 0.05, 2.2), candidate('web-design', 1, 0.3, 0.05, 0.5)];

  it('turns down a top skill whose name, description and tags hardly hold the request, and says so', () => {
    expect(strength(evidenceOf(bodyOnly[0]!, bodyOnly[1]))).toBeGreaterThan(RULE.threshold);
    const small = ruleJudge(retrieval(7, bodyOnly));
    expect(small.id).toBeUndefined();
    expect(small.reason).toMatch(/, but its name, description and tags hardly say it is for this\.$/);
  });

  it('keeps answering with it in a larger catalog, and with a described skill in a small one', () => {
    expect(ruleJudge(retrieval(RULE.smallCatalog + 1, bodyOnly)).id).toBe('deploy-to-vercel');
    const described = [candidate('deploy-to-vercel', 2.5, 0.8, RULE.minMetadataCoverage, 2.2), bodyOnly[1]!];
    expect(ruleJudge(retrieval(7, described)).id).toBe('deploy-to-vercel');
  });
});

const round = (n: number): number => Math.round(n * 100) / 100;
