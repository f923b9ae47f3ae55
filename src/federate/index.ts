/**
 * Federation: merge skills from peer feeds and SKILL.md URLs into the local catalog.
 *
 * Local skills always win a name clash; then skills registered by URL; then peers in config
 * order. Every clash and every rejected item is a warning Problem naming its peer (or URL) and
 * item, so a hostile or broken peer never fails the build. Nothing is written outside
 * `cacheDir`.
 */
import type { Catalog, Problem, Skill } from '../model/skill.ts';
import type { SkillpressConfig } from '../model/config.ts';
import { sortProblems } from '../load/load-catalog.ts';
import { Cache } from './cache.ts';
import { importPeer } from './peer.ts';
import { importSkillUrl } from './skill-url.ts';

export { feedIndexUrl, importPeer } from './peer.ts';
export { rawSkillUrl, isTrusted, importSkillUrl } from './skill-url.ts';

export interface FederateOptions {
  /** Folder for the conditional-request cache (ETag / Last-Modified and verified bodies). */
  cacheDir: string;
  log?: (line: string) => void;
  /** Check time for health and cache entries (tests pin it). */
  now?: Date;
}

export async function federate(catalog: Catalog, config: SkillpressConfig, opts: FederateOptions): Promise<Catalog> {
  const fed = config.federation;
  if (fed.peers.length === 0 && fed.skill_urls.length === 0) return catalog;
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const cache = new Cache(opts.cacheDir);
  const limits = { cache, timeoutMs: fed.timeout_ms, maxBytes: fed.max_bytes, now };

  const skills = [...catalog.skills];
  const problems: Problem[] = [...catalog.problems];
  const owner = new Map<string, string>(skills.map((s) => [s.name, 'a local skill']));
  const add = (skill: Skill, from: string, problemSkill: string, item: string): void => {
    const holder = owner.get(skill.name);
    if (holder !== undefined) {
      problems.push({
        severity: 'warning',
        skill: problemSkill,
        file: item,
        rule: 'federation-name-clash',
        message: `${from}: "${skill.name}" is already ${holder}; that one is kept and this one is not imported`,
      });
      return;
    }
    owner.set(skill.name, from.startsWith('peer') ? `imported from ${from}` : `registered by URL (${from})`);
    skills.push(skill);
  };

  // Fetch everything concurrently, merge in a fixed order so the result does not depend on timing.
  const [urlResults, peerResults] = await Promise.all([
    Promise.all(fed.skill_urls.map((url) => importSkillUrl(url, { ...limits, trustedDomains: fed.trusted_domains, registry: config.registry.name }))),
    Promise.all(fed.peers.map((peer) => importPeer(peer, { ...limits, maxPeerBytes: fed.max_peer_bytes }))),
  ]);

  fed.skill_urls.forEach((url, i) => {
    const result = urlResults[i]!;
    problems.push(...result.problems);
    if (result.skill) add(result.skill, url, `url:${url}`, 'SKILL.md');
  });
  fed.peers.forEach((peer, i) => {
    const result = peerResults[i]!;
    problems.push(...result.problems);
    for (const skill of result.skills) add(skill, `peer "${peer.name}"`, `peer:${peer.name}`, `skills/${skill.id}`);
    log(
      `peer ${peer.name}: ${result.skills.length} skill(s) fetched, ${result.requests} request(s)` +
        `${result.notModified ? ', index not modified' : ''}${result.problems.length ? `, ${result.problems.length} problem(s)` : ''}`,
    );
  });
  if (fed.skill_urls.length > 0) {
    const healthy = urlResults.filter((r) => r.skill?.health.status === 'healthy').length;
    log(`skill URLs: ${urlResults.filter((r) => r.skill).length} of ${fed.skill_urls.length} loaded, ${healthy} healthy`);
  }
  return { skills, problems: sortProblems(problems) };
}
