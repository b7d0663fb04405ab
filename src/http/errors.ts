/**
 * Typed errors: a status, a machine-readable code, and whether the operator should hear about it.
 * One handler (plugins/errors.ts) turns them into responses.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly report = false,
    /** For the reader's page: what the message's translation fills in (a write refusal's kind and wait). */
    readonly values: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** One entry of the SPEC 7 validation body. */
export interface ValidationIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A 422 raised by a handler for a rule JSON Schema cannot express (an ISBN check digit). */
export class ValidationProblem extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => issue.msg).join('; '));
    this.name = 'ValidationProblem';
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
