/**
 * The YAML library's parse errors in an author's terms: what is wrong on which line of the front
 * matter, and what to type to fix it. The library reports an unclosed quote where the input ends
 * (the quote may legally run on over several lines), so that error is moved to the line that
 * opened the quote. Errors without a plainer wording keep the library's own text.
 */

/** What the YAML library says: its error code, its message's first line, and the 1-based line it points at. */
export interface YamlLibraryError {
  code: string;
  message: string;
  line?: number;
}

export interface PlainYamlError {
  /** 1-based line of the YAML source. */
  line?: number;
  message: string;
}

/** `key: "value…` or `key: 'value…`: a top-level field whose value opens a quote. */
const OPENS_QUOTE = /^([A-Za-z0-9_-]+):\s*(["'])(.*)$/;

/** The error of `source` (the front matter without its fences) in plain words. */
export function plainYamlError(error: YamlLibraryError, source: string): PlainYamlError {
  const lines = source.split('\n');
  switch (error.code) {
    case 'MISSING_CHAR':
      return unclosedQuote(error, lines) ?? libraryWords(error);
    case 'TAB_AS_INDENT':
      return { line: error.line, message: 'the line is indented with a tab: YAML indents with spaces only' };
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return nestedKey(error, lines);
    default:
      return libraryWords(error);
  }
}

/** The line whose value opened the quote that is never closed, searched back from where the library stopped. */
function unclosedQuote(error: YamlLibraryError, lines: readonly string[]): PlainYamlError | undefined {
  const quote = /closing (["'])/.exec(error.message)?.[1];
  if (!quote) return undefined;
  for (let i = Math.min(lines.length, error.line ?? lines.length) - 1; i >= 0; i--) {
    const m = OPENS_QUOTE.exec(lines[i]!);
    if (!m || m[2] !== quote || closes(m[3]!, quote)) continue;
    return {
      line: i + 1,
      message: `the value of "${m[1]}" starts with ${quote} but the quote is never closed: end the value with ${quote}, or remove the opening ${quote}`,
    };
  }
  return undefined;
}

/** A "key: value" where YAML allows none: on an indented line under a value, or inside a value. */
function nestedKey(error: YamlLibraryError, lines: readonly string[]): PlainYamlError {
  const next = error.line === undefined ? undefined : lines[error.line];
  if (next !== undefined && /^\s+\S[^:]*:(\s|$)/.test(next))
    return {
      line: error.line! + 1,
      message:
        'this line is indented under the value above it, and YAML cannot nest a "key: value" there: start each field at the beginning of its line',
    };
  return {
    line: error.line,
    message: 'the value holds ": ", which YAML reads as a nested field: wrap the value in quotes',
  };
}

/** Whether the rest of a quoted value closes its quote on the same line (a doubled ' or an escaped " does not). */
function closes(rest: string, quote: string): boolean {
  const unescaped = quote === '"' ? rest.replace(/\\./g, '') : rest.replaceAll("''", '');
  return unescaped.includes(quote);
}

function libraryWords(error: YamlLibraryError): PlainYamlError {
  return { line: error.line, message: error.message };
}
