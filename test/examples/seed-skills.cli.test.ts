/**
 * The bundled example skills: the seed skills' scripts give the expected decisions, the
 * loader keeps exactly their files, and the whole `skills/` folder is valid in strict mode.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBytes, loadCatalog } from '../../src/load/index.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';
import {
  REPO_ROOT,
  runSeedSkill,
  SEED_CASES,
  SEED_SKILLS,
  SeedScriptError,
  SKILLS_DIR,
} from '../helpers/run-seed-skill.ts';

const run = promisify(execFile);
const python = (args: string[]) =>
  run('python3', ['-B', ...args], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });

let catalog: Catalog;
const skill = (id: string): Skill => {
  const found = catalog.skills.find((s) => s.id === id);
  if (!found) throw new Error(`skill ${id} was not loaded`);
  return found;
};

beforeAll(async () => {
  catalog = await loadCatalog(SKILLS_DIR, { mode: 'strict' });
});

describe('seed skill scripts', () => {
  it.each(SEED_CASES.map((c) => [`${c.skill}: ${c.name}`, c] as const))('%s', async (_label, c) => {
    const result = await runSeedSkill(path.join(SKILLS_DIR, c.skill), c.input);
    expect(result).toMatchObject(c.expected);
  });

  it('every decision value the seed skills document is covered', () => {
    const decisions = (id: string) =>
      new Set(SEED_CASES.filter((c) => c.skill === id).map((c) => c.expected.decision ?? c.expected.viable));
    expect(decisions('verify-expense-policy')).toEqual(new Set(['approve', 'partial', 'refer', 'deny']));
    expect(decisions('adjudicate-storm-claim')).toEqual(new Set(['approve', 'refer', 'deny']));
    expect(decisions('validate-sample-viability')).toEqual(new Set([true, false]));
  });

  it.each(SEED_SKILLS.map((s) => [s.id] as const))(
    '%s rejects malformed input with exit 2 and a JSON error',
    async (id) => {
      const err = await runSeedSkill(path.join(SKILLS_DIR, id), { nonsense: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SeedScriptError);
      expect((err as SeedScriptError).exitCode).toBe(2);
      expect(JSON.parse((err as SeedScriptError).stderr)).toEqual({ error: expect.stringMatching(/must|required/) });
    },
  );

  it('reads input from stdin when no argument is given', async () => {
    const script = path.join(SKILLS_DIR, 'verify-expense-policy', 'policy_check.py');
    const child = execFile('python3', ['-B', script], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    child.stdin!.end(JSON.stringify({ category: 'office_supplies', amount: 250, has_receipt: true }));
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ decision: 'partial', approved_amount: 200 });
  });

  it('exposes each decision as an importable Python function', async () => {
    const calls = [
      [
        'verify-expense-policy',
        'from policy_check import verify_expense as f',
        { category: 'meals', amount: 20 },
        'decision',
        'approve',
      ],
      [
        'adjudicate-storm-claim',
        'from adjudicator import adjudicate_claim as f',
        { region: 'inland', damage_type: 'roof', wind_speed_mph: 80, claimed_amount: 5000, policy_limit: 100000 },
        'payout',
        5000,
      ],
      [
        'validate-sample-viability',
        'from viability_check import validate_sample as f',
        { sample_type: 'plasma', storage_temp_c: -20, hours_since_collection: 1, biomarkers: { hemolysis_index: 1 } },
        'viable',
        true,
      ],
    ] as const;
    for (const [id, imp, input, key, value] of calls) {
      const code = `import json, sys; sys.path.insert(0, ${JSON.stringify(path.join(SKILLS_DIR, id))}); ${imp}; print(json.dumps(f(json.loads(sys.argv[1]))))`;
      const { stdout } = await python(['-c', code, JSON.stringify(input)]);
      expect(JSON.parse(stdout)[key]).toEqual(value);
    }
  });

  describe('run from a copy of their files in another folder', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'skillpress-seed-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it.each(SEED_SKILLS.map((s) => [s.id, s] as const))('%s gives the expected results', async (id, seed) => {
      // The way the Elasticsearch tests run them: files written out to an unrelated folder.
      const copy = path.join(dir, `copy-of-${id}`);
      await mkdir(copy);
      for (const f of seed.files) await copyFile(path.join(SKILLS_DIR, id, f), path.join(copy, f));
      const cases = SEED_CASES.filter((c) => c.skill === id);
      const results = await Promise.all(cases.map((c) => runSeedSkill(copy, c.input)));
      cases.forEach((c, i) => expect(results[i]).toMatchObject(c.expected));
    });
  });
});

describe('the other example skills', () => {
  it('refund-approval in a category folder decides a refund', async () => {
    const refund = skill('refund-approval');
    expect(refund.source).toEqual({ kind: 'local', dir: 'finance/refund-approval' });
    const script = path.join(SKILLS_DIR, 'finance', 'refund-approval', 'scripts', 'refund_decision.py');
    const { stdout } = await python([
      script,
      JSON.stringify({ amount: 89.99, days_since_delivery: 12, reason: 'changed_mind', condition: 'opened' }),
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ decision: 'partial_refund', refund_amount: 76.49, policy_section: '1' });
  });

  it('quarterly-kpi-report renders its template and carries a real PNG as base64', async () => {
    const script = path.join(SKILLS_DIR, 'quarterly-kpi-report', 'scripts', 'render_report.py');
    const input = {
      company: 'Acme',
      quarter: '2026-Q1',
      metrics: {
        revenue: 1250000,
        revenue_prev: 1100000,
        gross_profit: 781250,
        customers_start: 900,
        new_customers: 140,
        churned_customers: 27,
      },
    };
    const { stdout } = await python([script, JSON.stringify(input)]);
    const out = JSON.parse(stdout);
    expect(out.kpis).toEqual({
      revenue: 1250000,
      revenue_growth_pct: 13.6,
      gross_margin_pct: 62.5,
      churn_rate_pct: 3,
      customers_end: 1013,
      new_customers: 140,
    });
    expect(out.markdown).toContain('# Acme — KPI report, 2026-Q1');

    const logo = skill('quarterly-kpi-report').files.find((f) => f.path === 'assets/images/logo.png')!;
    expect(logo.encoding).toBe('base64');
    const bytes = fileBytes(logo);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const disk = await readFile(path.join(SKILLS_DIR, 'quarterly-kpi-report', 'assets', 'images', 'logo.png'));
    expect(bytes.equals(disk)).toBe(true);
    expect(logo.sha256).toBe(createHash('sha256').update(disk).digest('hex'));
  });

  it('trino-debug declares scoped MCP tools and resources that point at its own files', () => {
    const trino = skill('trino-debug');
    const json = (p: string) => JSON.parse(trino.files.find((f) => f.path === p)!.content!);
    const tools = json('tools.json') as Array<{
      name: string;
      description: string;
      inputSchema: { type: string; required: string[] };
    }>;
    expect(tools.map((t) => t.name)).toEqual(['get_explain_plan', 'get_query_stats', 'get_table_stats']);
    for (const t of tools) {
      expect(t.description.length).toBeGreaterThan(20);
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.required.length).toBeGreaterThan(0);
    }
    const resources = json('resources.json') as Array<{ uri: string; mimeType: string }>;
    const paths = new Set(trino.files.map((f) => f.path));
    for (const r of resources) {
      expect(r.uri.startsWith('skill://trino-debug/')).toBe(true);
      expect(paths.has(r.uri.slice('skill://trino-debug/'.length))).toBe(true);
    }
  });
});

describe('loading skills/', () => {
  it.each(SEED_SKILLS.map((s) => [s.id, s] as const))('%s has exactly its three files, as text', (id, seed) => {
    const s = skill(id);
    expect(s.files.map((f) => f.path)).toEqual([...seed.files]);
    expect(s.files.every((f) => f.encoding === 'utf-8' && f.content && !f.skipped)).toBe(true);
    expect(s.registry_fields).toMatchObject({
      domain: seed.domain,
      visibility: 'public',
      author: expect.any(String),
      version: expect.any(String),
    });
    expect(s.registry_fields.tags.length).toBeGreaterThan(1);
    expect(catalog.problems.filter((p) => p.skill === id)).toEqual([]);
  });

  it('is valid in strict mode with no problems at all', () => {
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills.map((s) => s.id)).toEqual([
      'adjudicate-storm-claim',
      'refund-approval',
      'quarterly-kpi-report',
      'trino-debug',
      'validate-sample-viability',
      'verify-expense-policy',
    ]);
    expect(catalog.skills.every((s) => s.registry_fields.visibility === 'public')).toBe(true);
  });

  it('passes `skillpress validate skills --strict`', async () => {
    const node = path.join(REPO_ROOT, 'node_modules', '.bin', 'node');
    const { stdout } = await run(
      node,
      [path.join(REPO_ROOT, 'scripts', 'skillpress.mjs'), 'validate', SKILLS_DIR, '--strict'],
      { cwd: REPO_ROOT },
    );
    expect(stdout).toMatch(/6 valid skill\(s\), \d+ file\(s\); 0 invalid skill\(s\); 0 error\(s\), 0 warning\(s\)/);
  });

  it('holds no Python bytecode after the scripts ran', async () => {
    const entries = await readdir(SKILLS_DIR, { recursive: true });
    expect(entries.filter((e) => e.includes('__pycache__') || e.endsWith('.pyc'))).toEqual([]);
  });
});
