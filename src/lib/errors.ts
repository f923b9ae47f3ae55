/**
 * The errors skillpress throws, one small set for the library and the CLI. Each carries a
 * stable `code`; the CLI maps `UsageError` to exit 2 and every other one to exit 1. Messages
 * name the file, field or URL involved and say what to do.
 */

export type ErrorCode = 'usage' | 'invalid-input' | 'not-found' | 'integrity' | 'unsafe-path' | 'network';

/** `rule`: a short stable id for callers that tell cases of one class apart (`timeout`, `digest-mismatch`). */
export interface ErrorDetails extends ErrorOptions {
  rule?: string;
}

/**
 * The class of every error skillpress throws on purpose: `code` says which kind, `rule` (when
 * set) which case. Anything else thrown is a bug.
 *
 * @example
 * ```ts
 * import { SkillpressError, UsageError, build } from 'skillpress';
 * try {
 *   await build({ skills: 'skills', out: '.' });
 * } catch (err) {
 *   if (err instanceof UsageError) console.error(`usage: ${err.message}`); // out may not be the working folder
 *   else if (err instanceof SkillpressError) console.error(`${err.code}: ${err.message}`);
 *   else throw err;
 * }
 * ```
 */
export class SkillpressError extends Error {
  readonly code: ErrorCode;
  readonly rule: string | undefined;

  constructor(code: ErrorCode, message: string, options?: ErrorDetails) {
    super(message, options);
    this.code = code;
    this.rule = options?.rule;
    this.name = new.target.name;
  }
}

/** Bad options or arguments: a missing folder, an output folder that is not ours (exit 2). */
export class UsageError extends SkillpressError {
  constructor(message: string, options?: ErrorDetails) {
    super('usage', message, options);
  }
}

/** Input that breaks a rule: a config file, a feed part, an archive (exit 1). */
export class InvalidInputError extends SkillpressError {
  constructor(message: string, options?: ErrorDetails) {
    super('invalid-input', message, options);
  }
}

/** A skill, file or feed that is not where it was asked for. */
export class NotFoundError extends SkillpressError {
  constructor(message: string, options?: ErrorDetails) {
    super('not-found', message, options);
  }
}

/** Bytes that do not match their published sha256. */
export class IntegrityError extends SkillpressError {
  constructor(message: string, options?: ErrorDetails) {
    super('integrity', message, options);
  }
}

/** A path that would leave its root or is not publishable. */
export class UnsafePathError extends SkillpressError {
  constructor(message: string, options?: ErrorDetails) {
    super('unsafe-path', message, options);
  }
}

/**
 * An HTTP read that failed, was refused or answered an error status. `rule` says which:
 * `timeout`, `too-large`, `redirect`, `http-status`, `network`, `bad-url`, `bad-port`.
 */
export class NetworkError extends SkillpressError {
  readonly status: number | undefined;

  constructor(message: string, status?: number, options?: ErrorDetails) {
    super('network', message, options);
    this.status = status;
  }
}

/** The message of anything thrown: an Error's message, else the value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
