#!/usr/bin/env node
/**
 * A real Elasticsearch for development and tests, started by the project itself.
 *
 *   node scripts/es.mjs start [--port 9200] [--dir .cache/elasticsearch/node-9200]
 *   node scripts/es.mjs stop  [--port 9200] [--dir …]
 *   node scripts/es.mjs status [--port 9200]
 *
 * Downloads (once) the `integ-test-zip` distribution from Maven Central and verifies its sha512,
 * unpacks it under `.cache/elasticsearch/`, and runs it on 127.0.0.1 as a non-root user with
 * single-node discovery, security off and a 512 MB heap. Each instance (one per port, or per
 * `--dir`) keeps its own config, data, logs and pid file, so a restart reuses its data and two
 * instances can run side by side.
 *
 * Why 8.19.x: the integ-test-zip ships no JDK. Elasticsearch 9 needs Java 21+, while Debian 12
 * (and this project's CI) provides OpenJDK 17, which 8.19 supports. @elastic/elasticsearch 8.x
 * talks to both 8 and 9 servers, so moving to 9.x later only changes VERSION and the JDK.
 *
 * Plain JavaScript (no TypeScript) so `npm run es:start` works before anything is compiled;
 * the functions are exported for the test setup (types in es.d.mts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, realpathSync, statSync } from 'node:fs';
import { chmod, cp, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSION = process.env.ES_VERSION || '8.19.21';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, '.cache', 'elasticsearch');
const MAVEN = 'https://repo1.maven.org/maven2/org/elasticsearch/distribution/integ-test-zip/elasticsearch';
const ES_USER = 'skillpress-es';
const DEFAULT_PORT = 9200;

const log = (msg) => process.stderr.write(`es: ${msg}\n`);

export function defaultPort() {
  const fromEnv = Number(process.env.ES_PORT);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_PORT;
}

/**
 * Where the unpacked distribution and the instances live: `.cache/elasticsearch/`, unless we
 * are root and the node's user could not reach it (a checkout under /root, say); then a
 * folder under the system temp dir.
 */
export function workDir() {
  if (process.getuid?.() !== 0) return CACHE;
  for (let dir = path.dirname(CACHE); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = existsSync(dir) ? statSync(dir).mode : 0o755; // folders we create get 755
    if ((mode & 0o001) === 0) return path.join(tmpdir(), 'skillpress-elasticsearch');
  }
  return CACHE;
}

export function instanceDir(port) {
  return path.join(workDir(), `node-${port}`);
}

/**
 * True when an Elasticsearch answers at `url`. Asks `_cluster/health`, not `/`: the
 * integ-test-zip lacks the rest-root module, so `GET /` is a 405 there.
 */
export async function isUp(url) {
  try {
    const res = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.headers.get('x-elastic-product') === 'Elasticsearch';
  } catch {
    return false;
  }
}

async function sha512File(file) {
  const hash = createHash('sha512');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The distribution zip, downloaded once and checked against Maven Central's .sha512. */
async function download() {
  const zip = path.join(CACHE, `elasticsearch-${VERSION}.zip`);
  const url = `${MAVEN}/${VERSION}/elasticsearch-${VERSION}.zip`;
  await mkdir(CACHE, { recursive: true });
  const sumRes = await fetch(`${url}.sha512`);
  if (!sumRes.ok) throw new Error(`cannot fetch ${url}.sha512: HTTP ${sumRes.status}`);
  const expected = (await sumRes.text()).trim().split(/\s+/)[0];
  if (existsSync(zip) && (await sha512File(zip)) === expected) return zip;
  log(`downloading ${url}`);
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`cannot download ${url}: HTTP ${res.status}`);
  const part = `${zip}.part`;
  await pipeline(Readable.fromWeb(res.body), createWriteStream(part));
  const actual = await sha512File(part);
  if (actual !== expected) {
    await rm(part, { force: true });
    throw new Error(`sha512 mismatch for ${url}: expected ${expected}, got ${actual}`);
  }
  await rename(part, zip);
  return zip;
}

/** `<workDir>/elasticsearch-<version>/`, unpacked from the verified zip. */
async function distribution() {
  await mkdir(workDir(), { recursive: true, mode: 0o755 });
  const home = path.join(workDir(), `elasticsearch-${VERSION}`);
  if (existsSync(path.join(home, 'bin', 'elasticsearch'))) return home;
  const zip = await download();
  const tmp = `${home}.unpacking`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const unzip = spawnSync('unzip', ['-q', zip, '-d', tmp], { stdio: 'inherit' });
  if (unzip.status !== 0) throw new Error(`unzip failed (is unzip installed?) for ${zip}`);
  await rename(path.join(tmp, `elasticsearch-${VERSION}`), home);
  await rm(tmp, { recursive: true, force: true });
  return home;
}

/** ES_JAVA_HOME: the environment's, else the JDK behind `java` on PATH, else Debian's OpenJDK 17. */
export function javaHome() {
  if (process.env.ES_JAVA_HOME) return process.env.ES_JAVA_HOME;
  const which = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' });
  const onPath = which.status === 0 ? which.stdout.trim() : '';
  if (onPath) return path.dirname(path.dirname(realpathSync(onPath)));
  const debian = '/usr/lib/jvm/java-17-openjdk-amd64';
  if (existsSync(path.join(debian, 'bin', 'java'))) return debian;
  return undefined;
}

/** Elasticsearch refuses to run as root: as root, run it as a dedicated system user. */
function runAsUser() {
  if (process.getuid?.() !== 0) return undefined;
  if (spawnSync('id', ['-u', ES_USER]).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', ES_USER], {
      stdio: 'inherit',
    });
    if (made.status !== 0) throw new Error(`cannot create user ${ES_USER} (useradd failed)`);
  }
  return ES_USER;
}

function canRead(user, file) {
  return !user || spawnSync('runuser', ['-u', user, '--', 'test', '-x', file]).status === 0;
}

/** Settings for a throwaway test node. Every key here exists in the integ-test-zip (unknown keys are fatal). */
function settings(dir, port) {
  return [
    `cluster.name: skillpress-${port}`,
    `node.name: skillpress-${port}`,
    `path.data: ${path.join(dir, 'data')}`,
    `path.logs: ${path.join(dir, 'logs')}`,
    'discovery.type: single-node',
    'network.host: 127.0.0.1',
    `http.port: ${port}`,
    'xpack.security.enabled: false',
    // A nearly full development disk must not turn indexes read-only mid-test.
    'cluster.routing.allocation.disk.threshold_enabled: false',
    // Tests and es:stop clean up with wildcard deletes.
    'action.destructive_requires_name: false',
    '',
  ].join('\n');
}

async function readPid(dir) {
  try {
    const pid = Number((await readFile(path.join(dir, 'pid'), 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A lock file so two test runs starting at once do not both launch a node on one port. */
async function withLock(dir, fn) {
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
      if (!holder || !alive(holder)) await rm(lock, { force: true });
      else if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${lock} (held by pid ${holder})`, { cause: err });
      else await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

async function waitHealthy(url, pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/_cluster/health?wait_for_status=yellow&timeout=5s`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (res.ok) {
        const body = await res.json();
        if (body.status === 'green' || body.status === 'yellow') return;
      }
    } catch {
      // not listening yet
    }
    if (pid !== undefined && !alive(pid)) throw new Error('Elasticsearch exited during startup');
    await sleep(500);
  }
  throw new Error(`Elasticsearch at ${url} not healthy after ${timeoutMs / 1000}s`);
}

/**
 * Start a node (or find it running) and resolve with `{ url, pid, dir, started }` once the
 * cluster is yellow. `started` is false when one already answered on the port.
 */
export async function startElasticsearch({ port = defaultPort(), dir = instanceDir(port), timeoutMs = 180_000 } = {}) {
  const url = `http://127.0.0.1:${port}`;
  if (await isUp(url)) return { url, pid: await readPid(dir), dir, started: false };
  const java = javaHome();
  if (!java)
    throw new Error(
      'no Java found: install OpenJDK 17 (Debian: apt-get install openjdk-17-jre-headless) or set ES_JAVA_HOME',
    );
  await mkdir(path.dirname(dir), { recursive: true });
  return withLock(dir, async () => {
    if (await isUp(url)) return { url, pid: await readPid(dir), dir, started: false };
    const home = await distribution();
    const user = runAsUser();
    if (!canRead(user, path.join(home, 'bin', 'elasticsearch'))) {
      throw new Error(`user ${user} cannot read ${home}: make the folders above it world-readable (chmod o+rx)`);
    }
    // Per-instance config folder (ES_PATH_CONF): the distribution's defaults plus our settings.
    const conf = path.join(dir, 'config');
    await mkdir(path.join(dir, 'data'), { recursive: true });
    await mkdir(path.join(dir, 'logs'), { recursive: true });
    await mkdir(path.join(dir, 'tmp'), { recursive: true });
    await rm(conf, { recursive: true, force: true });
    await cp(path.join(home, 'config'), conf, { recursive: true });
    await writeFile(path.join(conf, 'elasticsearch.yml'), settings(dir, port));
    await rm(path.join(dir, 'pid'), { force: true });
    if (user) {
      spawnSync('chown', ['-R', `${user}:`, dir], { stdio: 'inherit' });
      await chmod(dir, 0o755);
    }
    const env = {
      ...process.env,
      ES_JAVA_HOME: java,
      ES_PATH_CONF: conf,
      ES_TMPDIR: path.join(dir, 'tmp'),
      ES_JAVA_OPTS: process.env.ES_JAVA_OPTS || '-Xms512m -Xmx512m',
    };
    const bin = path.join(home, 'bin', 'elasticsearch');
    const args = ['-d', '-p', path.join(dir, 'pid')];
    const [cmd, argv] = user ? ['runuser', ['-u', user, '--', bin, ...args]] : [bin, args];
    log(`starting Elasticsearch ${VERSION} on ${url} (data in ${shownDir(dir)})`);
    // The console log is only interesting when startup fails; the node's own logs are in dir/logs.
    let output = '';
    const code = await new Promise((resolve, reject) => {
      const child = spawn(cmd, argv, { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', reject);
      child.on('exit', (c) => resolve(c));
    });
    if (code !== 0) {
      process.stderr.write(output.split('\n').slice(-30).join('\n') + '\n');
      throw new Error(`bin/elasticsearch exited with ${code}; see ${path.join(dir, 'logs')}`);
    }
    const pid = await readPid(dir);
    await waitHealthy(url, pid, timeoutMs);
    return { url, pid, dir, started: true };
  });
}

/** Stop the node whose pid file is in `dir`, and wait until it has exited. */
export async function stopElasticsearch({ port = defaultPort(), dir = instanceDir(port), timeoutMs = 60_000 } = {}) {
  const pid = await readPid(dir);
  if (pid === undefined || !alive(pid)) {
    await rm(path.join(dir, 'pid'), { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      await sleep(500);
      break;
    }
    await sleep(200);
  }
  await rm(path.join(dir, 'pid'), { force: true });
  return true;
}

function parseCli(argv) {
  const [command = 'start', ...rest] = argv;
  const opts = {};
  for (let i = 0; i < rest.length; i++) {
    const [key, inline] = rest[i].split('=', 2);
    const value = inline ?? rest[++i];
    if (key === '--port') opts.port = Number(value);
    else if (key === '--dir') opts.dir = path.resolve(value);
    else throw new Error(`unknown option ${rest[i]} (usage: es.mjs start|stop|status [--port N] [--dir path])`);
  }
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port > 0 && opts.port < 65536)) {
    throw new Error('--port must be a port number');
  }
  return { command, opts };
}

async function cli() {
  const { command, opts } = parseCli(process.argv.slice(2));
  const port = opts.port ?? defaultPort();
  if (command === 'start') {
    const { url, started } = await startElasticsearch(opts);
    if (!started) log(`already running at ${url}`);
    process.stdout.write(`${url}\n`);
  } else if (command === 'stop') {
    const stopped = await stopElasticsearch(opts);
    log(stopped ? `stopped the node on port ${port}` : `no node of ours running on port ${port}`);
  } else if (command === 'status') {
    const url = `http://127.0.0.1:${port}`;
    const up = await isUp(url);
    process.stdout.write(`${up ? 'running' : 'not running'} ${url}\n`);
    process.exitCode = up ? 0 : 1;
  } else {
    throw new Error(`unknown command "${command}" (start, stop, status)`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((err) => {
    log(err.message);
    process.exit(1);
  });
}

/** A folder as the log shows it: relative to the project when inside it, else as given (never ../../tmp/…). */
function shownDir(dir) {
  const rel = path.relative(ROOT, dir);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : dir;
}
