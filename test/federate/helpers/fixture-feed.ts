/**
 * A small feed (v1) writer for tests, following src/model/feed.ts. The federation tests use
 * the real writer from src/emit/feed/ when it exists (see ./feed.ts); this one is the fallback
 * and also the base for hostile variants that the real writer would never produce.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Cards, FeedIndex, FeedSkill, type Card } from '../../../src/model/feed.ts';
import type { Skill } from '../../../src/model/skill.ts';
import { fileBytes } from '../../../src/load/index.ts';
import { sha256Hex } from '../../../src/lib/hash.ts';

const encodePath = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

export async function writeFixtureFeed(out: string, skills: Skill[], registry = { name: 'fixture', title: 'Fixture registry' }): Promise<void> {
  const feed = path.join(out, 'feed', 'v1');
  const generated_at = '2026-01-01T00:00:00.000Z';
  const write = async (rel: string, data: Uint8Array | string): Promise<string> => {
    const file = path.join(feed, ...rel.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
    return sha256Hex(typeof data === 'string' ? Buffer.from(data) : data);
  };
  const cards: Card[] = [];
  const entries: FeedIndex['skills'] = [];
  for (const skill of skills.filter((s) => s.registry_fields.visibility === 'public')) {
    const card: Card = {
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: skill.registry_fields.tags,
      domain: skill.registry_fields.domain,
      version: skill.registry_fields.version,
      registry: skill.registry,
      updated_at: skill.updated_at,
      digest: skill.digest,
      tokens: 0,
      links: { skill: `skills/${encodeURIComponent(skill.id)}.json`, page: `../../skills/${encodeURIComponent(skill.id)}/` },
    };
    for (const f of skill.files) if (!f.skipped) await write(`files/${skill.id}/${f.path}`, fileBytes(f));
    const skillMd = skill.files.find((f) => f.path === 'SKILL.md')!;
    const feedSkill: FeedSkill = FeedSkill.parse({
      feed_version: '1',
      card,
      summary: { allowed_tools: skill.allowed_tools, health: skill.health },
      frontmatter: skill.frontmatter,
      skill_md: skillMd.content!,
      body: skill.body,
      files: skill.files.map((f) => ({
        path: f.path,
        size: f.size,
        sha256: f.sha256,
        encoding: f.encoding,
        mime: f.mime,
        type: f.type,
        url: f.skipped ? undefined : `../files/${encodeURIComponent(skill.id)}/${encodePath(f.path)}`,
        skipped: f.skipped,
      })),
    });
    const sha256 = await write(`skills/${skill.id}.json`, JSON.stringify(feedSkill, null, 2));
    entries.push({ id: skill.id, url: `skills/${encodeURIComponent(skill.id)}.json`, sha256, digest: skill.digest });
    cards.push(card);
  }
  const cardsJson = JSON.stringify(Cards.parse({ feed_version: '1', generated_at, skills: cards }), null, 2);
  const cardsSha = await write('cards.json', cardsJson);
  const index: FeedIndex = {
    feed_version: '1',
    registry,
    generated_at,
    counts: { skills: entries.length, files: 0, withheld: 0, imported: 0 },
    parts: { cards: { url: 'cards.json', sha256: cardsSha, bytes: Buffer.byteLength(cardsJson) } },
    skills: entries,
  };
  await write('index.json', JSON.stringify(FeedIndex.parse(index), null, 2));
}
