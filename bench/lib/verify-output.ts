/**
 * Check a build's output against its own digests, as a peer or an installer would: every feed
 * part and skill JSON against `index.json`, every raw file against its skill JSON, every card
 * digest against the files, every discovery entry against the artifact's bytes, and every
 * entry of every `.tar.gz` and `.zip` against the skill's file list.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { skillDigest } from '../../src/load/index.ts';
import { DiscoveryIndex, FeedIndex, FeedSkill } from '../../src/model/feed.ts';
import { readTarGz, readZip } from '../../test/feed/archive-reader.ts';

export interface Verification {
  /** Digests and sizes compared. */
  checked: number;
  /** What did not match, one line each. */
  mismatches: string[];
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
/** A URL of the feed (relative, percent-encoded per segment) as a path below `base`. */
const fileAt = (base: string, url: string): string => path.join(base, ...url.split('/').map(decodeURIComponent));

export async function verifyOutput(out: string): Promise<Verification> {
  const v: Verification = { checked: 0, mismatches: [] };
  const expect = (ok: boolean, what: string): void => {
    v.checked++;
    if (!ok) v.mismatches.push(what);
  };
  const feed = path.join(out, 'feed/v1');
  const index = FeedIndex.parse(JSON.parse(readFileSync(path.join(feed, 'index.json'), 'utf8')));
  for (const [key, part] of Object.entries(index.parts)) {
    const bytes = readFileSync(fileAt(feed, part.url));
    expect(sha256(bytes) === part.sha256 && bytes.byteLength === part.bytes, `part ${key}`);
  }
  const stored = new Map<string, Map<string, string>>();
  for (const entry of index.skills) {
    const bytes = readFileSync(fileAt(feed, entry.url));
    expect(sha256(bytes) === entry.sha256, `skill JSON ${entry.id}`);
    const skill = FeedSkill.parse(JSON.parse(bytes.toString('utf8')));
    const files = skill.files.filter((f) => f.url !== undefined);
    for (const f of files) {
      const raw = readFileSync(fileAt(feed, f.url!));
      expect(sha256(raw) === f.sha256 && raw.byteLength === f.size, `file ${entry.id}/${f.path}`);
    }
    expect(skillDigest(files) === skill.card.digest && skill.card.digest === entry.digest, `digest of ${entry.id}`);
    stored.set(entry.id, new Map(files.map((f) => [f.path, f.sha256])));
  }
  await verifyDiscovery(out, stored, expect);
  return v;
}

/** The discovery index's digests, and both archives of every skill against its stored files. */
async function verifyDiscovery(
  out: string,
  stored: Map<string, Map<string, string>>,
  expect: (ok: boolean, what: string) => void,
): Promise<void> {
  const dir = path.join(out, '.well-known/agent-skills');
  const discovery = DiscoveryIndex.parse(JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')));
  for (const entry of discovery.skills) {
    const artifact = readFileSync(fileAt(dir, entry.url));
    expect(`sha256:${sha256(artifact)}` === entry.digest, `discovery ${entry.name}`);
    const files = stored.get(entry.name);
    if (!files) {
      expect(false, `discovery ${entry.name}: not in the feed`);
      continue;
    }
    const tarGz = path.join(dir, `${entry.name}.tar.gz`);
    const archives = [
      { kind: 'tar.gz', entries: existsSync(tarGz) ? await readTarGz(readFileSync(tarGz)) : [] },
      { kind: 'zip', entries: readZip(readFileSync(path.join(dir, `${entry.name}.zip`))) },
    ];
    for (const { kind, entries } of archives) {
      const same = entries.length === files.size && entries.every((e) => files.get(e.path) === sha256(e.bytes));
      expect(same, `${kind} of ${entry.name}`);
    }
  }
}
