/**
 * Origin verification across hops. Every imported skill names its origin registry; it counts as
 * verified from that origin only when the origin's signed statement (registry, id, content
 * digest) checks out against the origin's key: the one pinned in the config
 * (`peers[].public_key`, `federation.origin_keys`), else the one the origin's own feed publishes
 * when it is a direct peer that answered in this build (or, unreachable, is served from the copy
 * of its feed last verified in the cache). A middle peer cannot forge it: altering
 * the skill changes its digest, claiming another registry needs that registry's key.
 *
 * Two refusals on top: a direct peer whose feed names another key than the pinned one is not
 * imported, and a copy of a direct peer's skill that reached us through someone else is imported
 * only when verified, so the peer's absence never lets another registry's copy stand in for it.
 */
import type { PeerConfig } from '../model/config.ts';
import type { Problem, Skill } from '../model/skill.ts';
import { signatureProblem } from '../lib/signing.ts';
import type { PeerImport } from './peer.ts';

export interface OriginCheck {
  /** Each peer's skills that are kept, in the peers' order, with `origin_verified` set. */
  kept: Skill[][];
  problems: Problem[];
}

export function checkOrigins(
  peers: readonly PeerConfig[],
  results: readonly PeerImport[],
  originKeys: Readonly<Record<string, string>>,
): OriginCheck {
  const problems: Problem[] = [];
  const warn = (peer: string, file: string, rule: string, message: string): void =>
    void problems.push({ severity: 'warning', skill: `peer:${peer}`, file, rule, message });
  const mismatched = new Set<string>();
  const keys = new Map<string, string>(Object.entries(originKeys));
  peers.forEach((peer, i) => {
    const published = results[i]!.publisher?.public_key;
    if (peer.public_key !== undefined) {
      keys.set(peer.name, peer.public_key);
      if (results[i]!.publisher && published !== peer.public_key) {
        mismatched.add(peer.name);
        warn(
          peer.name,
          'index.json',
          'peer-key-mismatch',
          `peer "${peer.name}": its feed names the key ${published ?? '(none)'}, but the config pins ${peer.public_key}; none of its skills are imported`,
        );
      }
    } else if (published !== undefined && !keys.has(peer.name)) keys.set(peer.name, published);
  });
  const direct = new Set(peers.map((p) => p.name));
  // What direct peers delivered themselves: another route's copy of one of these is dropped by the merge anyway.
  const delivered = new Set(
    peers.flatMap((peer, i) =>
      mismatched.has(peer.name) ? [] : results[i]!.skills.filter(isOwn).map((s) => `${peer.name}/${s.id}`),
    ),
  );
  const kept = peers.map((peer, i) => {
    if (mismatched.has(peer.name)) return [];
    return results[i]!.skills.filter((skill) => {
      const why = verify(skill, keys.get(skill.registry), results[i]!.publisher?.name);
      if (skill.source.kind === 'peer') skill.source.origin_verified = why === undefined;
      const via = skill.source.kind === 'peer' ? (skill.source.via ?? []) : [];
      if (why === undefined || via.length === 0 || !direct.has(skill.registry)) return true;
      if (delivered.has(`${skill.registry}/${skill.id}`)) return true;
      warn(
        peer.name,
        `skills/${skill.id}`,
        'federation-unverified-origin',
        `peer "${peer.name}": "${skill.id}" claims to come from "${skill.registry}", a direct peer, but ${why}; only "${skill.registry}" itself or its signature can vouch for its skills, so this copy is not imported`,
      );
      return false;
    });
  });
  return { kept, problems };
}

/** A peer's own skill (not one it re-exports). */
const isOwn = (skill: Skill): boolean => skill.source.kind === 'peer' && (skill.source.via ?? []).length === 0;

/** Why the skill's origin is not verified; undefined when it is. */
function verify(skill: Skill, key: string | undefined, publisher: string | undefined): string | undefined {
  if (skill.source.kind !== 'peer') return 'it was not imported from a peer';
  if (key === undefined) return `no key is known for "${skill.registry}" (pin it, or federate it directly)`;
  // A peer's own skill: its statement names the registry the peer calls itself, whatever name our config gives it.
  const registry = isOwn(skill) && publisher !== undefined ? publisher : skill.registry;
  return signatureProblem(skill.source.origin_signature, { registry, id: skill.id, digest: skill.digest }, key);
}
