/**
 * In git, a skill is dated by its last commit, not by its files' mtimes: a CI checkout gives
 * every file the checkout's time, which would date every skill by the last push and change every
 * skill's JSON and archives on every build. A skill with uncommitted files keeps its mtimes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { committedTimes } from '../../src/author/history.ts';
import { plainSkillMd, write } from '../feed/fixture.ts';

let tmp: string;
let repo: string;
const ALPHA_AT = 1_600_000_000;
const BETA_AT = 1_650_000_000;
const DOCS_AT = 1_700_000_000;

function git(cwd: string, args: string[], at?: number): string {
  const date = at === undefined ? {} : { GIT_AUTHOR_DATE: `@${at} +0000`, GIT_COMMITTER_DATE: `@${at} +0000` };
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    env: { ...process.env, ...date },
    encoding: 'utf8',
  });
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-commit-dates-'));
  repo = path.join(tmp, 'repo');
  write(repo, 'skills/alpha/SKILL.md', plainSkillMd('alpha'));
  write(repo, 'skills/alpha/references/guide.md', 'The alpha guide.\n');
  git(tmp, ['init', '-q', repo]);
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'alpha'], ALPHA_AT);
  write(repo, 'skills/beta/SKILL.md', plainSkillMd('beta'));
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'beta'], BETA_AT);
  write(repo, 'README.md', 'docs only\n');
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'docs'], DOCS_AT);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A new repository `tmp/<name>` whose one commit (at ALPHA_AT) adds skills/alpha. */
function alphaRepo(name: string): string {
  const own = path.join(tmp, name);
  write(own, 'skills/alpha/SKILL.md', plainSkillMd('alpha'));
  git(tmp, ['init', '-q', own]);
  git(own, ['add', '.']);
  git(own, ['commit', '-qm', 'alpha'], ALPHA_AT);
  return own;
}

/** Each published skill's `updated_at`, by id, from a build's cards.json. */
function publishedDates(out: string): Record<string, string> {
  const cards = JSON.parse(readFileSync(path.join(out, 'feed/v1/cards.json'), 'utf8')) as {
    skills: Array<{ id: string; updated_at: string }>;
  };
  return Object.fromEntries(cards.skills.map((c) => [c.id, c.updated_at]));
}

/** The mtime (seconds) of every entry of a .tar.gz. */
function tarMtimes(file: string): number[] {
  const tar = gunzipSync(readFileSync(file));
  const times: number[] = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const size = parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString()
        .trim() || '0',
      8,
    );
    times.push(
      parseInt(
        tar
          .subarray(at + 136, at + 148)
          .toString()
          .trim(),
        8,
      ),
    );
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return times;
}

describe('skills dated by their commits', () => {
  it('a fresh clone built as CI builds it dates each skill by its last commit, and its archive entries too', async () => {
    const clone = path.join(tmp, 'clone');
    git(tmp, ['clone', '-q', repo, clone]);
    const out = path.join(tmp, 'out');
    await build({ cwd: clone, out, site: false, sourceDateEpoch: DOCS_AT });
    expect(publishedDates(out)).toEqual({
      alpha: new Date(ALPHA_AT * 1000).toISOString(),
      beta: new Date(BETA_AT * 1000).toISOString(),
    });
    const entries = tarMtimes(path.join(out, '.well-known/agent-skills/alpha.tar.gz'));
    expect(entries.length).toBeGreaterThan(0);
    expect(new Set(entries)).toEqual(new Set([ALPHA_AT]));
  });

  it('a folder with uncommitted or untracked files is not dated by its commits', async () => {
    write(repo, 'skills/beta/notes.md', 'not committed yet\n');
    const times = await committedTimes(path.join(repo, 'skills'), ['alpha', 'beta', 'never-committed']);
    expect(Object.fromEntries(times)).toEqual({ alpha: ALPHA_AT });
  });

  it('a commit or an untracked file that only the ignore rules see (.DS_Store, __pycache__/) dates nothing', async () => {
    const own = alphaRepo('ignored');
    write(own, 'skills/alpha/.DS_Store', 'finder junk');
    write(own, 'skills/alpha/scripts/__pycache__/run.cpython-312.pyc', 'bytecode');
    git(own, ['add', '-f', '.']);
    git(own, ['commit', '-qm', 'oops'], BETA_AT);
    write(own, 'skills/alpha/references/.DS_Store', 'untracked junk');
    const clone = path.join(tmp, 'ignored-clone');
    git(tmp, ['clone', '-q', own, clone]);
    const out = path.join(tmp, 'ignored-out');
    await build({ cwd: clone, out, site: false, sourceDateEpoch: BETA_AT });
    expect(publishedDates(out)).toEqual({ alpha: new Date(ALPHA_AT * 1000).toISOString() });
    expect(Object.fromEntries(await committedTimes(path.join(own, 'skills'), ['alpha']))).toEqual({ alpha: ALPHA_AT });
  });

  it('a shallow clone (fetch-depth 1) keeps the dates the previous build published for skills it cannot date', async () => {
    const wholeClone = path.join(tmp, 'whole');
    git(tmp, ['clone', '-q', repo, wholeClone]);
    const whole = path.join(tmp, 'whole-out');
    await build({ cwd: wholeClone, out: whole, site: false, sourceDateEpoch: DOCS_AT });
    const shallow = path.join(tmp, 'shallow');
    git(tmp, ['clone', '-q', '--depth', '1', `file://${repo}`, shallow]);
    const dates = async (previous?: string): Promise<Record<string, string>> => {
      const out = path.join(tmp, `shallow-out-${previous ? 'previous' : 'alone'}`);
      await build({ cwd: shallow, out, site: false, sourceDateEpoch: DOCS_AT, ...(previous ? { previous } : {}) });
      return publishedDates(out);
    };
    // Its one commit seems to add every file: alone, every skill is dated by it.
    expect(await dates()).toEqual({
      alpha: new Date(DOCS_AT * 1000).toISOString(),
      beta: new Date(DOCS_AT * 1000).toISOString(),
    });
    expect(await dates(whole)).toEqual({
      alpha: new Date(ALPHA_AT * 1000).toISOString(),
      beta: new Date(BETA_AT * 1000).toISOString(),
    });
  });

  it("outside git, a skill whose content is the previous build's keeps its date however recent its mtimes", async () => {
    const plain = path.join(tmp, 'copied');
    write(plain, 'skills/alpha/SKILL.md', plainSkillMd('alpha'));
    utimesSync(path.join(plain, 'skills/alpha/SKILL.md'), ALPHA_AT, ALPHA_AT);
    const out = path.join(tmp, 'copied-out');
    const dated = async (): Promise<string | undefined> => {
      await build({ cwd: plain, out, site: false });
      return publishedDates(out).alpha;
    };
    expect(await dated()).toBe(new Date(ALPHA_AT * 1000).toISOString());
    utimesSync(path.join(plain, 'skills/alpha/SKILL.md'), BETA_AT, BETA_AT);
    expect(await dated()).toBe(new Date(ALPHA_AT * 1000).toISOString());
    write(plain, 'skills/alpha/SKILL.md', `${plainSkillMd('alpha')}\nChanged.\n`);
    utimesSync(path.join(plain, 'skills/alpha/SKILL.md'), BETA_AT, BETA_AT);
    expect(await dated()).toBe(new Date(BETA_AT * 1000).toISOString());
  });

  it('a skill changed on a merged branch is dated by the merge that brought it in, a resolved conflict too', async () => {
    const own = path.join(tmp, 'merged');
    write(own, 'skills/alpha/SKILL.md', plainSkillMd('alpha'));
    write(own, 'skills/beta/SKILL.md', plainSkillMd('beta'));
    git(tmp, ['init', '-q', '-b', 'main', own]);
    git(own, ['add', '.']);
    git(own, ['commit', '-qm', 'start'], ALPHA_AT);
    git(own, ['checkout', '-qb', 'feature']);
    write(own, 'skills/alpha/SKILL.md', `${plainSkillMd('alpha')}\nFrom the branch.\n`);
    write(own, 'skills/beta/SKILL.md', `${plainSkillMd('beta')}\nFrom the branch.\n`);
    git(own, ['commit', '-qam', 'feature'], ALPHA_AT + 10);
    git(own, ['checkout', '-q', 'main']);
    write(own, 'skills/beta/SKILL.md', `${plainSkillMd('beta')}\nOn main.\n`);
    git(own, ['commit', '-qam', 'main'], ALPHA_AT + 20);
    // beta conflicts; the merge commit resolves it with content neither parent has.
    expect(() => git(own, ['merge', '-q', 'feature'], BETA_AT)).toThrow();
    write(own, 'skills/beta/SKILL.md', `${plainSkillMd('beta')}\nResolved.\n`);
    git(own, ['commit', '-qam', 'merge feature'], BETA_AT);
    const times = await committedTimes(path.join(own, 'skills'), ['alpha', 'beta']);
    expect(Object.fromEntries(times)).toEqual({ alpha: BETA_AT, beta: BETA_AT });
  });

  it('a process dating the same folder again (dev, mcp --skills) sees every new commit, amend and reset', async () => {
    const own = alphaRepo('again');
    const alphaAt = async () => (await committedTimes(path.join(own, 'skills'), ['alpha'])).get('alpha');
    expect(await alphaAt()).toBe(ALPHA_AT);
    expect(await alphaAt()).toBe(ALPHA_AT); // the history read before
    write(own, 'skills/alpha/SKILL.md', `${plainSkillMd('alpha')}\nEdited.\n`);
    expect(await alphaAt()).toBeUndefined(); // uncommitted: its mtimes stand
    git(own, ['commit', '-qam', 'edit'], BETA_AT);
    expect(await alphaAt()).toBe(BETA_AT);
    git(own, ['commit', '-q', '--amend', '-m', 'edit, amended'], DOCS_AT);
    expect(await alphaAt()).toBe(DOCS_AT);
    git(own, ['reset', '-q', '--hard', 'HEAD~1']);
    expect(await alphaAt()).toBe(ALPHA_AT);
  });

  it('outside git nothing is dated by commits', async () => {
    const plain = path.join(tmp, 'plain');
    write(plain, 'alpha/SKILL.md', plainSkillMd('alpha'));
    expect((await committedTimes(plain, ['alpha'])).size).toBe(0);
  });
});
