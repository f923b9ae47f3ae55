/** `skillpress <command> --help` lists every option of every command, one line each. */
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/command-list.ts';
import { commandHelp, undocumentedOptions } from '../../src/cli/help.ts';

describe('--help', () => {
  it('describes every option each command names', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect([entry.name, undocumentedOptions(entry, command)]).toEqual([entry.name, []]);
    }
  });

  it('lists the options one per line under the usage line', async () => {
    const entry = COMMANDS.find((c) => c.name === 'build')!;
    const help = commandHelp(entry, await entry.load());
    expect(help).toMatch(/^usage: skillpress build /m);
    expect(help).toMatch(/^ {2}--out +the output folder \(default dist\)$/m);
    expect(help).toMatch(/^ {2}--config +skillpress\.json, or the folder holding it/m);
    const optionLines = help.split('\n').filter((l) => /^ {2}--/.test(l));
    expect(optionLines.length).toBe(new Set((await entry.load()).usage.match(/--[a-z][a-z-]*/g)).size);
  });

  it('lists every option of mcp, whose usage has two forms, as it does for a one-line usage', async () => {
    const entry = COMMANDS.find((c) => c.name === 'mcp')!;
    const help = commandHelp(entry, await entry.load());
    for (const option of [
      'feed',
      'page-size',
      'poll',
      'watch-ms',
      'judge-timeout-ms',
      'cache-dir',
      'usage',
      'config',
      'skills',
    ])
      expect(help).toMatch(new RegExp(`^ {2}--${option} +\\S`, 'm'));
    expect(help).toMatch(/^ {7}skillpress mcp --skills <dir>/m);
  });

  it('says what --strict does for check-tools: the exit code, not the specification', async () => {
    const entry = COMMANDS.find((c) => c.name === 'check-tools')!;
    const help = commandHelp(entry, await entry.load());
    expect(help).toMatch(/^ {2}--strict +exit 1 when a tool is missing or its server is unreachable$/m);
    expect(help).not.toContain('specification');
  });
});

describe('what --help promises', () => {
  it('offers the skills folder as the argument only where the command takes it', async () => {
    const { main } = await import('../../src/cli/main.ts');
    for (const entry of COMMANDS) {
      const command = await entry.load();
      const line = commandHelp(entry, command)
        .split('\n')
        .find((l) => /^ {2}--skills /.test(l));
      if (!line || entry.name === 'mcp') continue;
      if (!line.endsWith('or give it as the argument')) continue;
      // Those that say so accept `<command> <dir>`: the folder is read, not refused as an unexpected argument.
      const err: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
      const spyOut = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        await main([entry.name, '/nonexistent/skills-folder', ...(entry.name === 'dev' ? ['--port', 'x'] : [])]);
      } finally {
        spy.mockRestore();
        spyOut.mockRestore();
      }
      expect([entry.name, err.join('')]).not.toEqual([entry.name, expect.stringContaining('unexpected argument')]);
    }
    for (const name of ['new', 'versions', 'rollback']) {
      const entry = COMMANDS.find((c) => c.name === name)!;
      expect(commandHelp(entry, await entry.load())).not.toContain('or give it as the argument');
    }
  });

  it('starts with the command summary, install included (its usage explains its options itself)', async () => {
    for (const entry of COMMANDS)
      expect([entry.name, commandHelp(entry, await entry.load()).split('\n')[0]]).toEqual([entry.name, entry.summary]);
  });
});

describe('an unknown command', () => {
  it('names the command it is near, exits 2 and prints the command list', async () => {
    const { main } = await import('../../src/cli/main.ts');
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    try {
      expect(await main(['buidl'])).toBe(2);
      expect(await main(['zzzz'])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(written[0]).toMatch(/^skillpress: unknown command "buidl" \(did you mean "build"\?\)\n/);
    expect(written[0]).toContain('usage: skillpress <command>');
    expect(written[1]).toMatch(/^skillpress: unknown command "zzzz"\n/);
  });
});

describe('skillpress help <command>', () => {
  it("prints that command's help, as <command> --help does; an unknown one is a usage error", async () => {
    const { main } = await import('../../src/cli/main.ts');
    const out: string[] = [];
    const err: string[] = [];
    const spyOut = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    try {
      expect(await main(['help', 'build'])).toBe(0);
      expect(await main(['help', 'buidl'])).toBe(2);
    } finally {
      spyOut.mockRestore();
      spyErr.mockRestore();
    }
    const entry = COMMANDS.find((c) => c.name === 'build')!;
    expect(out[0]).toBe(commandHelp(entry, await entry.load()));
    expect(err[0]).toMatch(/^skillpress: unknown command "buidl" \(did you mean "build"\?\)\n/);
  });
});

describe('--es in each command', () => {
  it('says where the URL comes from when it is left out: ELASTICSEARCH_URL, else 127.0.0.1:9200; usage reads no default', async () => {
    const line = async (name: string) => {
      const entry = COMMANDS.find((c) => c.name === name)!;
      return commandHelp(entry, await entry.load())
        .split('\n')
        .find((l) => /^ {2}--es /.test(l));
    };
    for (const name of ['get', 'ingest', 'validate-index'])
      expect(await line(name)).toMatch(/default: ELASTICSEARCH_URL, else http:\/\/127\.0\.0\.1:9200\)$/);
    const usage = await line('usage');
    expect(usage).not.toContain('default: ELASTICSEARCH_URL');
    expect(usage).toMatch(/ELASTICSEARCH_URL is not read/);
  });
});
