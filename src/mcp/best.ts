/**
 * Seed 004's search: exactly one skill that fits a request, or none — decided by a stated rule
 * over the shared ranking, not by a model. The rule is returned with every answer so the agent
 * (and the person reading the transcript) knows why.
 */
import { STOP_WORDS } from '../search/text.ts';
import type { SkillSearch } from '../search/index.ts';

/** Share of the request's meaningful words the top skill must match. */
export const MIN_COVERAGE = 0.5;
/** How far (relative) the top score must lead the runner-up. */
export const MIN_MARGIN = 0.1;

export const RULE =
  `Rule: rank every skill with the shared search (name > description > tags > paths > body); ` +
  `pick the top one only if it matches at least ${MIN_COVERAGE * 100}% of the request's meaningful words ` +
  `and scores at least ${MIN_MARGIN * 100}% above the runner-up; otherwise none. ` +
  `confidence = coverage × (0.5 + 0.5 × min(1, 2 × lead)).`;

/** Words people put in requests that say nothing about the task. */
const FILLER = new Set(['my', 'me', 'i', "i'm", 'im', 'please', 'help', 'need', 'want', 'like', 'some', 'get', 'make', 'just', 'about', 'something', 'someone', 'thing', 'things']);

export interface BestVerdict {
  id?: string;
  confidence: number;
  rule: string;
}

export function meaningfulWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}._/-]+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w) && !FILLER.has(w));
  return [...new Set(words)].slice(0, 32);
}

export function bestSkill(search: SkillSearch, query: string): BestVerdict {
  const words = meaningfulWords(query);
  if (words.length === 0) return { confidence: 0, rule: `The request has no meaningful words to match. ${RULE}` };
  const hits = search.search(words.join(' '), { limit: 2 });
  const [top, second] = hits;
  if (!top) return { confidence: 0, rule: `No skill matches any word of the request. ${RULE}` };
  const matched = words.filter((w) => top.terms.some((t) => termMatches(t, w)));
  const coverage = matched.length / words.length;
  const lead = second ? (top.score - second.score) / top.score : 1;
  const confidence = round(coverage * (0.5 + 0.5 * Math.min(1, 2 * lead)));
  const why = `Top: "${top.id}" matched ${matched.length}/${words.length} words (${matched.join(', ') || 'none'})` +
    (second ? `, ${Math.round(lead * 100)}% above "${second.id}"` : ', no runner-up') + '.';
  if (coverage < MIN_COVERAGE) return { confidence, rule: `${why} Too few words match. ${RULE}` };
  if (lead < MIN_MARGIN) return { confidence, rule: `${why} Too close to call. ${RULE}` };
  return { id: top.id, confidence, rule: `${why} ${RULE}` };
}

/** Whether a matched index term accounts for a query word (prefix and typo tolerance, as the search does). */
function termMatches(term: string, word: string): boolean {
  if (term === word || term.startsWith(word) || (word.length >= 4 && word.startsWith(term))) return true;
  const budget = word.length < 4 ? 0 : word.length < 8 ? 1 : word.length < 13 ? 2 : 3;
  return budget > 0 && Math.abs(term.length - word.length) <= budget && editDistance(term, word) <= budget;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

const round = (n: number): number => Math.round(n * 100) / 100;
