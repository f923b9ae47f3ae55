/**
 * Type-check `check.ts` in a consumer project as its own tsc would: NodeNext, strict, Node's
 * types from this repository (a consumer installs its own).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export async function typeCheckProject(
  project: string,
  repo: string,
  options: { skipLibCheck: boolean; env?: NodeJS.ProcessEnv },
): Promise<void> {
  await writeFile(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2023',
        strict: true,
        noEmit: true,
        skipLibCheck: options.skipLibCheck,
        types: ['node'],
        typeRoots: [path.join(repo, 'node_modules/@types')],
      },
      files: ['check.ts'],
    }),
  );
  const node = path.join(repo, 'node_modules/.bin/node');
  await promisify(execFile)(node, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', project], {
    cwd: project,
    env: options.env,
    maxBuffer: 16 * 1024 * 1024,
  });
}
