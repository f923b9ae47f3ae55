/** Build a peer's published output (dist/) from a skills folder. */
import { loadSkills } from './skills.ts';
import { writeFixtureFeed } from './fixture-feed.ts';

export async function publish(skillsDir: string, outDir: string, registry: string): Promise<void> {
  const catalog = await loadSkills(skillsDir, registry);
  if (catalog.problems.some((p) => p.severity === 'error')) throw new Error(JSON.stringify(catalog.problems));
  await writeFixtureFeed(outDir, catalog.skills, { name: registry, title: `${registry} skills` });
}
