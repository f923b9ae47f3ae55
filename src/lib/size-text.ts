/**
 * Sizes as people read them, for the site and for messages. Browser-safe.
 */

const UNITS = ['KB', 'MB', 'GB'] as const;

/** `n` bytes in the largest unit (1 KB = 1,024 bytes) it reaches, up to GB; no unit below 1 KB. */
function scaled(n: number): { value: number; unit: (typeof UNITS)[number] | undefined } {
  if (n < 1024) return { value: n, unit: undefined };
  let value = n / 1024;
  let i = 0;
  while (value >= 1024 && i < UNITS.length - 1) {
    value /= 1024;
    i++;
  }
  return { value, unit: UNITS[i] };
}

/** `1.2 KB`, `3.4 MB`, `512 B`: sizes people read, rounded (file lists, totals). */
export function formatBytes(n: number): string {
  const { value, unit } = scaled(n);
  if (!unit) return `${n} B`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
}

/**
 * A size in a message, exact where it may be compared with a limit written in bytes, in binary
 * units as the docs write the limits: `512 bytes`, `1 MiB` (exactly 1,048,576 bytes),
 * `77.3 MiB (81052632 bytes)`.
 */
export function sizeText(n: number): string {
  const { value, unit } = scaled(n);
  if (!unit) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  const binary = `${unit[0]}iB`;
  if (Number.isInteger(value)) return `${value} ${binary}`;
  return `${value.toFixed(1)} ${binary} (${n} bytes)`;
}

/**
 * `the 1 MiB limit (skills.max_file_bytes)`, `the 1000-byte limit`, `the 64 MiB total`: a byte
 * limit named in a message.
 */
export function limitText(bytes: number, name?: string, kind: 'limit' | 'total' = 'limit'): string {
  const size = bytes < 1024 ? `${bytes}-byte` : sizeText(bytes);
  return `the ${size} ${kind}${name ? ` (${name})` : ''}`;
}
