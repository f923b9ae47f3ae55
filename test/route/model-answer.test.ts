/** Reading a judge model's answer: one candidate's name or `none`, strictly, and never at a cost that grows with the answer. */
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER, parseModelAnswer } from '../../src/route/model.ts';
import type { Candidate, Retrieval } from '../../src/route/retrieve.ts';

const candidate = (id: string): Candidate =>
  ({
    id,
    name: id,
    description: `${id} things`,
    score: 1,
    wordScore: 1,
    meaning: undefined,
    words: [],
    coverage: 1,
    weightedCoverage: 1,
  }) as unknown as Candidate;
const retrieval: Retrieval = {
  request: 'fill a pdf form',
  words: [],
  candidates: [candidate('pdf'), candidate('xlsx')],
  catalogSize: 2,
};

describe('parseModelAnswer', () => {
  it('takes a name or none, with the quotes, stars and dots a model adds', () => {
    expect(parseModelAnswer('pdf', retrieval)).toBe('pdf');
    expect(parseModelAnswer(' **`"PDF".`** \n', retrieval)).toBe('pdf');
    expect(parseModelAnswer("'none'.", retrieval)).toBeNull();
    expect(parseModelAnswer('pdf or xlsx', retrieval)).toBeUndefined();
    expect(parseModelAnswer('docx', retrieval)).toBeUndefined();
    expect(parseModelAnswer(42, retrieval)).toBeUndefined();
  });

  it('refuses an answer longer than a name could be, without scanning it', () => {
    // Padding that the old trimming regex went over quadratically (200,000 characters: 17 s).
    expect(parseModelAnswer(`${' '.repeat(MAX_ANSWER)}pdf`, retrieval)).toBeUndefined();
    expect(parseModelAnswer(`pdf${'. '.repeat(100_000)}x`, retrieval)).toBeUndefined();
    expect(parseModelAnswer(`${' '.repeat(MAX_ANSWER - 3)}pdf`, retrieval)).toBe('pdf');
  });
});
