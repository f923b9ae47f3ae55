/**
 * Usage, opt-in: what agents load and how it went (`skillpress mcp --usage`), summed up per skill
 * (`skillpress usage summarize`, `analytics.source` in a build). See docs/usage.md.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import os from 'node:os';
import { ElasticsearchRecorder } from './elasticsearch.ts';
import { FileRecorder, isElasticsearchTarget, type UsageRecorder } from './recorder.ts';

export { makeEvent, userHash, currentUser, usageSalt, type EventContext, type EventInput } from './events.ts';
export { FileRecorder, eventLine, isElasticsearchTarget, type UsageRecorder } from './recorder.ts';
export { ElasticsearchRecorder, type ElasticsearchRecorderOptions, type RecorderStats } from './elasticsearch.ts';
export { parseEventLine, parseEventLines, readEventFile, eventFiles, type SkippedLine } from './read.ts';
export {
  summarizeUsage,
  UsageTally,
  DEFAULT_MIN_REPORTS,
  type UsageSummary,
  type SkillUsage,
  type Figures,
  type UpdateCandidate,
  type SummarizeOptions,
} from './summarize.ts';

/** Where a server keeps its usage spool and salt: `$XDG_CACHE_HOME/skillpress/usage` or `~/.cache/skillpress/usage`. */
export function defaultUsageDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'skillpress', 'usage');
}

/**
 * A recorder for `--usage <target>`: an http(s) URL is an Elasticsearch cluster (events in
 * `agent_skill_usage`, spooled in `dir` while it does not answer), anything else a JSON Lines file.
 *
 * @example
 * const recorder = openRecorder('usage.jsonl');
 * recorder.record(makeEvent({ type: 'load', skill: 'pdf', via: 'view_skill' }, {}));
 * await recorder.close();
 */
export function openRecorder(
  target: string,
  options: { dir?: string; log?: (message: string) => void; index?: string } = {},
): UsageRecorder {
  if (!isElasticsearchTarget(target)) return new FileRecorder(target, options.log);
  return new ElasticsearchRecorder(target, {
    // One spool per cluster: events wait for the cluster they were meant for.
    spoolDir: path.join(
      options.dir ?? defaultUsageDir(),
      'spool',
      createHash('sha256').update(target).digest('hex').slice(0, 12),
    ),
    log: options.log,
    index: options.index,
  });
}
