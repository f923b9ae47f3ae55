/**
 * Fixture skills for the site tests, written to a temp folder, and a built site made from
 * them with the real pipeline (`skillpress build`). Holds the awkward cases: file names with
 * `#`, `?`, `%`, spaces and Japanese; an image and a binary file; a hostile skill whose
 * SKILL.md and description try every way to run script.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const NODE = path.join(REPO, 'node_modules/.bin/node');

/** A 2×2 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMAAAA4CAQHvqkzXAAAAAElFTkSuQmCC',
  'base64',
);
/** Bytes that are not UTF-8: stored as base64, offered for download. */
export const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x81, 0x00, 0x42, 0xc3, 0x28, 0x0a]);

/** File names a static host and a browser must both get right. */
export const ODD_NAMES = [
  '#hash ?q%20.txt',
  'spaced out name.md',
  '日本語 ファイル.md',
  'percent%41.txt',
  'notes/100% done?.txt',
];

export interface FixtureSkill {
  name: string;
  frontmatter: string;
  body: string;
  files?: Record<string, string | Buffer>;
}

const skill = (
  name: string,
  description: string,
  meta: Record<string, string>,
  body: string,
  files?: FixtureSkill['files'],
): FixtureSkill => ({
  name,
  frontmatter: [
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    'license: MIT',
    'metadata:',
    ...Object.entries(meta).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`),
  ].join('\n'),
  body,
  files,
});

export const SKILLS: FixtureSkill[] = [
  skill(
    'invoice-reconciler',
    'Matches supplier invoices against purchase orders and goods receipts, and lists every mismatch with the amount at stake.',
    { domain: 'finance', tags: 'invoices, accounting, audit', version: '1.4.0', author: 'Fixture Finance Team' },
    '# Invoice reconciler\n\nRun the three-way match for one invoice.\n\n## Steps\n\n1. Load the invoice.\n2. Compare each line.\n',
    { 'scripts/match.py': 'def match(invoice, order):\n    return invoice == order\n' },
  ),
  skill(
    'expense-auditor',
    'Audits employee expense reports for policy breaches before payroll.',
    { domain: 'finance', tags: 'audit, expenses', version: '0.3.0' },
    // "quokkanomics" appears only here, in the body: the body index must find it.
    '# Expense auditor\n\nFlags claims that break policy. Uses the quokkanomics heuristic for outliers.\n',
  ),
  skill(
    'budget-forecaster',
    'Forecasts next quarter budget lines from the last eight quarters of actuals.',
    { domain: 'finance', tags: 'forecasting, accounting', version: '2.0.0' },
    '# Budget forecaster\n\nFits a seasonal model.\n',
  ),
  skill(
    'pdf-toolkit',
    'Reads text and tables out of PDF documents.',
    { domain: 'documents', tags: 'pdf, parsing', version: '1.0.0' },
    [
      '# PDF toolkit',
      '',
      'Pull the text and the tables out of a PDF so the agent can read them. See [the script](scripts/extract.py) and the [logo](assets/logo.png).',
      '',
      '## When to use',
      '',
      '- A user attaches a PDF and asks what it says.',
      '- A report arrives as PDF and its tables are needed as data.',
      '',
      '## How to run',
      '',
      '```python',
      'from scripts.extract import extract',
      '',
      'text = extract("report.pdf")  # the whole text, page by page',
      'print(text[:500])',
      '```',
      '',
      '| option | meaning |',
      '|---|---|',
      '| `--pages 1-3` | only these pages |',
      '| `--tables` | tables as CSV |',
      '',
      '![logo](assets/logo.png)',
      '',
    ].join('\n'),
    {
      'scripts/extract.py':
        'import sys\n\n\ndef extract(path: str) -> str:\n    """Return the text of a PDF."""\n    return open(path, "rb").read().decode("latin-1")\n\n\nif __name__ == "__main__":\n    print(extract(sys.argv[1]))\n',
      'assets/logo.png': PNG,
      'data/sample.bin': BINARY,
    },
  ),
  skill(
    'odd-file-names',
    'Holds files whose names need careful URL encoding.',
    { domain: 'documents', tags: 'testing', version: '0.1.0' },
    '# Odd file names\n\nEvery file here has a name that breaks naive links.\n',
    Object.fromEntries(ODD_NAMES.map((n, i) => [n, `file ${i}: ${n}\n`])),
  ),
  {
    name: 'xss-attempt',
    frontmatter: [
      'name: xss-attempt',
      `description: ${JSON.stringify('Harmless? <script>window.__xss = "description"</script><img src=x onerror="window.__xss = \'img\'"> <a href="javascript:window.__xss=1">link</a>')}`,
      'license: MIT',
      'metadata:',
      '  domain: "security"',
      '  tags: "testing, <b>bold</b>"',
    ].join('\n'),
    body: [
      '# Hostile content',
      '',
      '<script>window.__xss = "script"; alert("script")</script>',
      '',
      '<img src="x" onerror="window.__xss = \'onerror\'; alert(\'onerror\')">',
      '',
      "[click me](javascript:window.__xss='js-link';alert(1))",
      '',
      '<a href="javascript:alert(2)">raw link</a>',
      '',
      '<iframe src="javascript:alert(3)"></iframe>',
      '',
      '<svg onload="alert(4)"><circle r="5"/></svg>',
      '',
      '<div style="background:url(javascript:alert(5))" onclick="alert(6)">styled</div>',
      '',
      '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '',
      'Safe text survives: **bold** and `code`. The [page](page.html) and the [drawing](evil.svg) are files of this skill.',
      '',
    ].join('\n'),
    files: {
      'evil.html': '<script>window.__xss = "file"; alert("file")</script>\n<img src=x onerror=alert(7)>\n',
      // Opened from the catalog's origin these would run script there (issue 11, row 4).
      'page.html':
        '<!doctype html><title>page</title><script>window.__xss = "page"; parent.__xss = "page"; alert("page")</script>\n<p>$& $\' $` $1</p>\n',
      'evil.svg':
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(\'svg\'); window.__xss = \'svg\'"><script>alert("svg script")</script><circle r="5"/></svg>\n',
    },
  },
];

export async function writeFixtureSkills(root: string, skills: FixtureSkill[] = SKILLS): Promise<void> {
  for (const s of skills) {
    const dir = path.join(root, s.name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), `---\n${s.frontmatter}\n---\n\n${s.body}`);
    for (const [rel, content] of Object.entries(s.files ?? {})) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), content);
    }
  }
}

export interface BuiltFixture {
  skillsDir: string;
  outDir: string;
  /** Builds `skillsDir` into `outDir` again, as a later build would (the previous feed is the one in `outDir`). */
  rebuild(): Promise<void>;
  cleanup(): Promise<void>;
}

/** Write the fixture skills and build them with `skillpress build` (the real CLI). */
export async function buildFixtureSite(
  options: { base?: string; skills?: FixtureSkill[]; config?: unknown } = {},
): Promise<BuiltFixture> {
  const tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-site-'));
  const skillsDir = path.join(tmp, 'skills');
  const outDir = path.join(tmp, 'out');
  await writeFixtureSkills(skillsDir, options.skills);
  if (options.config) {
    await mkdir(path.join(tmp, 'config'), { recursive: true });
    await writeFile(path.join(tmp, 'config', 'skillpress.json'), JSON.stringify(options.config, null, 2));
  }
  const args = [path.join(REPO, 'scripts/skillpress.mjs'), 'build', '--skills', skillsDir, '--out', outDir];
  if (options.base) args.push('--base', options.base);
  // Run from the temp folder: its config/ (if any) applies, else the defaults.
  const build = async (epoch: number): Promise<void> => {
    await run(NODE, args, {
      cwd: tmp,
      env: { ...process.env, CI: 'true', SOURCE_DATE_EPOCH: String(epoch) },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: Error & { stderr?: string; stdout?: string }) => {
      throw new Error(`skillpress build failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
  };
  let epoch = 1767225600; // 2026-01-01; each rebuild a day later
  await build(epoch);
  return {
    skillsDir,
    outDir,
    rebuild: () => build((epoch += 86400)),
    cleanup: () => rm(tmp, { recursive: true, force: true }),
  };
}
