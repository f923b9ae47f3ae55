/**
 * The query-time form of one serialized index: a sorted term list and flat typed-array
 * postings, read straight from the compact wire form (./codec.ts) without building MiniSearch's
 * tree of Maps. About a tenth of the memory and load time, and a term's prefix range or typo
 * neighbours are found by binary search over the sorted terms (an implicit trie).
 * Browser-safe: no node: imports.
 */
import type { CompactIndex } from './codec.ts';

/** How a query term matched an index term. */
export type ExpansionKind = 'exact' | 'prefix' | 'fuzzy';

export class TermIndex {
  /** Every term, sorted by UTF-16 code units (`<`). */
  readonly terms: string[];
  /** Postings of term t: positions offsets[t] .. offsets[t + 1] - 1 of docs / fields / freqs, grouped by field, docs ascending. */
  readonly offsets: Uint32Array;
  /** Document numbers (positions in `ids`). */
  docs: Uint16Array | Uint32Array;
  /** Field numbers; absent when the index has one field. */
  fields: Uint8Array | undefined;
  /** Term frequencies, capped at 255 (BM25 saturates long before); absent when every one is 1 (the body index). */
  freqs: Uint8Array | undefined;
  /** Field names by field number. */
  readonly fieldNames: string[];
  /** Length (in terms) of field f of document d: fieldLength[d * fieldNames.length + f]. */
  fieldLength: Float32Array;
  readonly averageFieldLength: number[];
  /** Document ids (skill ids) by document number. */
  readonly ids: string[];
  /** Stored fields by document number (the objects of the parsed JSON, not copied). */
  readonly stored: Array<Record<string, unknown> | undefined>;
  /** The terms as a trie, for typo matching; built on the first fuzzy search. */
  private trie: Trie | undefined;

  constructor(compact: CompactIndex) {
    const { terms, postings } = compact;
    if (typeof terms !== 'string' || typeof postings !== 'string')
      throw new Error('search index: "terms" and "postings" must be strings');
    const documentIds = compact.documentIds as Record<string, string>;
    const fieldIds = compact.fieldIds as Record<string, number>;
    const lengths = compact.fieldLength as Record<string, number[]>;
    const storedFields = (compact.storedFields ?? {}) as Record<string, Record<string, unknown>>;
    if (!documentIds || !fieldIds || !lengths)
      throw new Error('search index: documentIds, fieldIds and fieldLength are required');

    // MiniSearch's short ids → dense document numbers, in short-id order (= insertion order).
    const shortIds = Object.keys(documentIds);
    const dense = new Map<number, number>();
    this.ids = shortIds.map((s, i) => (dense.set(Number(s), i), documentIds[s]!));
    this.stored = shortIds.map((s) => storedFields[s]);
    this.fieldNames = [];
    for (const [name, id] of Object.entries(fieldIds)) this.fieldNames[id] = name;
    const nf = this.fieldNames.length;
    this.fieldLength = new Float32Array(shortIds.length * nf);
    shortIds.forEach((s, d) => lengths[s]?.forEach((len, f) => (this.fieldLength[d * nf + f] = len ?? 0)));
    this.averageFieldLength = compact.averageFieldLength as number[];

    const termList = terms === '' ? [] : terms.split('\n');
    let lines = postings === '' ? 0 : 1;
    for (let i = postings.indexOf('\n'); i >= 0; i = postings.indexOf('\n', i + 1)) lines++;
    if (termList.length !== lines) throw new Error('search index: terms and postings differ in length');
    // Older feeds list terms in insertion order: sort them (with their postings) once here.
    let order: number[] | undefined;
    for (let i = 1; i < termList.length; i++) {
      if (!(termList[i - 1]! < termList[i]!)) {
        order = termList.map((_, j) => j).sort((a, b) => (termList[a]! < termList[b]! ? -1 : 1));
        break;
      }
    }
    this.terms = order ? order.map((j) => termList[j]!) : termList;

    // One posting per document id in the text: count separators to size the arrays.
    let count = 0;
    for (let i = 0; i < postings.length; i++) {
      const c = postings.charCodeAt(i);
      if (c === 44 /* , */ || c === 59 /* ; */ || c === 10 /* \n */) count++;
    }
    if (postings !== '') count++;
    const many = shortIds.length > 0xffff;
    this.offsets = new Uint32Array(this.terms.length + 1);
    this.docs = many ? new Uint32Array(count) : new Uint16Array(count);
    const fields = (this.fields = new Uint8Array(count));
    const freqs = (this.freqs = new Uint8Array(count));
    // Where each term's line starts in `postings` (lines are read in sorted-term order).
    const lineStart = new Uint32Array(lines + 1);
    for (let i = 0, l = 1; i < postings.length; i++) if (postings.charCodeAt(i) === 10) lineStart[l++] = i + 1;
    lineStart[lines] = postings.length + 1;
    let n = 0;
    for (let t = 0; t < this.terms.length; t++) {
      this.offsets[t] = n;
      const line = order ? order[t]! : t;
      n = this.readLine(postings, lineStart[line]!, lineStart[line + 1]! - 1, n, dense);
    }
    this.offsets[this.terms.length] = n;
    // The body index has one field and lists each word once per skill: half its memory.
    if (nf <= 1 && fields.every((f) => f === 0)) this.fields = undefined;
    if (freqs.every((f) => f === 1)) this.freqs = undefined;
  }

  /**
   * Parses one term's postings, `field:delta,delta*tf;field:…` (./codec.ts), from `from` to `to`
   * into the arrays at position `n`, character by character: no substrings, so no garbage.
   */
  private readLine(text: string, from: number, to: number, n: number, dense: Map<number, number>): number {
    let field = 0;
    let id = 0;
    let num = 0;
    let tf = 1;
    let inTf = false;
    let inField = true;
    const flush = (): void => {
      if (inTf) tf = num;
      else id += num;
      const d = dense.get(id);
      if (d === undefined) throw new Error(`search index: posting for unknown document ${id}`);
      this.docs[n] = d;
      this.fields![n] = field;
      this.freqs![n] = Math.min(255, tf);
      n++;
    };
    for (let i = from; i <= to; i++) {
      const c = i < to ? text.charCodeAt(i) : 59; /* end = ; */
      if (c >= 48 && c <= 57) num = num * 10 + (c - 48);
      else if (c === 58 /* : */) {
        field = num;
        id = 0;
        inField = false;
        num = 0;
      } else if (c === 42 /* * */) {
        id += num;
        inTf = true;
        num = 0;
      } else if (c === 44 /* , */ || c === 59 /* ; */) {
        if (!inField) flush();
        tf = 1;
        inTf = false;
        num = 0;
        if (c === 59) inField = true;
      } else throw new Error(`search index: unexpected character in postings at ${i}`);
    }
    return n;
  }

  get documentCount(): number {
    return this.ids.length;
  }

  /** First term index whose term is ≥ `s`. */
  lowerBound(s: string, lo = 0, hi = this.terms.length): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  find(term: string): number {
    const i = this.lowerBound(term);
    return i < this.terms.length && this.terms[i] === term ? i : -1;
  }

  /** Terms that start with `prefix`: the range [from, to). */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    let lo = from;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return [from, lo];
  }

  /**
   * Terms within `maxDistance` edits (Levenshtein) of `query`, as [term, distance] pairs in term
   * order. Walks the trie of the terms (built on first use) with one DP row per depth, dropping a
   * branch once every edit count in its row exceeds the limit. The rows live in one typed array,
   * so a walk allocates nothing per node.
   */
  fuzzy(query: string, maxDistance: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    if (this.terms.length === 0) return out;
    const trie = (this.trie ??= buildTrie(this.terms));
    const width = query.length + 1;
    // A branch deeper than query.length + maxDistance has every entry above the limit: pruned.
    const rows = new Uint16Array(width * (query.length + maxDistance + 2));
    for (let j = 0; j < width; j++) rows[j] = j;
    walkTrie(trie, query, maxDistance, rows, 0, 0, out);
    return out;
  }

  /**
   * Calls `found` for each term a query term matches: itself, the terms it is a prefix of (when
   * `prefix`), and those within `fuzzy` edits; each term once, a prefix match wins over a fuzzy
   * one (as in MiniSearch). `distance`: the edit distance (fuzzy) or the extra length (prefix).
   * A callback, not a list of objects: a short prefix matches hundreds of terms.
   */
  expand(
    term: string,
    prefix: boolean,
    fuzzy: number,
    found: (t: number, kind: ExpansionKind, distance: number) => void,
  ): void {
    const exact = this.find(term);
    if (exact >= 0) found(exact, 'exact', 0);
    let from = 0;
    let to = 0;
    if (prefix) {
      [from, to] = this.prefixRange(term);
      for (let t = from; t < to; t++) if (t !== exact) found(t, 'prefix', this.terms[t]!.length - term.length);
    }
    if (fuzzy > 0) {
      for (const [t, distance] of this.fuzzy(term, fuzzy)) {
        if (t !== exact && (t < from || t >= to)) found(t, 'fuzzy', distance);
      }
    }
  }

  /** The fields (by name) in which document `doc` has term `t`. */
  fieldsOf(t: number, doc: number): string[] {
    const out: string[] = [];
    const start = this.offsets[t]!;
    const end = this.offsets[t + 1]!;
    // Postings are sorted by (field, document): one binary search per field.
    for (let f = 0; f < this.fieldNames.length; f++) {
      let lo = start;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const mf = this.fields ? this.fields[mid]! : 0;
        if (mf < f || (mf === f && this.docs[mid]! < doc)) lo = mid + 1;
        else hi = mid;
      }
      if (lo < end && (this.fields ? this.fields[lo] : 0) === f && this.docs[lo] === doc) out.push(this.fieldNames[f]!);
    }
    return out;
  }

  /**
   * Renumber documents (`map[old] = new`, or -1 to drop a posting's document from every search)
   * and restore the (field, document) order of each term's postings.
   */
  renumber(map: Int32Array, count: number): void {
    const { offsets } = this;
    const nf = this.fieldNames.length;
    const lengths = new Float32Array(count * nf);
    map.forEach((d, old) => {
      if (d >= 0) lengths.set(this.fieldLength.subarray(old * nf, old * nf + nf), d * nf);
    });
    this.fieldLength = lengths;
    const fields = this.fields ?? new Uint8Array(this.docs.length);
    const freqs = this.freqs ?? new Uint8Array(this.docs.length).fill(1);
    // -1 becomes 0xffffffff: beyond every document number, so skipped when scoring.
    const docs = (this.docs = Uint32Array.from(this.docs, (old) => map[old] ?? -1));
    for (let t = 0; t + 1 < offsets.length; t++) {
      const from = offsets[t]!;
      const to = offsets[t + 1]!;
      const order = Array.from({ length: to - from }, (_, k) => from + k).sort(
        (a, b) => fields[a]! - fields[b]! || docs[a]! - docs[b]!,
      );
      const d = order.map((k) => docs[k]!);
      const f = order.map((k) => fields[k]!);
      const q = order.map((k) => freqs[k]!);
      docs.set(d, from);
      if (this.fields) fields.set(f, from);
      if (this.freqs) freqs.set(q, from);
    }
  }
}

/**
 * A trie of sorted terms in flat arrays, nodes numbered breadth-first, so the children of a
 * node are consecutive: node v's children are first[v] .. first[v + 1] - 1, and a typo search
 * reads a node's child characters from one cache line. Node 0 is the empty prefix.
 * About 10 bytes per node, where a tree of Maps would take a hundred.
 */
interface Trie {
  /** The character leading into each node. */
  chars: Uint16Array;
  /** Each node's first child (one entry more than there are nodes). */
  first: Uint32Array;
  /** The term that ends at each node, or -1. */
  term: Int32Array;
}

function buildTrie(terms: readonly string[]): Trie {
  // A node per distinct prefix: at most the characters of all terms, plus the root.
  let size = 1;
  for (let t = 0; t < terms.length; t++)
    size += terms[t]!.length - (t > 0 ? commonPrefix(terms[t - 1]!, terms[t]!) : 0);
  const chars = new Uint16Array(size);
  const first = new Uint32Array(size + 1);
  const term = new Int32Array(size).fill(-1);
  // While building: the terms under each node are a range [lo, hi) of the sorted list.
  const lo = new Uint32Array(size);
  const hi = new Uint32Array(size);
  const depth = new Uint16Array(size);
  hi[0] = terms.length;
  let n = 1;
  for (let v = 0; v < n; v++) {
    first[v] = n;
    const d = depth[v]!;
    let i = lo[v]!;
    if (i < hi[v]! && terms[i]!.length === d) term[v] = i++;
    while (i < hi[v]!) {
      // The run of terms with the same character at depth d is one child.
      const c = terms[i]!.charCodeAt(d);
      let j = i + 1;
      while (j < hi[v]! && terms[j]!.charCodeAt(d) === c) j++;
      chars[n] = c;
      lo[n] = i;
      hi[n] = j;
      depth[n] = d + 1;
      n++;
      i = j;
    }
  }
  first[n] = n;
  return { chars, first, term };
}

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Visits node v at `depth` and its children within reach. Row `depth` of `rows` is v's DP row,
 * valid inside the band |j - depth| <= maxDistance: outside it every distance exceeds the limit
 * (it is at least |j - depth|), so only the band is computed, and the cells just beside it hold
 * maxDistance + 1. Capping every value there keeps each value up to the limit exact.
 */
function walkTrie(
  trie: Trie,
  query: string,
  maxDistance: number,
  rows: Uint16Array,
  v: number,
  depth: number,
  out: Array<[number, number]>,
): void {
  const { chars, first, term } = trie;
  const m = query.length;
  const width = m + 1;
  const row = depth * width;
  if (term[v]! >= 0 && Math.abs(m - depth) <= maxDistance && rows[row + m]! <= maxDistance)
    out.push([term[v]!, rows[row + m]!]);
  const next = row + width;
  const over = maxDistance + 1;
  // The band of the children's row.
  const from = Math.max(0, depth + 1 - maxDistance);
  const to = Math.min(m, depth + 1 + maxDistance);
  if (from > to) return;
  if (from > 0) rows[next + from - 1] = over;
  if (to < m) rows[next + to + 1] = over;
  for (let child = first[v]!; child < first[v + 1]!; child++) {
    const c = chars[child]!;
    let best = over;
    for (let j = from; j <= to; j++) {
      const value =
        j === 0
          ? depth + 1
          : Math.min(
              rows[row + j]! + 1,
              rows[next + j - 1]! + 1,
              rows[row + j - 1]! + (query.charCodeAt(j - 1) === c ? 0 : 1),
              over,
            );
      rows[next + j] = value;
      if (value < best) best = value;
    }
    if (best <= maxDistance) walkTrie(trie, query, maxDistance, rows, child, depth + 1, out);
  }
}
