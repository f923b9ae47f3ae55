/**
 * Two builds of the same three skills, one without usage figures and one with: data-scrub keeps
 * failing, data-wash keeps working (the ranking tests, in process and through the CLI).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from '../../src/build.ts';
import { FileRecorder, makeEvent } from '../../src/usage/index.ts';
import { tempDir, writeSkills, type SkillFiles } from '../mcp/helpers.ts';

const DESCRIPTION = 'Clean messy CSV files: fix delimiters, trim whitespace and remove duplicate rows.';
const SKILLS: Record<string, SkillFiles> = {
  'data-scrub': { 'SKILL.md': `---\nname: data-scrub\ndescription: ${DESCRIPTION}\n---\nFollow the steps.\n` },
  'data-wash': { 'SKILL.md': `---\nname: data-wash\ndescription: ${DESCRIPTION}\n---\nFollow the steps.\n` },
  'pdf-forms': {
    'SKILL.md': `---\nname: pdf-forms\ndescription: Fill PDF forms and merge PDF documents.\n---\nFill the form.\n`,
  },
};
export const QUERY = 'clean up my messy CSV files and remove duplicate rows';

export interface UsageFeeds {
  /** The build without figures. */
  plain: string;
  /** The build with `analytics.source`: success rates and use counts in the feed. */
  measured: string;
  remove: () => Promise<void>;
}

export async function usageFeeds(): Promise<UsageFeeds> {
  const tmp = await tempDir();
  const skills = path.join(tmp.dir, 'skills');
  await writeSkills(skills, SKILLS);
  const events = path.join(tmp.dir, 'events.jsonl');
  const recorder = new FileRecorder(events);
  for (let i = 0; i < 10; i++) {
    recorder.record(makeEvent({ type: 'outcome', skill: 'data-scrub', outcome: 'failure' }, { user: `u${i}` }));
    recorder.record(makeEvent({ type: 'outcome', skill: 'data-wash', outcome: 'success' }, { user: `u${i}` }));
  }
  for (let i = 0; i < 5; i++)
    recorder.record(makeEvent({ type: 'load', skill: 'data-wash', via: 'view_skill' }, { user: 'u' }));
  await recorder.close();
  const configs = { plain: {}, measured: { analytics: { source: events } } };
  for (const [name, config] of Object.entries(configs)) {
    const dir = path.join(tmp.dir, `config-${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'skillpress.json'), JSON.stringify(config));
    await build({ skills, out: path.join(tmp.dir, name), config: dir, site: false });
  }
  return { plain: path.join(tmp.dir, 'plain'), measured: path.join(tmp.dir, 'measured'), remove: tmp.remove };
}
