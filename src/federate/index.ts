/**
 * Federation: merge skills from peer feeds and SKILL.md URLs into the local catalog.
 *
 * Local skills always win a name; then skills registered by URL; then imported skills by the
 * shortest route (a peer's own skill before one it re-exports), then config order. The same
 * skill reaching us by several routes is imported once; a different skill of the same name is a
 * `federation-name-clash` warning, and so is every rejected item (naming its peer or URL and the
 * rule), so a hostile or broken peer never fails the build. Nothing is written outside
 * `cacheDir`.
 */
import type { Catalog, Problem, Skill } from '../model/skill.ts';
import type { SkillpressConfig } from '../model/config.ts';
import { sortProblems } from '../load/load-catalog.ts';
import { Cache } from '../feed-reader/cache.ts';
import { importPeer, type PeerImport } from './peer.ts';
import { importSkillUrl } from './skill-url.ts';
import { checkOrigins } from './origin.ts';

export { importPeer } from './peer.ts';
export { rawSkillUrl, isTrusted, importSkillUrl } from './skill-url.ts';

export interface FederateOptions {
  /** Folder for the conditional-request cache (ETag / Last-Modified and verified bodies). */
  cacheDir: string;
  log?: (line: string) => void;
  /** Check time for health and cache entries (tests pin it). */
  now?: Date;
}

/**
 * Add the skills of the peers and SKILL.md URLs `config.federation` names to `catalog`: each
 * feed is read through the guarded HTTP client, every byte checked against its digest, and
 * cached in `cacheDir`. A peer that fails or sends something invalid costs a warning in
 * `problems`, never the build.
 *
 * @example
 * ```ts
 * import { federate, loadCatalog, loadConfig } from 'skillpress';
 * const config = await loadConfig('config');
 * const local = await loadCatalog('skills');
 * const catalog = await federate(local, config, { cacheDir: '.cache/federation', log: console.error });
 * console.log(`${catalog.skills.length - local.skills.length} imported`);
 * ```
 */
export async function federate(catalog: Catalog, config: SkillpressConfig, opts: FederateOptions): Promise<Catalog> {
  const fed = config.federation;
  if (fed.peers.length === 0 && fed.skill_urls.length === 0) return catalog;
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const cache = new Cache(opts.cacheDir);
  const limits = { cache, timeoutMs: fed.timeout_ms, maxBytes: fed.max_bytes, now };

  // Fetch everything concurrently, merge in a fixed order so the result does not depend on timing.
  const [urlResults, peerResults] = await Promise.all([
    Promise.all(
      fed.skill_urls.map((url) =>
        importSkillUrl(url, { ...limits, trustedDomains: fed.trusted_domains, registry: config.registry.name }),
      ),
    ),
    Promise.all(
      fed.peers.map((peer) =>
        importPeer(peer, {
          ...limits,
          maxPeerBytes: fed.max_peer_bytes,
          peerTimeoutMs: fed.peer_timeout_ms,
          registry: config.registry.name,
        }),
      ),
    ),
  ]);

  const merged = new Merge(catalog);
  fed.skill_urls.forEach((url, i) => {
    const result = urlResults[i]!;
    merged.problems.push(...result.problems);
    if (result.skill) merged.add(result.skill, `registered by URL (${url})`, `url:${url}`, 'SKILL.md');
  });
  const origins = checkOrigins(fed.peers, peerResults, fed.origin_keys);
  merged.problems.push(...origins.problems);
  const candidates = fed.peers.flatMap((peer, i) =>
    origins.kept[i]!.map((skill) => ({ skill, peer: peer.name, order: i })),
  );
  // Shorter routes first, then config order (a stable sort keeps each peer's own order).
  candidates.sort((a, b) => routeLength(a.skill) - routeLength(b.skill) || a.order - b.order);
  const counts = fed.peers.map(() => ({ imported: 0, otherRoutes: 0 }));
  for (const { skill, peer, order } of candidates) {
    if (merged.sameSkillKept(skill)) counts[order]!.otherRoutes++;
    else if (merged.add(skill, `imported from peer "${peer}"`, `peer:${peer}`, `skills/${skill.id}`))
      counts[order]!.imported++;
  }
  fed.peers.forEach((_, i) => merged.problems.push(...peerResults[i]!.problems));
  // Each peer's line is written once its skills went through the origin check and the merge, so
  // it counts what was imported and every problem (the warnings say which and why).
  fed.peers.forEach((peer, i) => {
    const problems = merged.problems.filter((p) => p.skill === `peer:${peer.name}`).length;
    log(peerLine(peer.name, peerResults[i]!, { ...counts[i]!, problems }));
  });
  if (fed.skill_urls.length > 0) {
    const healthy = urlResults.filter((r) => r.skill?.health.status === 'healthy').length;
    log(
      `skill URLs: ${urlResults.filter((r) => r.skill).length} of ${fed.skill_urls.length} loaded, ${healthy} healthy`,
    );
  }
  return { skills: merged.skills, problems: sortProblems(merged.problems) };
}

/** Registries between a skill's origin and us (0: imported from its origin). */
const routeLength = (skill: Skill): number => (skill.source.kind === 'peer' ? (skill.source.via?.length ?? 0) : 0);

/**
 * One peer's line in the build log: the skills it sent, how many of them were imported when not
 * all (the origin check, a shorter route or a name clash kept the others out), and its problems.
 */
function peerLine(
  name: string,
  result: PeerImport,
  counts: { imported: number; otherRoutes: number; problems: number },
): string {
  const { imported, otherRoutes, problems } = counts;
  const sent = result.skills.length;
  return (
    `peer ${name}: ${sent} skill(s) ` +
    `${result.fromCache ? `served from the cache (unreachable; copy verified on ${result.fromCache})` : 'fetched'}` +
    `${imported < sent ? `, ${imported === 0 ? 'none' : imported} imported` : ''}` +
    `, ${result.requests} request(s)` +
    `${result.notModified ? ', index not modified' : ''}` +
    `${otherRoutes ? `, ${otherRoutes} already imported by a shorter route` : ''}` +
    `${problems ? `, ${problems} problem(s)` : ''}`
  );
}

/** The catalog being merged: who holds each name, and the clashes. */
class Merge {
  readonly skills: Skill[];
  readonly problems: Problem[];
  readonly #holders = new Map<string, { skill: Skill | undefined; description: string }>();

  constructor(local: Catalog) {
    this.skills = [...local.skills];
    this.problems = [...local.problems];
    for (const s of local.skills) this.#holders.set(s.name, { skill: undefined, description: 'a local skill' });
  }

  /** Whether the skill holding this name is the same skill (same origin, same id), imported by another route. */
  sameSkillKept(skill: Skill): boolean {
    const held = this.#holders.get(skill.name)?.skill;
    return (
      held !== undefined && held.source.kind === 'peer' && held.registry === skill.registry && held.id === skill.id
    );
  }

  /** Add the skill unless a skill holding its name is kept (a name clash, reported): whether it was added. */
  add(skill: Skill, description: string, problemSkill: string, item: string): boolean {
    const holder = this.#holders.get(skill.name);
    if (holder) {
      this.problems.push({
        severity: 'warning',
        skill: problemSkill,
        file: item,
        rule: 'federation-name-clash',
        message: `${description.replace(/^imported from /, '')}: "${skill.name}" is already ${holder.description}; that one is kept and this one is not imported`,
      });
      return false;
    }
    this.#holders.set(skill.name, { skill, description });
    this.skills.push(skill);
    return true;
  }
}
