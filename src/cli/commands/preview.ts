/** `skillpress preview`: serve a built folder as a static host would, until interrupted. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readBuildRecord } from '../../site/build-record.ts';
import { normalizeBase } from '../../site/urls.ts';
import { serveStatic } from '../../serve/static-server.ts';
import { EXIT, parse, UsageError, type Command } from '../args.ts';

/** `--port`: 0–65535 (0: any free port). */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port ${value}: not a port number (0–65535)`);
  return port;
}

/** Resolves on Ctrl-C or SIGTERM. */
export function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

/** A port another program holds is a usage error with what to do, not a stack trace. */
export function portInUse(err: unknown, port: number): never {
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
    throw new UsageError(`port ${port} is in use: pass --port with another one (or 0 for any free port)`);
  throw err;
}

export const preview: Command = {
  usage: 'skillpress preview [--out dir=dist] [--port n=4321] [--base /path/]',
  async run(argv) {
    const { values } = parse(argv, { out: { type: 'string' }, port: { type: 'string' }, base: { type: 'string' } }, 0);
    const out = path.resolve(values.out ?? 'dist');
    const port = parsePort(values.port, 4321);
    if (
      !(await stat(out).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      throw new UsageError(`--out ${out}: no such folder; run skillpress build first`);
    // The base the site was built for (build --base, site.base), as the build recorded it.
    const record = await readBuildRecord(out);
    const base = values.base ?? record?.base ?? '/';
    const server = await serveStatic({ root: out, base, port }).catch((err: unknown) => portInUse(err, port));
    process.stdout.write(`preview: serving ${out} at ${server.url} (Ctrl-C to stop)\n`);
    if (record && values.base !== undefined && normalizeBase(values.base) !== record.base)
      process.stderr.write(
        `preview: warning: the site was built for ${record.base}; served at ${server.url} its styles and links will not load\n`,
      );
    if (!record && values.base === undefined)
      process.stderr.write(
        `preview: ${out} does not say which base it was built for; serving at /. Pass --base if it was built with one\n`,
      );
    await untilInterrupted();
    await server.close();
    return EXIT.ok;
  },
};
