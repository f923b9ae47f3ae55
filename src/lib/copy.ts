/**
 * A deep copy of plain data (objects, arrays, Dates) that shares its strings. Strings are
 * immutable, so sharing them is safe, and it is what makes the copy cheap: `structuredClone`
 * copies every string too, and a skill's stored files are strings (text, or base64), so copying
 * a loaded catalog that way allocated its whole content again on every rebuild (1,650 skills:
 * hundreds of MB, most of a rebuild's time spent collecting them).
 */
export function copyData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyData) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  // Anything else but a plain object (a Map, a typed array) is not what this is for: copied whole.
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = copyData(item);
  return out as T;
}
