/**
 * Per-document scores of one part of a query: dense by document number, so an update is one
 * array write, plus the list of documents that have a score, so combining, ranking and clearing
 * cost what matched rather than the size of the catalog. Scores are reused between searches
 * (`ScorePool`): a search over 10,000 skills allocates no per-document arrays.
 * Every match scores above 0, so 0 means "no match". Browser-safe.
 */
export class Scores {
  /** Score by document number. */
  readonly values: Float64Array;
  /** The documents with a score, in the order they got one: docs[0 .. count - 1]. */
  readonly docs: Int32Array;
  count = 0;

  constructor(size: number) {
    this.values = new Float64Array(size);
    this.docs = new Int32Array(size);
  }

  add(d: number, v: number): void {
    if (this.values[d] === 0) this.docs[this.count++] = d;
    this.values[d]! += v;
  }

  /** Back to all zeros: a sparse reset when few documents were set, one fill when many were. */
  clear(): void {
    if (this.count > this.values.length >>> 4) this.values.fill(0);
    else for (let i = 0; i < this.count; i++) this.values[this.docs[i]!] = 0;
    this.count = 0;
  }
}

/** Cleared `Scores` kept between searches. Searches are synchronous, so one pool per `SkillSearch` is safe. */
export class ScorePool {
  private readonly spare: Scores[] = [];
  private readonly size: number;
  private readonly keep: number;

  /** `keep`: at most this many are kept (each holds 12 bytes per document). */
  constructor(size: number, keep: number) {
    this.size = size;
    this.keep = keep;
  }

  take(): Scores {
    return this.spare.pop() ?? new Scores(this.size);
  }

  give(scores: Scores): void {
    scores.clear();
    if (this.spare.length < this.keep) this.spare.push(scores);
  }
}
