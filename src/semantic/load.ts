/**
 * Loads the static embedding model shipped in the package (models/static-bge-small/): its
 * manifest, the tokenizer and the vectors, each checked against the manifest's sha256 — a
 * truncated or swapped file is an error, never a silently worse ranking. Loaded once per process,
 * on first use: the MCP server answers tools/list before anything here runs.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Tokenizer } from '@huggingface/tokenizers';
import { IntegrityError } from '../lib/errors.ts';
import { sha256Hex } from '../lib/hash.ts';
import { parseJson } from '../lib/json.ts';
import { Embedder } from './embedder.ts';

export const MODEL_DIR = fileURLToPath(new URL('../../models/static-bge-small/', import.meta.url));

const Manifest = z.object({
  name: z.string(),
  dims: z.number().int().positive(),
  vocab_size: z.number().int().positive(),
  sha256: z.object({
    'vectors.bin': z.string().regex(/^[0-9a-f]{64}$/),
    'tokenizer.json': z.string().regex(/^[0-9a-f]{64}$/),
  }),
});

let loaded: Promise<Embedder> | undefined;

/**
 * The static embedding model shipped in the package (`models/static-bge-small/`), loaded once per
 * process, every file checked against its manifest's sha256 (an {@link IntegrityError} otherwise).
 * `dir`: another model folder of the same layout.
 *
 * @example
 * ```ts
 * import { loadEmbedder } from 'skillpress';
 * const embedder = await loadEmbedder();
 * console.log(embedder.dims, embedder.embed('fill a pdf form').length);
 * ```
 */
export function loadEmbedder(dir = MODEL_DIR): Promise<Embedder> {
  if (dir !== MODEL_DIR) return readModel(dir);
  loaded ??= readModel(dir);
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

async function readModel(dir: string): Promise<Embedder> {
  const manifest = parseJson(await readFile(`${dir}model.json`), Manifest, `${dir}model.json`);
  const [vectors, tokenizer] = await Promise.all([
    checked(dir, 'vectors.bin', manifest.sha256['vectors.bin']),
    checked(dir, 'tokenizer.json', manifest.sha256['tokenizer.json']),
  ]);
  const rows = manifest.vocab_size;
  if (vectors.byteLength !== rows * 4 + rows * manifest.dims)
    throw new IntegrityError(
      `${dir}vectors.bin: ${vectors.byteLength} bytes, expected ${rows * (4 + manifest.dims)} for ${rows} rows of ${manifest.dims}`,
    );
  // Copied out of the file's buffer: Float32Array needs 4-byte alignment, and the copy is small.
  const scales = new Float32Array(vectors.buffer.slice(vectors.byteOffset, vectors.byteOffset + rows * 4));
  const values = new Int8Array(vectors.buffer, vectors.byteOffset + rows * 4, rows * manifest.dims);
  return new Embedder(new Tokenizer(JSON.parse(tokenizer.toString('utf8')), {}), {
    dims: manifest.dims,
    scales,
    values,
  });
}

async function checked(dir: string, name: string, sha256: string): Promise<Buffer> {
  const bytes = await readFile(`${dir}${name}`);
  const actual = sha256Hex(bytes);
  if (actual !== sha256)
    throw new IntegrityError(
      `${dir}${name}: sha256 ${actual} does not match model.json's ${sha256}; reinstall skillpress`,
      { rule: 'digest-mismatch' },
    );
  return bytes;
}
