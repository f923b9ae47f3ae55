/**
 * `skillpress/model`: the zod schemas every stage shares, with their inferred types: a skill
 * and its files, the catalog and its problems, the feed's parts, the configuration. Each name is
 * listed on purpose (see etc/skillpress.api.md); helpers of the stages are in `skillpress/internal`.
 */
// First: on a Node.js too old for skillpress, a clear error instead of a missing built-in.
import '../lib/node-version.ts';
export {
  SKILL_NAME_PATTERN,
  SKILL_NAME_MAX,
  DESCRIPTION_MAX,
  COMPATIBILITY_MAX,
  Visibility,
  FrontMatter,
  RegistryFields,
  Encoding,
  SkillFile,
  HealthStatus,
  SkillSource,
  Health,
  Skill,
  Severity,
  Problem,
  Catalog,
} from './skill.ts';
export {
  FEED_VERSION,
  Card,
  FeedFile,
  ScopedTool,
  ScopedResource,
  FeedSkill,
  Cards,
  FeedPart,
  FeedIndex,
  Change,
  Changes,
  DiscoverySkill,
  DISCOVERY_SCHEMA_URL,
  DiscoveryIndex,
  PUBLISHED_SCHEMAS,
} from './feed.ts';
export { PeerConfig, SkillsConfig, FederationConfig, DuplicatesConfig, SkillpressConfig } from './config.ts';
export { configJsonSchema } from './config-schema.ts';
export {
  NEEDS_VERSION,
  ToolReference,
  RequirementType,
  CompatibilityRequirement,
  ToolStatusValue,
  ToolStatus,
  ToolsStatus,
  SkillNeeds,
} from './requirements.ts';
