/**
 * Stops a child process a test started and waits until it has exited: SIGTERM, then SIGKILL after
 * `graceMs`. A test that only sends the signal can remove the child's folder while it is still
 * stopping, and leave it running.
 */
import type { ChildProcess } from 'node:child_process';

export async function stopChild(child: ChildProcess | undefined, graceMs = 20_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(late);
}
