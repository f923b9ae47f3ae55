/**
 * Run the three seed skills' Python scripts (seed 000) and the cases that check them.
 *
 * `runSeedSkill` works on any folder holding a seed skill's files — `skills/<id>/` or a
 * temporary folder the files were written to after reading them back from Elasticsearch or a
 * feed — because each script finds its data file next to itself.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SKILLS_DIR = path.join(REPO_ROOT, 'skills');

export interface SeedSkill {
  id: string;
  domain: string;
  script: string;
  dataFile: string;
  /** Every file of the skill, sorted: exactly what the loader and every emitter must keep. */
  files: readonly string[];
}

export const SEED_SKILLS: readonly SeedSkill[] = [
  {
    id: 'verify-expense-policy',
    domain: 'finance',
    script: 'policy_check.py',
    dataFile: 'allowance_table.json',
    files: ['SKILL.md', 'allowance_table.json', 'policy_check.py'],
  },
  {
    id: 'adjudicate-storm-claim',
    domain: 'insurance',
    script: 'adjudicator.py',
    dataFile: 'risk_matrix.csv',
    files: ['SKILL.md', 'adjudicator.py', 'risk_matrix.csv'],
  },
  {
    id: 'validate-sample-viability',
    domain: 'life-sciences',
    script: 'viability_check.py',
    dataFile: 'biomarker_constraints.json',
    files: ['SKILL.md', 'biomarker_constraints.json', 'viability_check.py'],
  },
];

export interface SeedCase {
  /** Short label for test names. */
  name: string;
  skill: string;
  input: Record<string, unknown>;
  /** Fields the result must contain (compare with `toMatchObject`). */
  expected: Record<string, unknown>;
}

export const SEED_CASES: readonly SeedCase[] = [
  // verify-expense-policy
  {
    name: 'meal under the limit with a receipt is approved',
    skill: 'verify-expense-policy',
    input: { category: 'meals', amount: 64.5, has_receipt: true },
    expected: { decision: 'approve', approved_amount: 64.5, limit: 75, violations: [] },
  },
  {
    name: 'meal over the receipt threshold without a receipt is denied',
    skill: 'verify-expense-policy',
    input: { category: 'meals', amount: 30 },
    expected: { decision: 'deny', approved_amount: 0, violations: [{ rule: 'receipt-required' }] },
  },
  {
    name: 'two nights of lodging over the nightly limit are partly paid',
    skill: 'verify-expense-policy',
    input: { category: 'lodging', amount: 540, nights: 2, has_receipt: true },
    expected: { decision: 'partial', approved_amount: 500, limit: 500, violations: [{ rule: 'over-limit' }] },
  },
  {
    name: 'airfare over the pre-approval threshold is referred',
    skill: 'verify-expense-policy',
    input: { category: 'airfare', amount: 950, has_receipt: true },
    expected: { decision: 'refer', approved_amount: 0, violations: [{ rule: 'preapproval-required' }] },
  },
  {
    name: 'pre-approved airfare is approved',
    skill: 'verify-expense-policy',
    input: { category: 'airfare', amount: 950, has_receipt: true, preapproved: true },
    expected: { decision: 'approve', approved_amount: 950 },
  },
  {
    name: 'client entertainment is limited per attendee',
    skill: 'verify-expense-policy',
    input: { category: 'client_entertainment', amount: 300, attendees: 3, has_receipt: true },
    expected: { decision: 'approve', approved_amount: 300, limit: 360 },
  },
  {
    name: 'unknown category is denied',
    skill: 'verify-expense-policy',
    input: { category: 'gifts', amount: 10 },
    expected: { decision: 'deny', limit: null, violations: [{ rule: 'unknown-category' }] },
  },
  {
    name: 'claim after the submission window is denied',
    skill: 'verify-expense-policy',
    input: { category: 'meals', amount: 10, days_since_expense: 61 },
    expected: { decision: 'deny', violations: [{ rule: 'submission-window' }] },
  },
  // adjudicate-storm-claim
  {
    name: 'coastal roof damage in a hurricane is paid in full less the deductible',
    skill: 'adjudicate-storm-claim',
    input: {
      claim_id: 'C-1',
      region: 'coastal',
      damage_type: 'roof',
      wind_speed_mph: 85,
      claimed_amount: 20000,
      policy_limit: 250000,
      deductible: 1000,
    },
    expected: {
      claim_id: 'C-1',
      decision: 'approve',
      payout: 19000,
      payout_pct: 100,
      wind_band: 'hurricane',
      matched_rule: 'coastal/roof/hurricane',
    },
  },
  {
    name: 'coastal roof damage in a tropical storm is paid at 80%',
    skill: 'adjudicate-storm-claim',
    input: {
      region: 'coastal',
      damage_type: 'roof',
      wind_speed_mph: 55,
      claimed_amount: 12000,
      policy_limit: 250000,
      deductible: 500,
    },
    expected: { decision: 'approve', payout: 9100, payout_pct: 80, wind_band: 'tropical-storm' },
  },
  {
    name: 'roof damage at low wind speed is denied',
    skill: 'adjudicate-storm-claim',
    input: { region: 'inland', damage_type: 'roof', wind_speed_mph: 30, claimed_amount: 8000, policy_limit: 200000 },
    expected: { decision: 'deny', payout: 0, wind_band: 'calm-to-gale' },
  },
  {
    name: 'inland flood is excluded',
    skill: 'adjudicate-storm-claim',
    input: { region: 'inland', damage_type: 'flood', wind_speed_mph: 90, claimed_amount: 40000, policy_limit: 200000 },
    expected: { decision: 'deny', payout: 0, matched_rule: 'inland/flood/hurricane' },
  },
  {
    name: 'structural damage in a tropical storm goes to an engineer',
    skill: 'adjudicate-storm-claim',
    input: {
      region: 'coastal',
      damage_type: 'structural',
      wind_speed_mph: 60,
      claimed_amount: 40000,
      policy_limit: 200000,
    },
    expected: { decision: 'refer', payout: 0, reasons: ['engineer inspection required'] },
  },
  {
    name: 'a large approved loss is referred to a senior adjuster',
    skill: 'adjudicate-storm-claim',
    input: {
      region: 'coastal',
      damage_type: 'structural',
      wind_speed_mph: 120,
      claimed_amount: 150000,
      policy_limit: 300000,
      deductible: 5000,
    },
    expected: { decision: 'refer', payout: 0, wind_band: 'major-hurricane' },
  },
  {
    name: 'a loss under the deductible is denied',
    skill: 'adjudicate-storm-claim',
    input: {
      region: 'inland',
      damage_type: 'tree_fall',
      wind_speed_mph: 45,
      claimed_amount: 900,
      policy_limit: 200000,
      deductible: 1000,
    },
    expected: { decision: 'deny', payout: 0 },
  },
  {
    name: 'the payout is capped at the policy limit',
    skill: 'adjudicate-storm-claim',
    input: {
      region: 'coastal',
      damage_type: 'water_intrusion',
      wind_speed_mph: 73.6,
      claimed_amount: 10000,
      policy_limit: 5000,
      deductible: 250,
    },
    expected: { decision: 'approve', payout: 3250, payout_pct: 70, wind_band: 'hurricane' },
  },
  // validate-sample-viability
  {
    name: 'frozen plasma within its window is viable',
    skill: 'validate-sample-viability',
    input: {
      sample_id: 'S-1',
      sample_type: 'plasma',
      storage_temp_c: -80,
      hours_since_collection: 72,
      biomarkers: { hemolysis_index: 12 },
    },
    expected: { sample_id: 'S-1', viable: true, reasons: [], unchecked_biomarkers: [] },
  },
  {
    name: 'warm, hemolysed whole blood fails three checks',
    skill: 'validate-sample-viability',
    input: {
      sample_type: 'whole_blood',
      storage_temp_c: 22,
      hours_since_collection: 30,
      biomarkers: { hemolysis_index: 80, potassium_mmol_l: 7.1 },
    },
    expected: {
      viable: false,
      checks: [
        { check: 'storage_temp_c', passed: false },
        { check: 'hours_since_collection', passed: true },
        { check: 'hemolysis_index', passed: false },
        { check: 'potassium_mmol_l', passed: false },
      ],
    },
  },
  {
    name: 'RNA without a purity ratio is not viable',
    skill: 'validate-sample-viability',
    input: {
      sample_type: 'rna_extract',
      storage_temp_c: -80,
      hours_since_collection: 100,
      biomarkers: { rna_integrity_number: 8.4 },
    },
    expected: { viable: false, reasons: ['a260_a280_ratio was not measured; it is required for rna_extract'] },
  },
  {
    name: 'serum past its stability window is not viable',
    skill: 'validate-sample-viability',
    input: {
      sample_type: 'serum',
      storage_temp_c: 4,
      hours_since_collection: 200,
      biomarkers: { hemolysis_index: 10, lipemia_index: 120, cortisol: 3 },
    },
    expected: {
      viable: false,
      reasons: ['200 hours since collection exceeds the 168-hour stability window for serum'],
      unchecked_biomarkers: ['cortisol'],
    },
  },
  {
    name: 'degraded RNA is not viable',
    skill: 'validate-sample-viability',
    input: {
      sample_type: 'rna_extract',
      storage_temp_c: -80,
      hours_since_collection: 10,
      biomarkers: { rna_integrity_number: 5.2, a260_a280_ratio: 2.0 },
    },
    expected: {
      viable: false,
      checks: [{}, {}, { check: 'a260_a280_ratio', passed: true }, { check: 'rna_integrity_number', passed: false }],
    },
  },
];

/** The one Python script at the top of a seed skill folder. */
export function seedScript(skillDir: string): string {
  const scripts = readdirSync(skillDir).filter((f) => f.endsWith('.py'));
  if (scripts.length !== 1)
    throw new Error(`${skillDir} holds ${scripts.length} Python scripts; a seed skill has exactly one`);
  return path.join(skillDir, scripts[0]!);
}

/** Error from a script that exited non-zero; `stderr` holds its `{"error": …}` line. */
export class SeedScriptError extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(message: string, exitCode: number | null, stderr: string) {
    super(message);
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/**
 * Run the seed skill in `skillDir` with `input` (passed as JSON in argv[1]) and return its
 * parsed JSON output. Python runs with `-B` so no `__pycache__` lands in the skill folder.
 */
export function runSeedSkill(skillDir: string, input: unknown): Promise<Record<string, unknown>> {
  const script = seedScript(skillDir);
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      ['-B', script, JSON.stringify(input)],
      // Another working directory on purpose: scripts must find their data next to themselves.
      { cwd: tmpdir(), env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err) {
          const code = typeof err.code === 'number' ? err.code : null;
          reject(
            new SeedScriptError(
              `${path.basename(script)} exited with ${code ?? err.message}: ${stderr.trim()}`,
              code,
              stderr,
            ),
          );
          return;
        }
        try {
          resolve(JSON.parse(stdout) as Record<string, unknown>);
        } catch {
          reject(new SeedScriptError(`${path.basename(script)} printed no JSON: ${stdout.slice(0, 200)}`, 0, stderr));
        }
      },
    );
  });
}
