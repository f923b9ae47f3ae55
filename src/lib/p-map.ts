/** Bounded concurrency: map with at most N promises in flight, and a limiter shared by many callers. */

/** Map over items with at most `concurrency` promises in flight, keeping input order. */
export async function pMap<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, concurrency: number): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

export type Limiter = <R>(fn: () => Promise<R>) => Promise<R>;

/**
 * A limiter: `limit(fn)` runs `fn` once fewer than `concurrency` of the calls made through it
 * are running (for example open files across every skill being written). A finished call hands
 * its slot straight to the longest waiting one.
 */
export function pLimit(concurrency: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (active < concurrency) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const handOver = waiting.shift();
      if (handOver) handOver();
      else active--;
    }
  };
}
