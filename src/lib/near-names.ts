/**
 * "Did you mean …": the known names nearest to one that was not found (a config key, a skill
 * name). Two measures, because misses come in two kinds: a typo (`titel` → `title`, `pdftk` →
 * `pdf-tools`) is a short edit distance; a name remembered by its words (`tools-pdf`, `pdf`) shares
 * tokens with the real one.
 */

/** Levenshtein distance, with an adjacent swap counted as one edit (`titel` → `title` is 1). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(best);
    }
  }
  return rows[a.length]![b.length]!;
}

const tokens = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Share of the shorter name's tokens found in the other (a token may be a prefix: `pdf` ~ `pdftk`).
 * Both must be 3 characters or more to count as a prefix: the `n` of `n-tier` prefixes every word
 * starting with n (`nope` would suggest `google-cloud-solution-n-tier-serverless-web-app`).
 */
function tokenOverlap(a: string, b: string): number {
  const [short, long] = [tokens(a), tokens(b)].sort((x, y) => x.length - y.length) as [string[], string[]];
  if (short.length === 0) return 0;
  const prefixes = (t: string, u: string): boolean =>
    Math.min(t.length, u.length) >= 3 && (u.startsWith(t) || t.startsWith(u));
  const hits = short.filter((t) => long.some((u) => u === t || prefixes(t, u)));
  return hits.length / short.length;
}

/**
 * Up to `max` (default 3) of `candidates` near `name`, nearest first: within an edit distance of
 * about a third of the name's length, or sharing most of their words. Empty when nothing is close
 * — a suggestion that is far off misleads more than none.
 */
export function nearNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase();
    if (lower === wanted) continue;
    const distance = editDistance(wanted, lower);
    const overlap = tokenOverlap(wanted, lower);
    // Lower is nearer: an edit within the allowance, else shared words (scored behind any close edit).
    if (distance <= allowed) scored.push({ candidate, score: distance });
    else if (overlap >= 0.5) scored.push({ candidate, score: allowed + 1 + (1 - overlap) * 10 + distance / 100 });
  }
  return scored
    .sort((x, y) => x.score - y.score || (x.candidate < y.candidate ? -1 : 1))
    .slice(0, max)
    .map((s) => s.candidate);
}

/** ` (did you mean "a" or "b"?)`, or '' when no name is near. */
export function didYouMean(name: string, candidates: Iterable<string>, max = 3): string {
  const near = nearNames(name, candidates, max).map((n) => `"${n}"`);
  if (near.length === 0) return '';
  const list = near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near.at(-1)}`;
  return ` (did you mean ${list}?)`;
}
