import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalog } from '../../src/load/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { Changes } from '../../src/model/feed.ts';
import { loadPreviousFeed, writeFeed } from '../../src/emit/feed/index.ts';
import { makeFixture, skillMd, write, type Fixture } from './fixture.ts';

let fx: Fixture;
const config = SkillpressConfig.parse({ registry: { name: 'test-registry' } });

async function buildAt(n: number, epoch: number, skills = fx.skills): Promise<string> {
  return (await buildWithSummary(n, epoch, skills)).out;
}

async function buildWithSummary(n: number, epoch: number, skills = fx.skills) {
  const out = path.join(fx.dir, `out-${n}`);
  const catalog = await loadCatalog(skills, { registry: 'test-registry', sourceDateEpoch: epoch });
  const previous = n > 1 ? await loadPreviousFeed(path.join(fx.dir, `out-${n - 1}`)) : undefined;
  const summary = await writeFeed(catalog, { outDir: out, config, previous, sourceDateEpoch: epoch });
  return { out, summary };
}

const feedFile = (out: string, name: string): string => readFileSync(path.join(out, 'feed/v1', name), 'utf8');

/** Every file under `dir`, with its mtime set to `seconds` since the epoch. */
function dateFiles(dir: string, seconds: number): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) utimesSync(path.join(entry.parentPath, entry.name), seconds, seconds);
}

const changesOf = (out: string) =>
  Changes.parse(JSON.parse(readFileSync(path.join(out, 'feed/v1/changes.json'), 'utf8')));

beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => {
  rmSync(fx.dir, { recursive: true, force: true });
});

describe('changes.json', () => {
  it('tracks added, updated and removed skills across builds and keeps tombstones', async () => {
    const first = changesOf(await buildAt(1, 1_000));
    expect(first.previous_generated_at).toBeUndefined();
    expect(first.changes.map((c) => [c.id, c.change])).toEqual([
      ['kitchen-sink', 'added'],
      ['only-skill-md', 'added'],
    ]);
    const oldDigest = first.changes[0]!.digest;

    // Update one skill (content and version), remove one, add one.
    write(fx.skills, 'kitchen-sink/a/b/c/deep.txt', 'changed\n');
    const md = path.join(fx.skills, 'kitchen-sink', 'SKILL.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace('version: "1.0.0"', 'version: "1.1.0"'));
    rmSync(path.join(fx.skills, 'only-skill-md'), { recursive: true });
    write(fx.skills, 'new-skill/SKILL.md', skillMd('new-skill', 'Added in the second build.'));

    const second = changesOf(await buildAt(2, 2_000));
    expect(second.previous_generated_at).toBe(new Date(1_000_000).toISOString());
    const by = new Map(second.changes.map((c) => [c.id, c]));
    expect([...by.keys()]).toEqual(['kitchen-sink', 'new-skill', 'only-skill-md']);
    expect(by.get('kitchen-sink')).toMatchObject({
      change: 'updated',
      version: '1.1.0',
      previous_version: '1.0.0',
      previous_digest: oldDigest,
    });
    expect(by.get('kitchen-sink')!.digest).not.toBe(oldDigest);
    expect(by.get('new-skill')).toMatchObject({ change: 'added' });
    expect(by.get('only-skill-md')).toMatchObject({
      change: 'removed',
      previous_version: '0.1.0',
      at: new Date(2_000_000).toISOString(),
    });

    // No skill changed: the news of the last build that changed one stays, against the same build.
    const third = changesOf(await buildAt(3, 3_000));
    expect(third.changes).toEqual(second.changes);
    expect(third.previous_generated_at).toBe(new Date(1_000_000).toISOString());
    expect(third.generated_at).toBe(new Date(3_000_000).toISOString());

    // The removed skill comes back: it is added again and its tombstone goes.
    write(fx.skills, 'only-skill-md/SKILL.md', skillMd('only-skill-md', 'Back again.'));
    const fourth = changesOf(await buildAt(4, 4_000));
    expect(fourth.changes.map((c) => [c.id, c.change])).toEqual([['only-skill-md', 'added']]);
    expect(fourth.previous_generated_at).toBe(new Date(3_000_000).toISOString());
  });

  it('a build that changes nothing publishes the previous feed again, byte for byte; the next change brings its own news', async () => {
    const skills = path.join(fx.dir, 'dated-skills');
    cpSync(fx.skills, skills, { recursive: true });
    // Files dated before every build: no skill's updated_at moves with the build's time.
    dateFiles(skills, 500);
    const first = await buildWithSummary(11, 1_000, skills);
    const again = await buildWithSummary(12, 2_000, skills);
    expect(again.summary.changes).toEqual({ added: 0, updated: 0, removed: 0 });
    for (const name of ['index.json', 'cards.json', 'changes.json'])
      expect(feedFile(again.out, name), name).toBe(feedFile(first.out, name));
    expect(new Set(changesOf(again.out).changes.map((c) => c.change))).toEqual(new Set(['added']));

    write(skills, 'kitchen-sink/notes.md', 'a new file\n');
    dateFiles(skills, 1_500);
    const changed = await buildWithSummary(13, 3_000, skills);
    expect(changed.summary.changes).toEqual({ added: 0, updated: 1, removed: 0 });
    const news = changesOf(changed.out);
    expect(news.generated_at).toBe(new Date(3_000_000).toISOString());
    expect(news.previous_generated_at).toBe(new Date(1_000_000).toISOString());
    expect(news.changes.map((c) => [c.id, c.change])).toEqual([['kitchen-sink', 'updated']]);

    // The registry's title changes, no skill does: a new time, the same news.
    const retitled = path.join(fx.dir, 'out-14');
    const catalog = await loadCatalog(skills, { registry: 'test-registry', sourceDateEpoch: 4_000 });
    await writeFeed(catalog, {
      outDir: retitled,
      config: SkillpressConfig.parse({ registry: { name: 'test-registry', title: 'Renamed' } }),
      previous: await loadPreviousFeed(changed.out),
      sourceDateEpoch: 4_000,
    });
    const kept = changesOf(retitled);
    expect(kept.generated_at).toBe(new Date(4_000_000).toISOString());
    expect(kept.changes).toEqual(news.changes);
    expect(kept.previous_generated_at).toBe(news.previous_generated_at);
  });

  it('finds no previous feed in an empty folder, and rejects a broken one', async () => {
    expect(await loadPreviousFeed(path.join(fx.dir, 'nothing-here'))).toBeUndefined();
    write(fx.dir, 'broken/feed/v1/index.json', JSON.stringify({ hello: 'world' }));
    await expect(loadPreviousFeed(path.join(fx.dir, 'broken'))).rejects.toThrow(/index\.json: feed_version: /);
  });

  it('reads the previous cards only through index.json: a cards.json that does not match its digest is refused', async () => {
    const out = await buildAt(1, 1_000);
    const cards = path.join(out, 'feed/v1/cards.json');
    writeFileSync(cards, readFileSync(cards, 'utf8').replace('"kitchen-sink"', '"kitchen-sunk"'));
    await expect(loadPreviousFeed(out)).rejects.toThrow(
      /cards\.json: sha256 [0-9a-f]{64} does not match the sha256 the feed lists for it/,
    );
  });

  it('reads a hostile previous feed like any peer: forged ids, dates and tombstones are refused and named, never carried', async () => {
    const out = await buildAt(1, 1_000);
    const feed = path.join(out, 'feed/v1');
    const index = JSON.parse(readFileSync(path.join(feed, 'index.json'), 'utf8')) as {
      parts: Record<string, { url: string; sha256: string }>;
    };
    /** Rewrite a part and its digest in index.json, as a hostile host serving the previous feed would. */
    const forge = (part: string, edit: (json: { changes?: unknown[]; skills?: unknown[] }) => void): void => {
      const file = path.join(feed, index.parts[part]!.url);
      const json = JSON.parse(readFileSync(file, 'utf8')) as { changes?: unknown[]; skills?: unknown[] };
      edit(json);
      const text = JSON.stringify(json);
      writeFileSync(file, text);
      index.parts[part]!.sha256 = createHash('sha256').update(text).digest('hex');
      writeFileSync(path.join(feed, 'index.json'), JSON.stringify(index));
    };
    const tomb = (id: string, at = '1970-01-01T00:00:00.500Z') => ({ id, change: 'removed', at });
    forge('changes', (json) => {
      json.changes = [
        tomb('../../etc/passwd'),
        tomb('x'.repeat(5_000)),
        tomb('forged-date', 'not-a-date <script>'),
        { id: 'not-removed', change: 'added', at: '2026-01-01T00:00:00.000Z' },
        tomb('kitchen-sink'),
        // News that is not the card's: a forged digest would be republished as this registry's word.
        { id: 'kitchen-sink', change: 'updated', digest: `sha256:${'0'.repeat(64)}`, at: '1970-01-01T00:00:00.500Z' },
        tomb('from-the-future', '2999-01-01T00:00:00.000Z'),
        tomb('honest-tombstone'),
      ];
    });
    forge('cards', (json) => {
      const [card] = json.skills as Array<Record<string, unknown>>;
      json.skills!.push({ ...card, id: '../evil' });
    });
    const previous = (await loadPreviousFeed(out))!;
    expect(previous.tombstones.map((t) => t.id)).toEqual(['honest-tombstone']);
    expect(previous.news).toEqual([]);
    expect(previous.refused.join('\n')).toContain(
      'change "kitchen-sink": updated with a digest or version that is not the card\'s',
    );
    expect(previous.cards.map((c) => c.id)).not.toContain('../evil');
    expect(previous.cards.map((c) => c.id)).toContain('kitchen-sink');
    const refused = previous.refused.join('\n');
    for (const what of ['../../etc/passwd', 'xxxxxxxx', 'not-a-date', 'kitchen-sink', 'from-the-future', '../evil'])
      expect(refused).toContain(what);

    // Too many entries: an error naming the count, never a 35 MB change list.
    forge('changes', (json) => {
      json.changes = Array.from({ length: 100_004 }, (_, i) => tomb(`gone-${i}`));
    });
    await expect(loadPreviousFeed(out)).rejects.toThrow(/and 100004 tombstones; at most 50000 and 10000 are read/);
  });
});
