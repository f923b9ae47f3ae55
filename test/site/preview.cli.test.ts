/** `skillpress preview` and `skillpress dev` refuse bad arguments with exit 2 and say why. */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

async function skillpress(...args: string[]): Promise<{ code: number; stderr: string }> {
  return run(path.join(REPO, 'node_modules/.bin/node'), [path.join(REPO, 'scripts/skillpress.mjs'), ...args], {
    cwd: REPO,
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
}

describe('preview and dev arguments', () => {
  it('exits 2 for a folder that is not there, naming it', async () => {
    const r = await skillpress('preview', '--out', 'no/such/dist');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no/such/dist: no such folder; run skillpress build first');
  });

  it('exits 2 for a port that is not a number', async () => {
    for (const command of ['preview', 'dev']) {
      const r = await skillpress(command, '--port', 'eighty');
      expect([command, r.code]).toEqual([command, 2]);
      expect(r.stderr).toContain('--port eighty: not a port number (0–65535)');
    }
  });

  it('exits 2 when the port is taken, saying what to do', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const r = await skillpress('preview', '--out', 'docs', '--port', String(port));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} is in use: pass --port with another one (or 0 for any free port)`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
