/**
 * What changed between two versions of a skill, as short readable lines: the description,
 * the body's sections (by markdown heading: added, removed, changed), and the files (added,
 * removed, changed). Derived from the content, so it says what the change did, not what was asked.
 */
export interface SkillSnapshot {
  description: string;
  body: string;
  /** Every file but SKILL.md: path → sha256. */
  files: ReadonlyMap<string, string>;
}

export function describeChanges(before: SkillSnapshot | undefined, after: SkillSnapshot): string[] {
  if (!before) return ['created'];
  const out: string[] = [];
  if (before.description !== after.description) out.push('description changed');
  out.push(...sectionChanges(before.body, after.body));
  for (const [p, sha] of after.files) {
    const was = before.files.get(p);
    if (was === undefined) out.push(`file added: ${p}`);
    else if (was !== sha) out.push(`file changed: ${p}`);
  }
  for (const p of before.files.keys()) if (!after.files.has(p)) out.push(`file removed: ${p}`);
  return out.length > 0 ? out : ['no content change'];
}

/** Sections of a markdown body by heading (`## Steps`), the text before the first heading as "(introduction)". */
export function sections(body: string): Map<string, string> {
  const out = new Map<string, string>();
  let key = '(introduction)';
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text !== '' || key !== '(introduction)') out.set(uniqueKey(out, key), text);
  };
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) fence = fence === undefined ? marker : undefined;
    const heading = fence === undefined && !marker ? /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (heading) {
      flush();
      key = `${heading[1]} ${heading[2]}`;
      lines = [];
    } else lines.push(line);
  }
  flush();
  return out;
}

function uniqueKey(map: Map<string, string>, key: string): string {
  let k = key;
  for (let n = 2; map.has(k); n++) k = `${key} (${n})`;
  return k;
}

function sectionChanges(before: string, after: string): string[] {
  if (before.trim() === after.trim()) return [];
  const a = sections(before);
  const b = sections(after);
  const out: string[] = [];
  const label = (key: string) => (key === '(introduction)' ? 'introduction' : `section "${key.replace(/^#+ /, '')}"`);
  for (const [key, text] of b) {
    if (!a.has(key)) out.push(`${label(key)} added`);
    else if (a.get(key) !== text) out.push(`${label(key)} changed`);
  }
  for (const key of a.keys()) if (!b.has(key)) out.push(`${label(key)} removed`);
  return out.length > 0 ? out : ['body reformatted'];
}
