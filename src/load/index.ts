export { loadCatalog, type LoadOptions } from './load-catalog.ts';
export { parseSkillMarkdown, type FrontMatterResult, type ParsedSkillMarkdown } from './frontmatter.ts';
export { validateFrontMatter, checkName, type ValidationMode } from './validate.ts';
export { storedFile, skippedFile, fileBytes, skillDigest } from './read-file.ts';
export { assembleSkill, isLoadable, type LoadableFrontMatter, type SkillParts } from './assemble-skill.ts';
export {
  readSkillMarkdown,
  type SkillMarkdown,
  type SkillMarkdownOptions,
  type SkillMdProblem,
} from './skill-markdown.ts';
