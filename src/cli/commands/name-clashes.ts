/**
 * What `build` and `init` say about name clashes (`name-unique`): an aggregator's sources share
 * names (several `pdf`), and each clash is an error that fails the build until
 * `skills.precedence` says which folder wins. The line names that fix, with folders to list.
 */
import { CONFIG_FILE } from '../../config/load.ts';
import type { Problem } from '../../model/skill.ts';

const SHOWN = 3;

/** The advice line, or undefined when no skill is left out by a name clash. */
export function nameClashAdvice(problems: readonly Problem[]): string | undefined {
  const clashes = problems.filter((p) => p.severity === 'error' && p.rule === 'name-unique');
  const skills = new Set(clashes.map((p) => p.skill)).size;
  if (skills === 0) return undefined;
  const folders = precedenceExample(clashes);
  const listed = folders.slice(0, SHOWN).map((f) => JSON.stringify(f));
  if (folders.length > SHOWN) listed.push('…');
  return (
    `${skills} skill(s) left out: their names clash with another folder's (name-unique); ` +
    `choose which folder wins with skills.precedence in ${CONFIG_FILE}, e.g. "skills": { "precedence": [${listed.join(', ')}] }`
  );
}

/**
 * The folders a `skills.precedence` would list to settle these clashes: for each, the two
 * folders cut just below where their paths part (the source folders of an aggregator), the
 * folder that now keeps the name first, so listing them in this order changes nothing published.
 */
function precedenceExample(clashes: readonly Problem[]): string[] {
  const winners: string[] = [];
  const losers: string[] = [];
  for (const p of clashes) {
    const kept = p.related;
    if (kept === undefined) continue;
    const [a, b] = [kept.split('/'), p.skill.split('/')];
    let i = 0;
    while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
    winners.push(a.slice(0, i + 1).join('/'));
    losers.push(b.slice(0, i + 1).join('/'));
  }
  return [...new Set([...winners, ...losers])];
}
