/**
 * Making usage events: the user only as a salted hash, an id per event, nothing from the
 * request or the conversation.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { USAGE_VERSION, type UsageEvent } from '../model/usage.ts';

/** What every event of one server shares. */
export interface EventContext {
  /** The salted hash of the user (see `userHash`). */
  user?: string;
}

/** What a caller says of one event; the rest (`v`, `id`, `at`, `user`) is filled in. */
export type EventInput =
  | Omit<Extract<UsageEvent, { type: 'load' }>, 'v' | 'id' | 'at' | 'user'>
  | Omit<Extract<UsageEvent, { type: 'outcome' }>, 'v' | 'id' | 'at' | 'user'>;

export function makeEvent(input: EventInput, ctx: EventContext, now = new Date()): UsageEvent {
  const event = { v: USAGE_VERSION, id: randomUUID(), at: now.toISOString(), ...input } as UsageEvent;
  if (ctx.user !== undefined) event.user = ctx.user;
  return event;
}

/**
 * The user as 32 hex digits of sha256(salt, user): the same user gives the same hash under one
 * salt (so one person's ratings count once), and the name cannot be read back without the salt.
 */
export function userHash(user: string, salt: string): string {
  return createHash('sha256').update(salt).update('\0').update(user).digest('hex').slice(0, 32);
}

/** Who is using the server: SKILLPRESS_USAGE_USER, else the account and host name. */
export function currentUser(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLPRESS_USAGE_USER) return env.SKILLPRESS_USAGE_USER;
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry (some containers): the host alone
  }
  return `${name}@${hostname()}`;
}

/**
 * The salt: SKILLPRESS_USAGE_SALT, else `configured` (`analytics.salt`), else one made at random
 * once and kept in `saltFile` (readable by its owner only), so hashes stay stable between runs.
 */
export function usageSalt(saltFile: string, configured?: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env.SKILLPRESS_USAGE_SALT || configured;
  if (given) return given;
  try {
    const kept = readFileSync(saltFile, 'utf8').trim();
    if (kept) return kept;
  } catch {
    // not made yet
  }
  const salt = randomBytes(16).toString('hex');
  mkdirSync(path.dirname(saltFile), { recursive: true });
  try {
    writeFileSync(saltFile, `${salt}\n`, { mode: 0o600, flag: 'wx' });
    return salt;
  } catch (err) {
    // Another server made it first: use theirs, so both hash users alike.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(saltFile, 'utf8').trim();
  }
}
