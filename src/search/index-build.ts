/**
 * Builds a serialized search index directly: exactly what MiniSearch 7's `add` for every document,
 * then `toJSON`, terms sorted and ./codec.ts's `encodeIndex` give (test/search/index-build.test.ts
 * compares both byte for byte), without MiniSearch's radix tree and its nested JSON in between.
 * Every rebuild (`skillpress dev`, `skillpress mcp --skills` after each write) indexes the whole
 * catalog, so the work per text is kept too (TextMemo): a long-running process tokenizes only
 * the texts that changed. Browser-safe: no node: imports.
 */
import type { CompactIndex } from './codec.ts';
import type { SearchEntry } from './index.ts';
import { normalizeBodyTerm, normalizePathTerm, normalizeTerm, tokenizePath, tokenizeText } from './text.ts';
import { indexedDescription, indexedTags } from '../model/bounds.ts';

/** How documents become terms: MiniSearch's options of the same names. */
export interface IndexSpec {
  idField: string;
  fields: readonly string[];
  storeFields: readonly string[];
  stringifyField: (value: unknown, field: string) => string;
  tokenize: (text: string, field: string) => string[];
  processTerm: (term: string, field: string) => string | undefined;
}

/** One field of one document: its length as MiniSearch counts it, and its indexed terms with their counts. */
interface FieldTerms {
  /** Distinct tokens, indexed or not (MiniSearch's field length). */
  length: number;
  terms: string[];
  counts: number[];
}

/**
 * Field texts already analysed, per field: those of the last build are kept for the next
 * (`nextBuild` drops the rest), so memory stays at one catalog's texts.
 */
export class TextMemo<T = FieldTerms> {
  private current = new Map<string, Map<string, T>>();
  private previous = new Map<string, Map<string, T>>();

  get(field: string, text: string, analyse: () => T): T {
    let now = this.current.get(field);
    if (!now) this.current.set(field, (now = new Map()));
    let found = now.get(text) ?? this.previous.get(field)?.get(text);
    if (!found) found = analyse();
    now.set(text, found);
    return found;
  }

  /** Ends a build: only the texts it used are kept. */
  nextBuild(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

/** A term's postings in one field: document numbers (ascending) and term counts. */
interface FieldPostings {
  docs: number[];
  counts: number[];
}

/**
 * Collects documents like `MiniSearch#add` and writes the compact index (`toCompact`). Field
 * lengths and their running averages are computed as MiniSearch computes them, operation for
 * operation, so the floating-point averages are the same numbers.
 */
export class CompactIndexBuilder {
  private readonly fieldIds: Record<string, number> = {};
  private readonly documentIds: Record<number, string> = {};
  private readonly fieldLength: Record<number, number[]> = {};
  private readonly averageFieldLength: number[] = [];
  private readonly storedFields: Record<number, Record<string, unknown>> = {};
  /** Each document's analysed fields by field id: the same objects for texts the memo kept. */
  private readonly analysed: Array<Array<FieldTerms | undefined>> = [];
  private readonly seen = new Set<unknown>();
  private readonly processed = new Map<string, Map<string, string | undefined>>();
  private count = 0;

  private readonly spec: IndexSpec;
  private readonly memo: TextMemo;

  constructor(spec: IndexSpec, memo: TextMemo) {
    this.spec = spec;
    this.memo = memo;
    spec.fields.forEach((field, i) => (this.fieldIds[field] = i));
  }

  add(document: Record<string, unknown>): void {
    const id = document[this.spec.idField];
    if (id == null) throw new Error(`search index: document does not have ID field "${this.spec.idField}"`);
    if (this.seen.has(id)) throw new Error(`search index: duplicate ID ${String(id)}`);
    this.seen.add(id);
    const doc = this.count++;
    this.documentIds[doc] = id as string;
    if (this.spec.storeFields.length > 0) {
      const stored: Record<string, unknown> = (this.storedFields[doc] = {});
      for (const name of this.spec.storeFields) if (document[name] !== undefined) stored[name] = document[name];
    }
    const fields: Array<FieldTerms | undefined> = (this.analysed[doc] = []);
    for (const field of this.spec.fields) {
      const value = document[field];
      if (value == null) continue;
      const text = this.spec.stringifyField(value, field);
      const analysed = this.memo.get(field, text, () => this.analyse(text, field));
      this.addFieldLength(doc, this.fieldIds[field]!, analysed.length);
      fields[this.fieldIds[field]!] = analysed;
    }
  }

  /**
   * The serialized index: `encodeIndex` of MiniSearch's `toJSON()` with its terms sorted. With
   * `last` (this kind of index's previous build in this process, over the same documents in the
   * same order), only the postings of the documents whose texts changed are redone.
   */
  toCompact(last?: BuiltPostings): { index: CompactIndex; built: BuiltPostings } {
    const ids = Array.from({ length: this.count }, (_, d) => this.documentIds[d]!);
    const built = updatedPostings(last, ids, this.analysed) ?? allPostings(ids, this.analysed);
    const postings: string[] = [];
    const kept: string[] = [];
    for (const term of built.terms) {
      if (term.includes('\n')) continue; // as encodeIndex (tokenizers split on whitespace)
      kept.push(term);
      let encoded = built.encoded.get(term);
      if (encoded === undefined) built.encoded.set(term, (encoded = encodePostings(built.postings.get(term)!)));
      postings.push(encoded);
    }
    const index: CompactIndex = {
      documentCount: this.count,
      nextId: this.count,
      documentIds: this.documentIds,
      fieldIds: this.fieldIds,
      fieldLength: this.fieldLength,
      averageFieldLength: this.averageFieldLength,
      storedFields: this.storedFields,
      dirtCount: 0,
      serializationVersion: 2,
      terms: kept.join('\n'),
      postings: postings.join('\n'),
    };
    return { index, built };
  }

  private analyse(text: string, field: string): FieldTerms {
    const tokens = this.spec.tokenize(text, field);
    let processed = this.processed.get(field);
    if (!processed) this.processed.set(field, (processed = new Map()));
    const at = new Map<string, number>();
    const out: FieldTerms = { length: new Set(tokens).size, terms: [], counts: [] };
    for (const token of tokens) {
      let term = processed.get(token);
      if (term === undefined && !processed.has(token))
        processed.set(token, (term = this.spec.processTerm(token, field)));
      if (!term) continue;
      const i = at.get(term);
      if (i === undefined) {
        at.set(term, out.terms.length);
        out.terms.push(term);
        out.counts.push(1);
      } else out.counts[i]!++;
    }
    return out;
  }

  /** MiniSearch's addFieldLength: `count` is the document's number, whether or not earlier documents had the field. */
  private addFieldLength(doc: number, fieldId: number, length: number): void {
    const lengths = (this.fieldLength[doc] ??= []);
    lengths[fieldId] = length;
    const average = this.averageFieldLength[fieldId] || 0;
    const total = average * doc + length;
    this.averageFieldLength[fieldId] = total / (doc + 1);
  }
}

/** An index's postings as one build left them, for the next build in this process. */
export interface BuiltPostings {
  ids: readonly string[];
  analysed: ReadonlyArray<ReadonlyArray<FieldTerms | undefined>>;
  postings: Map<string, Array<FieldPostings | undefined>>;
  /** Every term, sorted. */
  terms: string[];
  /** Each term's encoded postings, made when first needed. */
  encoded: Map<string, string>;
}

/** Past this share of documents changed, the postings are made from nothing. */
const REDO_SHARE = 0.25;

/** Every document's terms into postings, documents in order (MiniSearch's `add`, one after another). */
function allPostings(ids: readonly string[], analysed: BuiltPostings['analysed']): BuiltPostings {
  const postings = new Map<string, Array<FieldPostings | undefined>>();
  analysed.forEach((fields, doc) =>
    fields.forEach((field, fieldId) => {
      if (!field) return;
      for (let i = 0; i < field.terms.length; i++) {
        let lists = postings.get(field.terms[i]!);
        if (!lists) postings.set(field.terms[i]!, (lists = []));
        const list = (lists[fieldId] ??= { docs: [], counts: [] });
        list.docs.push(doc);
        list.counts.push(field.counts[i]!);
      }
    }),
  );
  return { ids, analysed, postings, terms: [...postings.keys()].sort(), encoded: new Map() };
}

/**
 * `last`'s postings with the documents whose analysed texts changed taken out and put back (each
 * list stays in document order, as `add` makes it); undefined when the documents are not the same
 * ones in the same order, or too many changed. Takes `last` over: it is the previous build's.
 */
function updatedPostings(
  last: BuiltPostings | undefined,
  ids: readonly string[],
  analysed: BuiltPostings['analysed'],
): BuiltPostings | undefined {
  if (!last || last.ids.length !== ids.length || last.ids.some((id, d) => id !== ids[d])) return undefined;
  const changed = analysed.flatMap((fields, doc) => {
    const before = last.analysed[doc]!;
    // A for loop: the arrays have holes (fields a document lacks), which every() would skip.
    for (let i = 0; i < Math.max(fields.length, before.length); i++) if (fields[i] !== before[i]) return [doc];
    return [];
  });
  if (changed.length > ids.length * REDO_SHARE) return undefined;
  const { postings, encoded } = last;
  let termsChanged = false;
  const place = (doc: number, fields: ReadonlyArray<FieldTerms | undefined>, put: boolean): void =>
    fields.forEach((field, fieldId) => {
      field?.terms.forEach((term, i) => {
        encoded.delete(term);
        termsChanged = movePosting(postings, term, fieldId, doc, put ? field.counts[i]! : undefined) || termsChanged;
      });
    });
  for (const doc of changed) {
    place(doc, last.analysed[doc]!, false);
    place(doc, analysed[doc]!, true);
  }
  const terms = termsChanged ? [...postings.keys()].sort() : last.terms;
  return { ids, analysed, postings, terms, encoded };
}

/**
 * Takes `doc` out of `term`'s list in `fieldId` (count undefined) or puts it in, in document
 * order; returns whether the term came into being or went away.
 */
function movePosting(
  postings: BuiltPostings['postings'],
  term: string,
  fieldId: number,
  doc: number,
  count: number | undefined,
): boolean {
  let lists = postings.get(term);
  const isNew = !lists;
  if (!lists) postings.set(term, (lists = []));
  const list = (lists[fieldId] ??= { docs: [], counts: [] });
  let at = 0;
  while (at < list.docs.length && list.docs[at]! < doc) at++;
  if (count !== undefined) {
    list.docs.splice(at, 0, doc);
    list.counts.splice(at, 0, count);
    return isNew;
  }
  if (list.docs[at] === doc) {
    list.docs.splice(at, 1);
    list.counts.splice(at, 1);
  }
  if (list.docs.length === 0) lists[fieldId] = undefined;
  while (lists.length > 0 && lists[lists.length - 1] === undefined) lists.length--;
  if (lists.length > 0) return isNew;
  postings.delete(term);
  return true;
}

/** One term's postings as ./codec.ts writes them: `field:delta,delta*count;field:…`, fields ascending. */
function encodePostings(fields: ReadonlyArray<FieldPostings | undefined>): string {
  const perField: string[] = [];
  for (let fieldId = 0; fieldId < fields.length; fieldId++) {
    const list = fields[fieldId];
    if (!list) continue;
    let previous = 0;
    let out = `${fieldId}:`;
    for (let k = 0; k < list.docs.length; k++) {
      const doc = list.docs[k]!;
      const count = list.counts[k]!;
      if (k > 0) out += ',';
      out += count === 1 ? String(doc - previous) : `${doc - previous}*${count}`;
      previous = doc;
    }
    perField.push(out);
  }
  return perField.join(';');
}

const LIST_FIELDS = new Set(['tags', 'headings', 'paths']);
const STORED_FIELDS = ['name', 'title', 'description', 'tags', 'domain', 'registry', 'origin', 'version'] as const;

/** Marks a token that counts toward its field's length but is not indexed. */
const NOT_INDEXED = '\u0000';

/**
 * A description's tokens: those of its first 1,024 characters are indexed (../model/bounds.ts);
 * the words only the rest holds still count toward its length, so BM25 weighs each indexed word
 * of a long description for less, and the catalog's average length is what the whole
 * descriptions make.
 */
function descriptionTokens(text: string): string[] {
  const head = indexedDescription(text);
  if (head.length === text.length) return tokenizeText(text);
  const indexed = tokenizeText(head);
  const kept = new Set(indexed);
  const rest = tokenizeText(text).filter((t) => !kept.has(t));
  return [...indexed, ...rest.map((t) => NOT_INDEXED + t)];
}

/** `search.json`: the metadata `fields` (in FIELD_BOOSTS order), and what a result card shows stored. */
export function metadataSpec(fields: readonly string[]): IndexSpec {
  return {
    idField: 'id',
    fields,
    storeFields: STORED_FIELDS,
    // Lists are indexed one item per line (paths are tokenized per line) and stored as arrays.
    stringifyField: (value, field) =>
      LIST_FIELDS.has(field) && Array.isArray(value) ? value.join('\n') : String(value),
    tokenize: (text, field) =>
      field === 'paths'
        ? text.split('\n').flatMap(tokenizePath)
        : field === 'description'
          ? descriptionTokens(text)
          : tokenizeText(text),
    processTerm: (term, field) =>
      term.startsWith(NOT_INDEXED) ? undefined : field === 'paths' ? normalizePathTerm(term) : normalizeTerm(term),
  };
}

/** `search-body.json`: a body's distinct terms (`bodyTerms`), space-separated. */
export const BODY_SPEC: IndexSpec = {
  idField: 'id',
  fields: ['body'],
  storeFields: [],
  stringifyField: (value) => String(value),
  tokenize: (text) => text.split(' '),
  processTerm: normalizeBodyTerm,
};

/** The document `search.json` indexes for an entry. */
export function metadataDocument(e: SearchEntry): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    id: e.id,
    name: e.name,
    // Bounded: a skill that says everything must not match everything (../model/bounds.ts; descriptionTokens).
    description: e.description,
    tags: indexedTags(e.tags),
    headings: e.headings,
    paths: e.paths,
    registry: e.registry,
  };
  if (e.domain !== undefined) doc.domain = e.domain;
  if (e.version !== undefined) doc.version = e.version;
  if (e.title !== undefined) doc.title = e.title;
  if (e.origin !== undefined) doc.origin = e.origin;
  return doc;
}

const metadataMemo = new TextMemo();
const bodyMemo = new TextMemo();
/** Each index's postings as the last build in this process left them. */
const lastBuilt: { search?: BuiltPostings; body?: BuiltPostings } = {};
/** A body's terms: `terms` reads a cache file (or tokenizes) per body, so it runs once per changed body. */
const bodyTermsMemo = new TextMemo<string>();

/**
 * Both compact indexes of `entries`; `terms` gives a body's terms (`bodyTerms`, or the same kept
 * in a cache): a body seen by the previous build in this process keeps its terms.
 */
export function buildCompactIndexes(
  entries: readonly SearchEntry[],
  terms: (markdown: string) => string,
  metadataFields: readonly string[],
): { search: CompactIndex; body: CompactIndex } {
  const meta = new CompactIndexBuilder(metadataSpec(metadataFields), metadataMemo);
  const body = new CompactIndexBuilder(BODY_SPEC, bodyMemo);
  for (const e of entries) {
    meta.add(metadataDocument(e));
    body.add({ id: e.id, body: bodyTermsMemo.get('body', e.body, () => terms(e.body)) });
  }
  for (const memo of [metadataMemo, bodyMemo, bodyTermsMemo]) memo.nextBuild();
  const search = meta.toCompact(lastBuilt.search);
  const bodies = body.toCompact(lastBuilt.body);
  [lastBuilt.search, lastBuilt.body] = [search.built, bodies.built];
  return { search: search.index, body: bodies.index };
}
