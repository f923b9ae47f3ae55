/**
 * One writer per skill at a time: a promise chain per skill in this process, and a lock file
 * (created exclusively, holding a processMark) for other processes. A lock left by a process
 * that is gone is taken over; one held by a live process is waited for, up to a deadline.
 */
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isMarkOfGoneProcess, processMark } from '../lib/fs.ts';
import { InvalidInputError } from '../lib/errors.ts';

const chains = new Map<string, Promise<unknown>>();
const WAIT_MS = 30_000;
const RETRY_MS = 25;

/** Runs `work` holding the lock named `lockFile` (in this process and across processes). */
export async function withLock<T>(lockFile: string, what: string, work: () => Promise<T>): Promise<T> {
  const previous = chains.get(lockFile) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => holdingFile(lockFile, what, work));
  const tail = run.catch(() => undefined);
  chains.set(lockFile, tail);
  void tail.then(() => {
    if (chains.get(lockFile) === tail) chains.delete(lockFile);
  });
  return run;
}

async function holdingFile<T>(lockFile: string, what: string, work: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(JSON.stringify(processMark()));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const mark = await readFile(lockFile, 'utf8').then(
        (t) => JSON.parse(t) as unknown,
        () => undefined,
      );
      if (isMarkOfGoneProcess(mark)) await rm(lockFile, { force: true });
      else if (Date.now() > deadline)
        throw new InvalidInputError(`${what} is being written by another process (lock ${lockFile}); retry shortly`, {
          rule: 'locked',
        });
      else await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockFile, { force: true });
  }
}
