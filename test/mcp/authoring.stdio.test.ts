/**
 * `skillpress mcp --skills <dir>` over stdio with the SDK client: create_skill and update_skill
 * write the folder, the running server serves the new version (resources list_changed, skills_search,
 * best_skill), duplicates and bad input are refused in words a model can act on, nothing is
 * written outside the skills folder, versions are kept (a commit per write in git).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { unwritableFolder, UNWRITABLE_SKIP } from '../helpers/unwritable-folder.ts';
import { serveDir } from '../federate/helpers/server.ts';
import { build } from '../../src/build.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { CLI, connect, FIXTURE, fixtureFeed, NODE, ROOT, tempDir, writeSkills, type SkillFiles } from './helpers.ts';

const structured = <T = Record<string, any>>(r: CallToolResult) => r.structuredContent as T;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** Two more skills: best_skill ranks by meaning from five skills up. */
const MORE: Record<string, Record<string, SkillFiles[string]>> = {
  'git-bisect': {
    'SKILL.md':
      '---\nname: git-bisect\ndescription: Find the commit that introduced a bug with git bisect.\n---\nRun git bisect start, mark good and bad commits, test each step.\n',
  },
  'resize-images': {
    'SKILL.md':
      '---\nname: resize-images\ndescription: Resize and compress PNG and JPEG images for the web.\n---\nUse sharp to resize images to 1600 pixels wide and compress them.\n',
  },
};

const REFUND = {
  name: 'refund-double-charge',
  description: 'Refund a customer who was charged twice for the same subscription order.',
  body: '# Refund a double charge\n\n## Conditions\n\n- The customer sees two identical charges.\n\n## Steps\n\n1. **Do:** look up both charges.\n   **Check:** same amount, same order.\n   **Say:** "I can see the duplicate charge."\n2. **Do:** refund the later charge.\n\n## Resolution\n\nThe refund shows within 5 days.\n',
};

interface Server {
  client: Client;
  stderr: () => string;
  changed: { resources: number };
}

async function start(args: string[], capabilities: Record<string, object> = {}, cwd = ROOT): Promise<Server> {
  const transport = new StdioClientTransport({ command: NODE, args: [CLI, 'mcp', ...args], cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const changed = { resources: 0 };
  const client = new Client(
    { name: 'skillpress-test', version: '1.0.0' },
    {
      capabilities,
      listChanged: { resources: { autoRefresh: false, debounceMs: 0, onChanged: () => void changed.resources++ } },
    },
  );
  await client.connect(transport);
  return { client, stderr: () => stderr, changed };
}

async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

describe('skillpress mcp --skills', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let skills: string;
  let server: Server;
  const call = (name: string, args: Record<string, unknown>) => server.client.callTool({ name, arguments: args });

  beforeAll(async () => {
    tmp = await tempDir('skillpress-authoring-');
    skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, { ...FIXTURE, ...MORE });
    server = await start(['--skills', skills]);
  }, 60_000);

  afterAll(async () => {
    await server?.client.close();
    await tmp?.remove();
  });

  test('lists create_skill and update_skill, and says when to use them', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_skill', 'update_skill', 'skills_search']));
    expect(server.client.getInstructions()).toMatch(/create_skill/);
  });

  test('create_skill writes version 1; the running server serves it at once and says the list changed', async () => {
    const before = server.changed.resources;
    const r = await call('create_skill', REFUND);
    expect(r.isError).toBeFalsy();
    expect(structured(r)).toEqual({
      name: 'refund-double-charge',
      created: true,
      version: '1',
      path: path.join(skills, 'refund-double-charge'),
    });
    const found = structured(await call('skills_search', { query: 'charged twice refund' }));
    expect(found.results[0].name).toBe('refund-double-charge');
    const best = structured(await call('best_skill', { query: 'a customer was charged twice, refund them' }));
    expect(best.skill?.name).toBe('refund-double-charge');
    await expect.poll(() => server.changed.resources, { timeout: 5000 }).toBeGreaterThan(before);
  });

  test('create_skill puts a skill in a group folder of the catalog when asked; not inside a skill, nor outside', async () => {
    const made = await call('create_skill', {
      name: 'rotate-api-keys',
      description: 'Rotate the API keys of a service without downtime.',
      body: '# Rotate API keys\n\n1. Issue the new key.\n2. Deploy it.\n3. Revoke the old key.\n',
      folder: 'engineering/security',
    });
    expect(structured(made)).toMatchObject({
      created: true,
      path: path.join(skills, 'engineering/security/rotate-api-keys'),
    });
    const best = structured(await call('best_skill', { query: 'rotate our api keys without downtime' }));
    expect(best.skill?.name).toBe('rotate-api-keys');
    // The catalog, and beside it (the server's own build folder changes as it publishes).
    const before = [await tree(skills), await readdir(tmp.dir)];
    for (const folder of ['../outside', '/tmp/abs', 'git-bisect', 'engineering/security/rotate-api-keys/x', '.git']) {
      const r = await call('create_skill', { ...REFUND, name: 'placed-badly', description: 'Placed badly.', folder });
      expect(r.isError, folder).toBe(true);
      expect(text(r), folder).toMatch(/^folder|nothing was written/);
    }
    expect([await tree(skills), await readdir(tmp.dir)]).toEqual(before);
  });

  test('a duplicate is not created: created false, with the existing skill', async () => {
    const r = await call('create_skill', { ...REFUND, name: 'duplicate-charge-refund' });
    expect(structured(r)).toMatchObject({ name: 'refund-double-charge', created: false });
    expect(text(r)).toMatch(/Use update_skill on "refund-double-charge"/);
    expect(await readdir(skills)).not.toContain('duplicate-charge-refund');
  });

  test("bad input: the validator's rule, seed-style messages, and nothing written anywhere", async () => {
    const before = await tree(tmp.dir);
    const long = await call('create_skill', { ...REFUND, name: 'long-one', description: 'x'.repeat(1100) });
    expect(long.isError).toBe(true);
    expect(text(long)).toMatch(/\[description-length\] description: description is 1100 characters/);
    const missing = await call('create_skill', { name: 'no-desc', body: 'Body.' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/description is required/);
    for (const p of ['../x', '../../outside.txt', '/tmp/abs', 'a/../../x', '.git/hooks/pre-commit', 'SKILL.md']) {
      const r = await call('create_skill', {
        ...REFUND,
        name: 'hostile',
        description: 'Hostile.',
        files: [{ path: p, content: 'x' }],
      });
      expect(r.isError, p).toBe(true);
      expect(text(r), p).toMatch(/nothing was written/);
    }
    // Names: a path, a traversal, an absolute path, too long, not a valid name.
    for (const name of ['../escape', '/etc/cron.d/x', 'a/b', '..', 'x'.repeat(65), 'Bad Name', 'nul\u0000x']) {
      const r = await call('create_skill', { ...REFUND, name, description: 'Named badly.' });
      expect(r.isError, name).toBe(true);
    }
    // Sizes: a file over skills.max_file_bytes, base64 that is not base64, too many files.
    const big = await call('create_skill', {
      ...REFUND,
      name: 'big-one',
      description: 'Big.',
      files: [{ path: 'big.bin', content: 'A'.repeat(1_398_112), encoding: 'base64' }],
    });
    expect(text(big)).toMatch(/over the 1 MiB limit/);
    const notB64 = await call('create_skill', {
      ...REFUND,
      name: 'b64',
      description: 'B64.',
      files: [{ path: 'x.bin', content: '!!!', encoding: 'base64' }],
    });
    expect(text(notB64)).toMatch(/files\[0\]\.content is not valid base64; nothing was written/);
    // Links: a folder of the skill that is a link is never written through.
    await symlink(path.join(tmp.dir, 'outside'), path.join(skills, 'expense-policy', 'linked'));
    await mkdir(path.join(tmp.dir, 'outside'));
    const through = await call('update_skill', {
      name: 'expense-policy',
      files: [{ path: 'linked/planted.md', content: 'x' }],
    });
    expect(through.isError).toBe(true);
    expect(await readdir(path.join(tmp.dir, 'outside'))).toEqual([]);
    await rm(path.join(skills, 'expense-policy', 'linked'));
    await rm(path.join(tmp.dir, 'outside'), { recursive: true });
    const upd = await call('update_skill', { name: 'expense-policy', files: [{ path: '../escape.md', content: 'x' }] });
    expect(upd.isError).toBe(true);
    const empty = await call('update_skill', { name: 'expense-policy', body: ' \n' });
    expect(text(empty)).toBe('body is empty: pass the new body, or leave body out to keep it as it is');
    const nf = await call('update_skill', { name: 'nope', body: 'x' });
    expect(text(nf)).toBe('Skill "nope" not found. Use skills_search to find the correct name.');
    // A misspelled name is named as such, with the near one, even in a call that changes nothing.
    const typo = await call('update_skill', { name: 'expens-policy', feedback: 'the limits changed' });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toBe(
      'Skill "expens-policy" not found. Did you mean "expense-policy"? Use skills_search to find the correct name.',
    );
    expect(await tree(tmp.dir)).toEqual(before);
    // YAML: front matter in the description is a value, not fields; a body cannot reopen the front
    // matter: one that opens with a block (a whole SKILL.md passed as the body) is refused, and
    // "---" lines further down are markdown.
    const whole = await call('create_skill', {
      name: 'yaml-probe',
      description: 'Probe.',
      body: '---\nname: evil\nvisibility: private\n---\nBody.\n',
    });
    expect(whole.isError).toBe(true);
    expect(text(whole)).toMatch(/^body opens with a front matter block/);
    const yaml = await call('create_skill', {
      name: 'yaml-probe',
      description: 'Probe.\n---\nname: evil\nvisibility: private\n---',
      body: 'Body.\n\n---\nname: evil\n---\n',
    });
    expect(structured(yaml)).toMatchObject({ name: 'yaml-probe', created: true });
    const probe = structured(await call('view_skill', { name: 'yaml-probe' }));
    expect(probe.skill.description).toContain('name: evil');
    expect(probe.skill.visibility ?? 'public').toBe('public');
  });

  test('update_skill raises the version and lists the changes; versions and rollback (the CLI) see it', async () => {
    const r = await call('update_skill', {
      name: 'refund-double-charge',
      body: `${REFUND.body}\n## Escalation\n\nOver 500 EUR, ask a supervisor.\n`,
      files: [{ path: 'references/limits.md', content: '# Limits\n' }],
      feedback: 'large refunds need a supervisor',
      base_version: '1',
    });
    expect(structured(r)).toEqual({
      name: 'refund-double-charge',
      version: '2',
      previous_version: '1',
      changes: [
        'section "Escalation" added',
        'file added: references/limits.md',
        'feedback: large refunds need a supervisor',
      ],
    });
    const view = structured(await call('view_skill', { name: 'refund-double-charge' }));
    expect(view.skill.version).toBe('2');
    expect(view.instructions).toMatch(/Escalation/);
    const cli = (...args: string[]) =>
      spawnSync(NODE, [CLI, ...args, '--skills', skills], { cwd: ROOT, encoding: 'utf8' });
    const versions = JSON.parse(cli('versions', 'refund-double-charge', '--json').stdout) as Array<{ version: string }>;
    expect(versions.map((v) => v.version)).toEqual(['2', '1']);
    expect(cli('rollback', 'refund-double-charge', '1').status).toBe(0);
    expect(await readFile(path.join(skills, 'refund-double-charge', 'SKILL.md'), 'utf8')).not.toMatch(/Escalation/);
  });

  test('two concurrent updates lose nothing; a stale base_version is a conflict, one never written is named as such, each with the current version', async () => {
    const [a, b] = await Promise.all(
      ['a', 'b'].map((n) =>
        call('update_skill', { name: 'expense-policy', files: [{ path: `notes/${n}.md`, content: n }] }),
      ),
    );
    expect([structured(a!).version, structured(b!).version].sort()).toEqual(['2', '3']);
    expect((await readdir(path.join(skills, 'expense-policy', 'notes'))).sort()).toEqual(['a.md', 'b.md']);
    const stale = await call('update_skill', { name: 'expense-policy', body: 'New.\n', base_version: '2' });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toMatch(/is at version 3, not 2/);
    // A base version the skill never had is not a conflict: no update came first.
    const ahead = await call('update_skill', { name: 'expense-policy', body: 'New.\n', base_version: '7' });
    expect(ahead.isError).toBe(true);
    expect(text(ahead)).toBe(
      'base_version "7": skill "expense-policy" has no such version; its current version is 3. Read it (view_skill), apply your change to version 3 and pass base_version "3".',
    );
  });

  test('an edit by hand since the version an agent read is kept, served, and makes its update a conflict', async () => {
    const skillMd = path.join(skills, 'expense-policy', 'SKILL.md');
    await writeFile(skillMd, `${await readFile(skillMd, 'utf8')}\n## Hand-written note\n\nCall Dana in finance.\n`);
    const stale = await call('update_skill', { name: 'expense-policy', body: 'New.\n', base_version: '3' });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toMatch(/is at version 4, not 3/);
    const view = structured(await call('view_skill', { name: 'expense-policy' }));
    expect(view.skill.version).toBe('4');
    expect(view.instructions).toMatch(/Call Dana in finance/);
  });
});

describe('skillpress mcp --skills on a git work tree', () => {
  test('one commit per write', async () => {
    const tmp = await tempDir('skillpress-authoring-git-');
    try {
      const git = (...args: string[]) => execFileSync('git', ['-C', tmp.dir, ...args], { encoding: 'utf8' });
      const skills = path.join(tmp.dir, 'skills');
      await mkdir(skills);
      await writeSkills(skills, FIXTURE);
      git('init', '--quiet');
      const server = await start(['--skills', skills]);
      try {
        await server.client.callTool({ name: 'create_skill', arguments: REFUND });
        await server.client.callTool({
          name: 'update_skill',
          arguments: { name: 'refund-double-charge', description: 'Refund a double charge.' },
        });
      } finally {
        await server.client.close();
      }
      expect(git('log', '--format=%s').trim().split('\n')).toEqual([
        'skill refund-double-charge: version 2',
        'skill refund-double-charge: version 1',
      ]);
      expect(git('show', '--format=%B', '--no-patch', 'HEAD')).toMatch(/- description changed/);
      // The server's own folder (staging, locks, its build) stays out of git's way.
      expect(git('status', '--porcelain', '--untracked-files=all')).not.toMatch(/\.skillpress/);
    } finally {
      await tmp.remove();
    }
  }, 60_000);
});

test('without --skills the server lists no authoring tools and its instructions are unchanged', async () => {
  const feed = await fixtureFeed();
  const server = await connect(feed.dist, 'legacy');
  try {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'best_skill',
      'read_skill_file',
      'skills_list',
      'skills_search',
      'view_skill',
    ]);
    expect(server.client.getInstructions()).not.toMatch(/create_skill/);
  } finally {
    await server.close();
    await feed.remove();
  }
}, 60_000);

test("create_skill drafts the skill with the client's model from a conversation, when the client offers sampling", async () => {
  const tmp = await tempDir('skillpress-authoring-draft-');
  const skills = path.join(tmp.dir, 'skills');
  await writeSkills(skills, FIXTURE);
  const server = await start(['--skills', skills], { sampling: {} });
  const asked: string[] = [];
  server.client.setRequestHandler('sampling/createMessage', async (request) => {
    asked.push(JSON.stringify(request.params.messages));
    const draft = {
      name: 'unlock-account',
      description: 'Unlock a customer account locked after too many sign-in attempts.',
      body: '## Conditions\n\n- Locked out.\n\n## Steps\n\n1. **Do:** unlock it.\n   **Check:** sign-in works.\n   **Say:** "You can sign in again."\n\n## Resolution\n\nSigned in.\n',
    };
    return {
      model: 'test',
      role: 'assistant',
      content: { type: 'text', text: JSON.stringify(draft) },
      stopReason: 'endTurn',
    };
  });
  try {
    const r = await server.client.callTool({
      name: 'create_skill',
      arguments: {
        conversation:
          'Customer: I am locked out after typing my password wrong.\nAgent: I unlocked it; try now.\nCustomer: Works, thanks!',
      },
    });
    expect(structured(r)).toMatchObject({ name: 'unlock-account', created: true, version: '1' });
    expect(asked[0]).toMatch(/locked out/);
    const view = structured(
      await server.client.callTool({ name: 'view_skill', arguments: { name: 'unlock-account' } }),
    );
    expect(view.instructions).toMatch(/\*\*Do:\*\* unlock it/);
  } finally {
    await server.client.close();
    await tmp.remove();
  }
}, 60_000);

describe('skillpress mcp --skills started outside the skills repository', () => {
  test("the config's relative paths are read beside it, as build reads them", async () => {
    const tmp = await tempDir('skillpress-authoring-config-');
    const skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, { ...FIXTURE, ...MORE });
    await writeFile(
      path.join(tmp.dir, 'skillpress.json'),
      JSON.stringify({ analytics: { source: 'events.jsonl', min_reports: 1 } }),
    );
    const outcome = { v: 1, id: 'e1', at: '2026-11-01T00:00:00.000Z', type: 'outcome', skill: 'pdf-processing' };
    await writeFile(path.join(tmp.dir, 'events.jsonl'), `${JSON.stringify({ ...outcome, outcome: 'success' })}\n`);
    // start() runs the server in the repository running the tests, which has no events.jsonl.
    const server = await start(['--skills', skills]);
    try {
      const r = await server.client.callTool({
        name: 'best_skill',
        arguments: { query: 'extract the text and tables from PDF files', judge: 'rule' },
      });
      expect(r.isError, text(r)).toBeFalsy();
      expect(structured(r).skill?.name).toBe('pdf-processing');
      expect(structured(r).reason).toMatch(/success rate in use, 100%/);
    } finally {
      await server.client.close();
      await tmp.remove();
    }
  }, 60_000);
});

describe('skillpress mcp --skills: where its builds keep their cache', () => {
  test("in the skills' state folder, never in the folder the client started it in", async () => {
    const tmp = await tempDir('skillpress-authoring-cache-');
    const skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, FIXTURE);
    const started = path.join(tmp.dir, 'home');
    await mkdir(started);
    const server = await start(['--skills', skills], {}, started);
    try {
      const created = await server.client.callTool({ name: 'create_skill', arguments: REFUND });
      expect(created.isError, text(created)).toBeFalsy();
      expect(await readdir(started)).toEqual([]);
      expect(await readdir(path.join(tmp.dir, '.skillpress', 'cache'))).toContain('feed');
      // The second build (the write) found the first one's cache: no temporary folder was needed.
      expect(server.stderr()).not.toMatch(/cache: .* not used/);
    } finally {
      await server.client.close();
      await tmp.remove();
    }
  }, 60_000);
});

describe.skipIf(UNWRITABLE_SKIP)('skillpress mcp --skills started in a folder where .cache cannot be made', () => {
  test('searches and writes all the same: its builds keep their work in a temporary folder', async () => {
    const tmp = await tempDir('skillpress-authoring-read-only-');
    const skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, { ...FIXTURE, ...MORE });
    const server = await start(['--skills', skills], {}, await unwritableFolder(tmp.dir));
    try {
      // Bounded: a server stuck making .cache must be closed (in finally) before the test gives up.
      const search = { name: 'skills_search', arguments: { query: 'extract PDF tables' } };
      const found = await server.client.callTool(search, { timeout: 30_000 });
      expect(found.isError, text(found)).toBeFalsy();
      expect(structured(found).results[0].name).toBe('pdf-processing');
      const created = await server.client.callTool({ name: 'create_skill', arguments: REFUND });
      expect(created.isError, text(created)).toBeFalsy();
    } finally {
      await server.client.close();
      await tmp.remove();
    }
  }, 60_000);
});

describe('skillpress mcp --skills with skills the config disables', () => {
  test('create_skill and update_skill refuse them naming the config entry; view_skill says disabled, not removed', async () => {
    const tmp = await tempDir('skillpress-authoring-disabled-');
    const skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, {
      ...FIXTURE,
      'trailmark-graph': {
        'SKILL.md': '---\nname: trailmark-graph\ndescription: Build a call graph of a codebase.\n---\nRun trailmark.\n',
      },
    });
    await writeFile(path.join(tmp.dir, 'skillpress.json'), JSON.stringify({ skills: { disabled: ['trailmark-*'] } }));
    const server = await start(['--skills', skills]);
    const call = (name: string, args: Record<string, unknown>) => server.client.callTool({ name, arguments: args });
    try {
      const before = await tree(skills);
      const made = await call('create_skill', {
        ...REFUND,
        name: 'trailmark-hotspots',
        description: 'Find the hotspots of a codebase.',
      });
      expect(made.isError).toBe(true);
      expect(text(made)).toBe(
        'Skill "trailmark-hotspots" would be disabled in this catalog (skills.disabled: "trailmark-*" in the config), so it would never be served: choose another name, or enable it first (remove "trailmark-*" from skills.disabled); nothing was written',
      );
      const updated = await call('update_skill', { name: 'trailmark-graph', description: 'Graph a codebase.' });
      expect(text(updated)).toMatch(
        /^Skill "trailmark-graph" is disabled in this catalog \(skills\.disabled: "trailmark-\*" in the config\), so it is not served: enable it first/,
      );
      expect(await tree(skills)).toEqual(before);
      const view = await call('view_skill', { name: 'trailmark-graph' });
      expect(text(view)).toBe(
        'Skill "trailmark-graph" is disabled in this catalog (skills.disabled: "trailmark-*" in the config), so it is not served. Use skills_search to find another skill for the task.',
      );
    } finally {
      await server.client.close();
      await tmp.remove();
    }
  }, 60_000);
});

describe("skillpress mcp --skills serving a peer's skills (federation.reexport)", () => {
  test("update_skill of a peer's skill says where it comes from; create_skill refuses its name, which would replace it", async () => {
    const tmp = await tempDir('skillpress-authoring-peer-');
    const peerSkills = path.join(tmp.dir, 'peer-skills');
    await writeSkills(peerSkills, { 'git-bisect': MORE['git-bisect']! });
    const peerOut = path.join(tmp.dir, 'peer-dist');
    await build({
      skills: peerSkills,
      out: peerOut,
      config: SkillpressConfig.parse({ registry: { name: 'upstream' } }),
      site: false,
    });
    const peer = await serveDir(peerOut);
    const skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, FIXTURE);
    const federation = { peers: [{ name: 'upstream', url: `${peer.url}/` }], reexport: true };
    await writeFile(path.join(tmp.dir, 'skillpress.json'), JSON.stringify({ registry: { name: 'team' }, federation }));
    const server = await start(['--skills', skills]);
    const call = (name: string, args: Record<string, unknown>) => server.client.callTool({ name, arguments: args });
    try {
      const view = await call('view_skill', { name: 'git-bisect', detail: 'card' });
      expect(structured(view).skill).toMatchObject({ name: 'git-bisect', registry: 'upstream' });
      const before = await tree(skills);
      const updated = await call('update_skill', { name: 'git-bisect', body: 'Bisect with a script.\n' });
      expect(updated.isError).toBe(true);
      expect(text(updated)).toBe(
        'Skill "git-bisect" comes from the peer registry "upstream" (federation.peers), not from this skills folder: update_skill changes only the skills written here. Propose the change to "upstream", or save your version as a skill of another name with create_skill; nothing was written',
      );
      const made = await call('create_skill', {
        ...REFUND,
        name: 'git-bisect',
        description: 'Bisect a regression with a test script.',
      });
      expect(made.isError).toBe(true);
      expect(text(made)).toBe(
        'Skill "git-bisect" is already in this catalog, from the peer registry "upstream" (federation.peers): a skill of that name here would replace it (rule federation-name-clash). Choose another name; nothing was written',
      );
      expect(await tree(skills)).toEqual(before);
    } finally {
      await server.client.close();
      await peer.close();
      await tmp.remove();
    }
  }, 60_000);
});
