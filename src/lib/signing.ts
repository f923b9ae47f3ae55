/**
 * Origin signatures: a registry signs, per skill, the statement "registry R publishes skill S
 * with content digest D" with its ed25519 key. The statement names neither the feed nor the
 * route, so a re-exporter passes the origin's signature through unchanged and any registry
 * further along can check it against the origin's public key (pinned in its config, or read
 * from the origin's own feed when the origin is a direct peer). Keys are written
 * `ed25519:<base64url of the 32 raw bytes>`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidInputError, UsageError, errorMessage } from './errors.ts';
import { isInsideDir } from './fs.ts';

/** What a signature covers. */
export interface OriginStatement {
  registry: string;
  id: string;
  /** The skill's content digest (`sha256:<hex>` over every stored file's path and sha256). */
  digest: string;
}

/** A statement with its signature, as published in a skill JSON. */
export interface OriginSignature extends OriginStatement {
  /** The signing key, `ed25519:<base64url>` (which key signed; never a reason to trust it). */
  key: string;
  /** ed25519 signature of the statement's canonical bytes, base64url. */
  signature: string;
}

const PUBLIC_KEY = /^ed25519:[A-Za-z0-9_-]{43}$/;

/** The exact bytes signed: one line per field, in a fixed order, under a version tag. */
export function statementBytes(s: OriginStatement): Buffer {
  return Buffer.from(`skillpress-origin-v1\nregistry ${s.registry}\nid ${s.id}\ndigest ${s.digest}\n`, 'utf8');
}

/** `ed25519:<base64url>` of a public key. */
export function formatPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || !jwk.x) throw new InvalidInputError('not an ed25519 key', { rule: 'signing-key' });
  return `ed25519:${jwk.x}`;
}

/** A public key from its `ed25519:<base64url>` form; undefined when it is not one. */
export function parsePublicKey(text: string): KeyObject | undefined {
  if (!PUBLIC_KEY.test(text)) return undefined;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: text.slice('ed25519:'.length) }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

export const isPublicKey = (text: string): boolean => parsePublicKey(text) !== undefined;

/** Signs statements with one private key. */
export class Signer {
  readonly publicKey: string;
  readonly #key: KeyObject;

  constructor(privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'ed25519')
      throw new InvalidInputError(`the signing key is ${privateKey.asymmetricKeyType ?? 'not'} an ed25519 key`, {
        rule: 'signing-key',
      });
    this.#key = privateKey;
    this.publicKey = formatPublicKey(createPublicKey(privateKey));
  }

  /** A new key, in memory only (tests, one-off builds). */
  static generate(): Signer {
    return new Signer(generateKeyPairSync('ed25519').privateKey);
  }

  /** The private key as PKCS#8 PEM (what `registry.signing_key` holds). */
  pem(): string {
    return this.#key.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  sign(statement: OriginStatement): OriginSignature {
    const { registry, id, digest } = statement;
    const signature = sign(null, statementBytes(statement), this.#key).toString('base64url');
    return { registry, id, digest, key: this.publicKey, signature };
  }
}

/** Why a signature does not prove `expected` under `publicKey`; undefined when it does. */
export function signatureProblem(
  sig: OriginSignature | undefined,
  expected: OriginStatement,
  publicKey: string,
): string | undefined {
  if (!sig) return 'the skill carries no origin signature';
  for (const field of ['registry', 'id', 'digest'] as const) {
    if (sig[field] !== expected[field])
      return `the signature covers ${field} ${JSON.stringify(sig[field])}, not ${JSON.stringify(expected[field])}`;
  }
  const key = parsePublicKey(publicKey);
  if (!key) return `the key ${JSON.stringify(publicKey)} is not an ed25519 public key`;
  let ok: boolean;
  try {
    ok = verify(null, statementBytes(expected), key, Buffer.from(sig.signature, 'base64url'));
  } catch {
    ok = false; // a malformed signature
  }
  return ok ? undefined : `the signature does not verify against ${publicKey}`;
}

/** Where the signing key must not be: folders that are published or restored from shared caches. */
export interface KeyPlacement {
  /** Folders the key file may not be inside (the output, `.cache/`). */
  forbidden: string[];
  log?: (line: string) => void;
}

/**
 * The registry's signer: the PEM in `SKILLPRESS_SIGNING_KEY` when set (CI secrets), else the
 * PKCS#8 PEM file at `file`, made (mode 0600) when it does not exist yet. A file inside a
 * published or cached folder is refused.
 */
export function loadSigner(
  file: string | undefined,
  placement: KeyPlacement,
  env: { SKILLPRESS_SIGNING_KEY?: string | undefined } = {},
): Signer | undefined {
  const fromEnv = env.SKILLPRESS_SIGNING_KEY;
  if (fromEnv) return new Signer(readPrivateKey(fromEnv, 'SKILLPRESS_SIGNING_KEY'));
  if (!file) return undefined;
  const abs = path.resolve(file);
  const inside = placement.forbidden.find((dir) => isInsideDir(abs, dir));
  if (inside)
    throw new UsageError(
      `registry.signing_key ${abs} is inside ${path.resolve(inside)}, which is published or cached; keep the key outside both`,
    );
  if (!existsSync(abs)) {
    const signer = Signer.generate();
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, signer.pem(), { mode: 0o600, flag: 'wx' });
    placement.log?.(`signing key made at ${abs}; its public key is ${signer.publicKey} (peers can pin it)`);
    return signer;
  }
  return new Signer(readPrivateKey(readFileSync(abs, 'utf8'), abs));
}

function readPrivateKey(pem: string, where: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (err) {
    throw new InvalidInputError(`${where}: not a PEM private key (${errorMessage(err)})`, { rule: 'signing-key' });
  }
}
