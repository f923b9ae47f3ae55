/** Terminal tables for the commands that print them (`usage`, `search`). */

/** Rows of cells as lines, each column padded to its widest cell (the columns in `rightAligned` to the right: numbers). */
export function alignColumns(rows: readonly string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows.map((row) =>
    row
      .map((cell, col) => (rightAligned.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!)))
      .join('  ')
      .trimEnd(),
  );
}
