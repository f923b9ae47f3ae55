/** Build a peer's published output (dist/) from a skills folder with the real feed writer. */
import { writeFeed } from '../../../src/emit/feed/index.ts';
import { SkillpressConfig } from '../../../src/model/config.ts';
import { loadSkills } from './skills.ts';

export async function publish(skillsDir: string, outDir: string, registry: string): Promise<void> {
  const catalog = await loadSkills(skillsDir, registry);
  if (catalog.problems.some((p) => p.severity === 'error')) throw new Error(JSON.stringify(catalog.problems));
  const config = SkillpressConfig.parse({ registry: { name: registry, title: `${registry} skills` } });
  const summary = await writeFeed(catalog, { outDir, config, sourceDateEpoch: 1_767_225_600 });
  if (summary.problems.some((p) => p.severity === 'error')) throw new Error(JSON.stringify(summary.problems));
}
