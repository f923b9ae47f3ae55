/**
 * Skills registered by URL (seed 001): a SKILL.md somewhere on the web, usually a GitHub,
 * GitLab or Bitbucket "blob" page. The page URL is translated to the raw file, only trusted
 * hosts are fetched (SSRF protection), and each skill carries a health status and check time.
 * An unreachable skill is kept from the cache, marked unhealthy, and the build goes on.
 */
import type { Problem, Skill } from '../model/skill.ts';
import { assembleSkill, readSkillMarkdown, storedFile } from '../load/index.ts';
import { Cache, conditionalGet, confirmedAt } from '../feed-reader/cache.ts';
import { errorMessage, NetworkError } from '../lib/errors.ts';

/**
 * Seed 001's translation rules:
 *   github.com/<org>/<repo>/blob/<ref>/<path>      → raw.githubusercontent.com/<org>/<repo>/<ref>/<path>
 *   gitlab.com/<org>/<repo>/-/blob/<ref>/<path>    → gitlab.com/<org>/<repo>/-/raw/<ref>/<path>
 *   bitbucket.org/<org>/<repo>/src/<ref>/<path>    → bitbucket.org/<org>/<repo>/raw/<ref>/<path>
 * Any other URL is fetched as given.
 */
export function rawSkillUrl(input: string): string {
  const url = new URL(input);
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/');
  if (host === 'github.com' || host === 'www.github.com') {
    // ['', org, repo, 'blob', ref, ...path]
    if (parts.length > 5 && parts[3] === 'blob') {
      return `https://raw.githubusercontent.com/${[parts[1], parts[2], ...parts.slice(4)].join('/')}`;
    }
  } else if (host === 'gitlab.com') {
    const i = parts.indexOf('-');
    if (i > 2 && parts[i + 1] === 'blob') {
      parts[i + 1] = 'raw';
      return `https://gitlab.com${parts.join('/')}`;
    }
  } else if (host === 'bitbucket.org') {
    if (parts.length > 5 && parts[3] === 'src') {
      parts[3] = 'raw';
      return `https://bitbucket.org${parts.join('/')}`;
    }
  }
  return url.href;
}

/** Exact host match against config.federation.trusted_domains (case-insensitive, port ignored). */
export function isTrusted(url: string, trusted: readonly string[]): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return trusted.some((d) => d.toLowerCase() === host);
}

export interface UrlContext {
  cache: Cache;
  timeoutMs: number;
  maxBytes: number;
  now: Date;
  trustedDomains: readonly string[];
  /** Registry name the skill is listed under (this registry: it was registered here). */
  registry: string;
}

export interface UrlImport {
  skill?: Skill;
  problems: Problem[];
}

/** SKILL.md's bytes (or, when the host does not answer, the last copy fetched, marked unhealthy); undefined when there is none. */
async function fetchSkillMd(
  rawUrl: string,
  ctx: UrlContext,
  report: (rule: string, message: string) => void,
): Promise<{ body: Buffer; lastModified?: string; health: Skill['health']; checkedAt: string } | undefined> {
  const http = {
    timeoutMs: ctx.timeoutMs,
    maxBytes: ctx.maxBytes,
    limitName: 'federation.max_bytes',
    allowRedirect: (to: URL) =>
      isTrusted(to.href, ctx.trustedDomains) && (to.protocol === 'https:' || to.protocol === 'http:'),
  };
  const checkedAt = ctx.now.toISOString();
  try {
    const res = await conditionalGet(ctx.cache, rawUrl, http, ctx.now);
    const detail = res.notModified ? 'not modified since the last check' : undefined;
    return {
      body: res.body,
      lastModified: res.entry.last_modified,
      health: { status: 'healthy', checked_at: checkedAt, detail },
      checkedAt,
    };
  } catch (err) {
    const detail = errorMessage(err);
    // A port fetch refuses is the config's mistake, not an outage: no copy stands in for it.
    if (err instanceof NetworkError && err.rule === 'bad-port') {
      report('url-bad-port', `${detail}; the skill is left out`);
      return undefined;
    }
    // Unreachable: serve the last good copy, marked unhealthy, if there is one.
    const previous = await ctx.cache.lastAnswer(rawUrl);
    if (!previous) {
      report('url-unreachable', `${detail}; never fetched before, so the skill is left out`);
      return undefined;
    }
    report('url-unhealthy', `${detail}; using the copy last confirmed at ${confirmedAt(previous.entry)}`);
    const health: Skill['health'] = { status: 'unhealthy', checked_at: checkedAt, detail };
    return { body: previous.body, lastModified: previous.entry.last_modified, health, checkedAt };
  }
}

export async function importSkillUrl(skillMdUrl: string, ctx: UrlContext): Promise<UrlImport> {
  const problems: Problem[] = [];
  const report = (rule: string, message: string): void => {
    problems.push({
      severity: 'warning',
      skill: `url:${skillMdUrl}`,
      file: 'SKILL.md',
      rule,
      // A network error names the URL it fetched already: said once.
      message: message.startsWith(`${skillMdUrl}: `) ? message : `${skillMdUrl}: ${message}`,
    });
  };
  let rawUrl: string;
  try {
    rawUrl = rawSkillUrl(skillMdUrl);
  } catch {
    report('url-invalid', 'not a valid URL');
    return { problems };
  }
  if (!isTrusted(rawUrl, ctx.trustedDomains)) {
    report(
      'url-untrusted',
      `host "${new URL(rawUrl).hostname}" is not in federation.trusted_domains; add it there to fetch this skill`,
    );
    return { problems };
  }

  const fetched = await fetchSkillMd(rawUrl, ctx, report);
  if (!fetched) return { problems };
  const { body, lastModified, health, checkedAt } = fetched;

  const file = storedFile('SKILL.md', body);
  if (file.encoding !== 'utf-8' || file.content === undefined) {
    report('url-invalid-skill', 'SKILL.md is not UTF-8 text');
    return { problems };
  }
  // The folder holding SKILL.md is the skill's folder name, as for a local skill.
  const segments = new URL(rawUrl).pathname.split('/').filter(Boolean);
  const folderName = segments.length >= 2 ? decodeURIComponent(segments[segments.length - 2]!) : undefined;
  const md = readSkillMarkdown(file.content, { folderName, mode: 'lenient' });
  if (!md.parsed) {
    const [error] = md.problems;
    report('url-invalid-skill', `${error?.message} (line ${error?.line ?? 1})`);
    return { problems };
  }
  // Reported as warnings: a broken remote skill is left out, it does not fail the build.
  for (const p of md.problems) report(p.rule, `${p.field ? `${p.field}: ` : ''}${p.message}`);
  if (!md.ok) return { problems };
  const { parsed, frontMatter: fm } = md;

  const updated =
    lastModified && !Number.isNaN(Date.parse(lastModified)) ? new Date(lastModified).toISOString() : checkedAt;
  const skill = assembleSkill({
    parsed,
    frontMatter: fm,
    files: [file],
    registry: ctx.registry,
    source: { kind: 'url', skill_md_url: skillMdUrl, skill_md_raw_url: rawUrl },
    health,
    updated_at: updated,
  });
  return { skill, problems };
}
