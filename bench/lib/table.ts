/** A markdown table with right-aligned columns, as every bench prints. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => '| ' + cells.map((c, i) => c.padStart(widths[i]!)).join(' | ') + ' |';
  return [line(header), '|' + widths.map((w) => '-'.repeat(w + 1) + ':').join('|') + '|', ...rows.map(line)].join('\n');
}
