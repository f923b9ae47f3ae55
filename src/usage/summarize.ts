/**
 * Events → figures per skill and per version: uses, outcomes, success rate (the mean of each
 * reporter's own rate, from a minimum number of reports and reporters: a user who reports a
 * thousand failures weighs as one), rating (the average of each user's latest stars: a user who
 * rates a skill a thousand times counts once), last use. Skills the catalog no longer has are counted and
 * reported, not published; the skills that fail most are listed first as candidates for an update.
 */
import type { Outcome, UsageEvent, UsageFigures } from '../model/usage.ts';
import { USAGE_VERSION } from '../model/usage.ts';
import { isElasticsearchTarget } from './recorder.ts';
import { eventFiles, readEventFile, type SkippedLine } from './read.ts';

/** Reports below which no success rate is shown (`analytics.min_reports`). */
export const DEFAULT_MIN_REPORTS = 5;
/** Reporters below which no success rate is shown (`analytics.min_reporters`). */
export const DEFAULT_MIN_REPORTERS = 1;
/** Skipped lines listed in a summary (all are counted). */
const SKIPPED_LISTED = 100;

/** A skill's figures without the part's version and registry, which the publisher adds. */
export type Figures = Omit<UsageFigures, 'usage_version' | 'registry'>;

export interface SkillUsage extends Figures {
  /** The same figures per version the events carried (`-` for events without one). */
  versions: Record<string, Figures>;
}

export interface UpdateCandidate {
  skill: string;
  failure: number;
  reports: number;
  success_rate: number;
}

/** What `skillpress usage summarize` writes (`usage.json`). */
export interface UsageSummary {
  usage_version: typeof USAGE_VERSION;
  generated_at: string;
  sources: string[];
  /** Events read (skipped lines not included). */
  events: number;
  skipped: { count: number; lines: SkippedLine[] };
  min_reports: number;
  min_reporters: number;
  skills: Record<string, SkillUsage>;
  /** Events per skill the catalog does not have (only when a catalog was given): counted, not published. */
  unknown: Record<string, number>;
  /** Skills with failures, the lowest success rate first: candidates for an update. */
  update_candidates: UpdateCandidate[];
}

export interface SummarizeOptions {
  minReports?: number;
  /** Users who reported an outcome, below which no success rate is shown. */
  minReporters?: number;
  /** The catalog's skill ids: events for any other skill go to `unknown`. */
  known?: ReadonlySet<string>;
  /** The usage index, for an Elasticsearch source (default `agent_skill_usage`). */
  index?: string;
  now?: Date;
}

const OUTCOME_SLOT: Record<Outcome, 0 | 1 | 2> = { success: 0, failure: 1, partial: 2 };
/** What an outcome counts toward a success rate: a partial success is half of one. */
const OUTCOME_VALUE: Record<Outcome, number> = { success: 1, failure: 0, partial: 0.5 };

class Tally {
  uses = 0;
  readonly outcomes: Record<Outcome, number> = { success: 0, failure: 0, partial: 0 };
  last = '';
  /** user → their latest stars, packed as time (ms) × 8 + stars: one number per user, a million events fit. */
  readonly stars = new Map<string, number>();
  /** user → where their success, failure and partial counts start in `counts`: each reporter weighs one in the success rate. */
  readonly reports = new Map<string, number>();
  /** Three counts per reporter, in one array (a million events over thousands of users stay small). */
  counts = new Uint32Array(24);
  /** Reports without a user: each one is a reporter of its own (nothing tells two apart). */
  anonymous = { count: 0, value: 0 };

  add(e: UsageEvent): void {
    if (e.at > this.last) this.last = e.at;
    if (e.type === 'load') {
      this.uses++;
      return;
    }
    this.outcomes[e.outcome]++;
    this.addReport(e.user, e.outcome);
    if (e.stars === undefined) return;
    const user = e.user ?? '';
    const packed = Date.parse(e.at) * 8 + e.stars;
    const seen = this.stars.get(user);
    if (seen === undefined || packed >= seen) this.stars.set(user, packed);
  }

  private addReport(user: string | undefined, outcome: Outcome): void {
    if (user === undefined) {
      this.anonymous.count++;
      this.anonymous.value += OUTCOME_VALUE[outcome];
      return;
    }
    let at = this.reports.get(user);
    if (at === undefined) {
      at = this.reports.size * 3;
      this.reports.set(user, at);
      if (at + 3 > this.counts.length) {
        const grown = new Uint32Array(this.counts.length * 2);
        grown.set(this.counts);
        this.counts = grown;
      }
    }
    this.counts[at + OUTCOME_SLOT[outcome]]!++;
  }

  /** Reporters: users who reported an outcome, and each report without a user. */
  get reporters(): number {
    return this.reports.size + this.anonymous.count;
  }

  /** The mean of each reporter's own success rate (undefined without reports). */
  successRate(): number | undefined {
    if (this.reporters === 0) return undefined;
    let sum = this.anonymous.value;
    const c = this.counts;
    for (const at of this.reports.values()) sum += (c[at]! + c[at + 2]! / 2) / (c[at]! + c[at + 1]! + c[at + 2]!);
    return round(sum / this.reporters);
  }

  figures(min: Minimums): Figures {
    const { success, failure, partial } = this.outcomes;
    const reports = success + failure + partial;
    let total = 0;
    for (const packed of this.stars.values()) total += packed % 8;
    const rated = this.stars.size;
    const published = reports >= min.reports && this.reporters >= min.reporters;
    const rate = published ? this.successRate() : undefined;
    return {
      usage_count: this.uses,
      outcomes: { ...this.outcomes },
      reporters: this.reporters,
      ...(rate !== undefined ? { success_rate: rate } : {}),
      ...(rated > 0 ? { rating: round(total / rated) } : {}),
      rating_count: rated,
      ...(this.last ? { last_used: this.last } : {}),
    };
  }
}

/** What a success rate needs before it is published. */
interface Minimums {
  reports: number;
  reporters: number;
}

/** Adds events up; `summary()` gives the figures. */
export class UsageTally {
  readonly #skills = new Map<string, { total: Tally; versions: Map<string, Tally> }>();
  #events = 0;

  add(event: UsageEvent): void {
    this.#events++;
    let entry = this.#skills.get(event.skill);
    if (!entry) this.#skills.set(event.skill, (entry = { total: new Tally(), versions: new Map() }));
    entry.total.add(event);
    const key = event.version ?? '-';
    let version = entry.versions.get(key);
    if (!version) entry.versions.set(key, (version = new Tally()));
    version.add(event);
  }

  summary(
    sources: string[],
    skipped: SkippedLine[],
    options: SummarizeOptions = {},
    skippedCount = skipped.length,
  ): UsageSummary {
    const min = {
      reports: options.minReports ?? DEFAULT_MIN_REPORTS,
      reporters: options.minReporters ?? DEFAULT_MIN_REPORTERS,
    };
    const skills: Record<string, SkillUsage> = {};
    const unknown: Record<string, number> = {};
    const candidates: UpdateCandidate[] = [];
    for (const [id, { total, versions }] of [...this.#skills].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (options.known && !options.known.has(id)) {
        unknown[id] = total.uses + total.outcomes.success + total.outcomes.failure + total.outcomes.partial;
        continue;
      }
      const figures = total.figures(min);
      const byVersion = Object.fromEntries([...versions].map(([v, t]) => [v, t.figures(min)]));
      skills[id] = { ...figures, versions: byVersion };
      const { success, failure, partial } = figures.outcomes;
      if (failure > 0)
        candidates.push({
          skill: id,
          failure,
          reports: success + failure + partial,
          success_rate: total.successRate()!,
        });
    }
    candidates.sort((a, b) => a.success_rate - b.success_rate || b.failure - a.failure);
    return {
      usage_version: USAGE_VERSION,
      generated_at: (options.now ?? new Date()).toISOString(),
      sources,
      events: this.#events,
      skipped: { count: skippedCount, lines: skipped.slice(0, SKIPPED_LISTED) },
      min_reports: min.reports,
      min_reporters: min.reporters,
      skills,
      unknown,
      update_candidates: candidates,
    };
  }
}

/**
 * Reads every source (JSON Lines files, folders of them, or an Elasticsearch URL) and adds the
 * events up. A source that cannot be read throws an InvalidInputError naming it.
 *
 * @example
 * ```ts
 * import { summarizeUsage } from 'skillpress';
 * const summary = await summarizeUsage(['usage.jsonl'], { minReports: 5 });
 * for (const c of summary.update_candidates) console.log(c.skill, c.failure);
 * ```
 */
export async function summarizeUsage(
  sources: readonly string[],
  options: SummarizeOptions = {},
): Promise<UsageSummary> {
  const tally = new UsageTally();
  const skipped: SkippedLine[] = [];
  let skippedCount = 0;
  const add = (event: UsageEvent): void => tally.add(event);
  for (const source of sources) {
    if (isElasticsearchTarget(source)) {
      const { readUsageIndex } = await import('./read-index.ts');
      await readUsageIndex(source, options.index, add);
      continue;
    }
    for (const file of await eventFiles(source)) {
      const lines = await readEventFile(file, add);
      skippedCount += lines.length;
      if (skipped.length < SKIPPED_LISTED) skipped.push(...lines.slice(0, SKIPPED_LISTED - skipped.length));
    }
  }
  return tally.summary([...sources], skipped, options, skippedCount);
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
