/**
 * Index names and definitions. The mappings and settings live in `config/` (the seed's
 * files); readers use the aliases, ingest writes versioned indexes behind them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../../lib/errors.ts';

/** The two aliases readers query. Tests give each suite its own pair. */
export interface IndexNames {
  skills: string;
  files: string;
}

export const DEFAULT_NAMES: IndexNames = { skills: 'agent_skills', files: 'agent_skill_files' };

export function indexNames(overrides: Partial<IndexNames> = {}): IndexNames {
  return { ...DEFAULT_NAMES, ...overrides };
}

export interface IndexDefinition {
  mappings: Record<string, unknown> & { properties: Record<string, { type?: string } & Record<string, unknown>> };
  settings: Record<string, unknown>;
}

export interface IndexDefinitions {
  skills: IndexDefinition;
  files: IndexDefinition;
}

/** The project's own `config/`, used when no other folder is given. */
export const PACKAGE_CONFIG_DIR = fileURLToPath(new URL('../../../config/', import.meta.url));

async function readJson(file: string): Promise<Record<string, unknown>> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? errorMessage(err)}`, { cause: err });
  }
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${file}: not valid JSON: ${errorMessage(err)}`, { cause: err });
  }
}

export async function loadIndexDefinitions(configDir: string = PACKAGE_CONFIG_DIR): Promise<IndexDefinitions> {
  const [skillsMappings, skillsSettings, filesMappings, filesSettings] = await Promise.all(
    ['index_mappings.json', 'index_settings.json', 'skill_files_mappings.json', 'skill_files_settings.json'].map((f) =>
      readJson(path.join(configDir, f)),
    ),
  );
  return {
    skills: { mappings: skillsMappings as IndexDefinition['mappings'], settings: skillsSettings! },
    files: { mappings: filesMappings as IndexDefinition['mappings'], settings: filesSettings! },
  };
}

/** The same mappings with `semantic_content` as a plain `text` field, for clusters without inference. */
export function withoutSemanticText(def: IndexDefinition): IndexDefinition {
  const properties = Object.fromEntries(
    Object.entries(def.mappings.properties).map(([name, field]) => [
      name,
      field.type === 'semantic_text' ? { type: 'text' } : field,
    ]),
  );
  return { ...def, mappings: { ...def.mappings, properties } };
}

/** The usage events index (`skillpress mcp --usage <URL>`): one document per event, its id the event's. */
export const USAGE_INDEX = 'agent_skill_usage';

export async function loadUsageIndexDefinition(configDir: string = PACKAGE_CONFIG_DIR): Promise<IndexDefinition> {
  const [mappings, settings] = await Promise.all(
    ['usage_mappings.json', 'usage_settings.json'].map((f) => readJson(path.join(configDir, f))),
  );
  return { mappings: mappings as IndexDefinition['mappings'], settings: settings! };
}
