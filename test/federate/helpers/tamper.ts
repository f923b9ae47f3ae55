/** Turn a published feed into a hostile one, keeping the digests right where a test needs them. */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../../src/lib/hash.ts';
import { replaceFile } from '../../helpers/replace-file.ts';

type Json = Record<string, any>;

const feedPath = (dist: string, rel: string) => path.join(dist, 'feed', 'v1', ...rel.split('/'));

export async function editIndex(dist: string, mutate: (index: Json) => void): Promise<void> {
  const file = feedPath(dist, 'index.json');
  const index = JSON.parse(await readFile(file, 'utf8')) as Json;
  mutate(index);
  await replaceFile(file, JSON.stringify(index, null, 2));
}

/** Replace a skill JSON's bytes and list their (correct) sha256 in index.json. */
export async function writeSkillJson(dist: string, id: string, text: string): Promise<void> {
  await replaceFile(feedPath(dist, `skills/${id}.json`), text);
  await editIndex(dist, (index) => {
    for (const entry of index.skills) if (entry.id === id) entry.sha256 = sha256Hex(text);
  });
}

export async function editSkillJson(dist: string, id: string, mutate: (skill: Json) => void): Promise<void> {
  const skill = JSON.parse(await readFile(feedPath(dist, `skills/${id}.json`), 'utf8')) as Json;
  mutate(skill);
  await writeSkillJson(dist, id, JSON.stringify(skill, null, 2));
}

export async function overwriteFeedFile(dist: string, rel: string, data: string | Uint8Array): Promise<void> {
  await replaceFile(feedPath(dist, rel), data);
}

/** Every file under `root` (relative paths), skipping the folders named in `skip`. */
export async function listTree(root: string, skip: string[] = []): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (skip.includes(abs)) continue;
      if (entry.isDirectory()) await walk(abs);
      else out.push(path.relative(root, abs));
    }
  };
  await walk(root);
  return out.sort();
}

/**
 * Add files to a published skill as a hostile peer would: listed in its skill JSON with their
 * true sha256, served from URLs of the peer's choosing (so `a` and `a/b` can both exist), and the
 * content digest of the card and index.json recomputed, so every digest checks out.
 */
export async function addFeedFiles(dist: string, id: string, files: Record<string, string>): Promise<void> {
  const entries = Object.entries(files);
  for (const [i, [, text]] of entries.entries()) await replaceFile(feedPath(dist, `files/${id}/added-${i}`), text);
  let digest = '';
  await editSkillJson(dist, id, (skill) => {
    for (const [i, [p, text]] of entries.entries()) {
      skill.files.push({
        path: p,
        size: Buffer.byteLength(text),
        sha256: sha256Hex(text),
        encoding: 'utf-8',
        mime: 'text/plain',
        type: 'txt',
        url: `files/${id}/added-${i}`,
      });
    }
    const lines = skill.files.filter((f: Json) => !f.skipped).map((f: Json) => `${f.path}\0${f.sha256}\n`);
    digest = `sha256:${sha256Hex(lines.sort().join(''))}`;
    skill.card.digest = digest;
  });
  await editIndex(dist, (index) => {
    for (const entry of index.skills) if (entry.id === id) entry.digest = digest;
  });
}
