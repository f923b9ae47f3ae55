/**
 * The errors skillpress throws, one small set for the library and the CLI. Each carries a
 * stable `code`; the CLI maps `UsageError` to exit 2 and every other one to exit 1. Messages
 * name the file, field or URL involved and say what to do.
 */

export type ErrorCode = 'usage' | 'invalid-input' | 'not-found' | 'integrity' | 'unsafe-path' | 'network';

export class SkillpressError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Bad options or arguments: a missing folder, an output folder that is not ours (exit 2). */
export class UsageError extends SkillpressError {
  constructor(message: string, options?: ErrorOptions) {
    super('usage', message, options);
  }
}

/** Input that breaks a rule: a config file, a feed part, an archive (exit 1). */
export class InvalidInputError extends SkillpressError {
  constructor(message: string, options?: ErrorOptions) {
    super('invalid-input', message, options);
  }
}

/** A skill, file or feed that is not where it was asked for. */
export class NotFoundError extends SkillpressError {
  constructor(message: string, options?: ErrorOptions) {
    super('not-found', message, options);
  }
}

/** Bytes that do not match their published sha256. */
export class IntegrityError extends SkillpressError {
  constructor(message: string, options?: ErrorOptions) {
    super('integrity', message, options);
  }
}

/** A path that would leave its root or is not publishable. */
export class UnsafePathError extends SkillpressError {
  constructor(message: string, options?: ErrorOptions) {
    super('unsafe-path', message, options);
  }
}

/** An HTTP read that failed, was refused (size, redirect, deadline) or answered an error status. */
export class NetworkError extends SkillpressError {
  readonly status: number | undefined;

  constructor(message: string, status?: number, options?: ErrorOptions) {
    super('network', message, options);
    this.status = status;
  }
}
