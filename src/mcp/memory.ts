/**
 * Keeping the server's memory near what it holds. Parsing a feed's JSON (tens of MB at 10,000
 * skills) grows V8's heap, the young generation most of all, and V8 keeps those pages long after
 * the garbage is gone. Once a feed has loaded, one memory-reducing collection (what V8 does
 * under memory pressure) compacts the heap and gives them back; from then on the young
 * generation stays at its smallest size, because a server answering small requests fills it
 * with short-lived garbage only (a bigger one would just hold more of it: ~15 MB after a few
 * hundred searches). Together about a third of the RSS of a 10,000-skill server.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let gc: Gc | null | undefined;

/** V8's `gc` function without starting Node with --expose-gc: the flag applies to contexts created after it is set. */
function gcFunction(): Gc | null {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as Gc;
    } catch {
      gc = null;
    }
  }
  return gc;
}

/**
 * After a feed has loaded: stop the young generation growing (V8 reads this flag whenever it
 * would grow it) and collect everything, reducing memory. Blocks for a few tens of ms.
 */
export function releaseMemory(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  gcFunction()?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
