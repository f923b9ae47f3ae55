/**
 * A server `check-tools` cannot reach is reported with the reason, not only "fetch failed": the
 * refused connection (nothing listening) or the unknown host is what the user has to fix.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listServerTools } from '../../src/tools-check/index.ts';

/** A port on 127.0.0.1 that nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('listServerTools of an HTTP server nothing answers for', () => {
  it('says the connection was refused, and where', async () => {
    const port = await closedPort();
    const result = await listServerTools({ url: `http://127.0.0.1:${port}/mcp` }, { timeoutMs: 5000, maxTools: 10 });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.error).toBe(`fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`);
  });
});
