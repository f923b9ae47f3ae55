/**
 * A lookup-table entry, never an inherited property: file extensions, fence languages and index
 * terms come from skills, and "constructor" or "__proto__" must find nothing rather than
 * Object.prototype's members. Browser-safe.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
