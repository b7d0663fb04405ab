import type { FastifyRequest } from 'fastify';

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function messageFor(issue: AjvIssue): string {
  const params = issue.params ?? {};
  switch (issue.keyword) {
    case 'required':
      return 'Required.';
    case 'type':
      return params.type === 'integer' || params.type === 'number'
        ? 'Enter a whole number.'
        : 'Invalid value.';
    case 'maxLength':
      return `At most ${String(params.limit)} characters.`;
    case 'minLength':
      return 'Required.';
    case 'minimum':
      return `At least ${String(params.limit)}.`;
    case 'maximum':
      return `At most ${String(params.limit)}.`;
    case 'enum':
    case 'const':
    case 'anyOf':
      return 'Choose one of the options.';
    default:
      return issue.message ? `Invalid: ${issue.message}.` : 'Invalid value.';
  }
}

/**
 * The route's body schema failed (attachValidation): the field name → a human message, so the form
 * can be shown again with each error beside its field instead of a raw 422.
 */
export function schemaErrors(request: FastifyRequest): Record<string, string> | null {
  const failure = request.validationError as (Error & { validation?: AjvIssue[] }) | undefined;
  if (!failure) return null;
  const errors: Record<string, string> = {};
  for (const issue of failure.validation ?? []) {
    const missing = typeof issue.params?.missingProperty === 'string' ? issue.params.missingProperty : null;
    const name = missing ?? issue.instancePath?.split('/')[1] ?? '_form';
    errors[name] ??= messageFor(issue);
  }
  if (Object.keys(errors).length === 0) errors._form = 'Check the form and try again.';
  return errors;
}

/** Raw submitted values, to refill the form exactly as typed. */
export function submitted(request: FastifyRequest): Record<string, string> {
  const body = request.body;
  if (!body || typeof body !== 'object') return {};
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key !== '_csrf' && value !== null && value !== undefined) values[key] = String(value);
  }
  return values;
}
