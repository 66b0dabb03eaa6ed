/**
 * Typed errors. Each carries a `code` equal to its class name and a one-line
 * message fit for the terminal; `main.ts` maps them to exit codes in one place.
 */
export class GitMemError extends Error {
  readonly code: string = 'GitMemError';
  /** 1: runtime failure, 2: bad usage or input. */
  readonly exitCode: number = 1;
  constructor(
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Bad arguments or input: nothing was written. Exit 2. */
export class UsageError extends GitMemError {
  override readonly code = 'UsageError';
  override readonly exitCode = 2;
}

export class NotFoundError extends GitMemError {
  override readonly code = 'NotFoundError';
}

export class AmbiguousIdError extends GitMemError {
  override readonly code = 'AmbiguousIdError';
  override readonly exitCode = 2;
  constructor(
    query: string,
    readonly candidates: string[],
  ) {
    super(`id '${query}' is ambiguous; candidates: ${candidates.join(', ')}`);
  }
}

export class NotARepositoryError extends GitMemError {
  override readonly code = 'NotARepositoryError';
}

/** A git command failed. */
export class GitError extends GitMemError {
  override readonly code = 'GitError';
  constructor(
    readonly args: string[],
    readonly status: number | null,
    readonly stderr: string,
  ) {
    const first = stderr.trim().split('\n')[0] ?? '';
    super(`git ${args[0] ?? ''} failed${first ? `: ${first.replace(/^(fatal|error): /, '')}` : ''}`);
  }
}

/** A notes ref kept moving under us past the retry budget. */
export class ConflictError extends GitMemError {
  override readonly code = 'ConflictError';
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
