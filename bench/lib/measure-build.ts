/**
 * Run one build() in this process and print, as JSON on the last line of stdout, this
 * process's peak RSS and the build's result. Benchmarks spawn it (under the shell's
 * `ulimit -n`) so every build starts cold, as `skillpress build` does, with its own RSS.
 *
 *   node bench/lib/measure-build.ts <skills> <out> [--site]
 */
import { build } from '../../src/build.ts';
import { SkillpressConfig } from '../../src/model/config.ts';

const [skills, out, site] = process.argv.slice(2);
const result = await build({ skills, out, site: site === '--site', config: SkillpressConfig.parse({}) });
// maxRSS is in kilobytes.
process.stdout.write(`${JSON.stringify({ rssMB: process.resourceUsage().maxRSS / 1024, result })}\n`);
