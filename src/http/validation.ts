import type { Ajv } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import { type Static, type TInteger, type TNumberOptions, type TObject, type TSchema, Type } from 'typebox';
import { type Isbn, parseIsbn } from '../domain/isbn.js';
import { type ValidationIssue, ValidationProblem } from './errors.js';

const INT_MAX = 2_147_483_647;
const INT_MIN = -INT_MAX - 1;

/**
 * The keyword behind `Integer`: a finite whole number a 32-bit database column holds. Ajv's own
 * `integer` lets the strings "Infinity" and "1e309" through when it coerces a query or path value (its
 * later `minimum`/`maximum` checks skip non-finite numbers), so this runs on the coerced value.
 */
export const INT32_KEYWORD = 'x-int32';

const isInt32 = (value: unknown): boolean =>
  typeof value !== 'number' || (Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX);

/** Ajv plugin (Fastify's `ajv.plugins`) that defines `x-int32`. */
export function int32Keyword(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: INT32_KEYWORD,
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, value: unknown) => !enabled || isInt32(value),
  });
  return ajv;
}

/**
 * The integer of every request schema (query, path and body): refuses `Infinity`, `-Infinity`, `NaN`
 * and anything beyond 32 bits with SPEC 7's 422, whatever the route.
 */
/**
 * An optional value that may also be null, for request bodies. Null is the first branch: with
 * `coerceTypes`, Ajv tries the branches in order, and an integer or string branch first would turn a
 * JSON `null` into 0 or "" (`{"book_id": null}` read as book 0) before the null branch is reached.
 */
export const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([Type.Null(), schema]));

/** A body with every field its schema names, those a client left out as null (as the services take them). */
export type AbsentAsNull<T> = {
  [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K];
};

/** `body` with exactly `schema`'s fields, a left-out `Nullable` one as null; anything else is dropped. */
export function absentAsNull<S extends TObject>(schema: S, body: Static<S>): AbsentAsNull<Static<S>> {
  const fields = body as Record<string, unknown>;
  const entries = Object.keys(schema.properties).map((key) => [key, fields[key] ?? null]);
  return Object.fromEntries(entries) as AbsentAsNull<Static<S>>;
}

export const Integer = (options: TNumberOptions = {}): TInteger =>
  Type.Integer({ format: 'int32', ...options, [INT32_KEYWORD]: true });

const LOCATION: Record<string, string> = {
  querystring: 'query',
  params: 'path',
  body: 'body',
  headers: 'header',
};

/** SPEC 7's name of a Fastify validation context: querystring → query, params → path. */
export const locationOf = (context: string): string => LOCATION[context] ?? context;

const TYPE_ERRORS: Record<string, [type: string, msg: string]> = {
  integer: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  number: ['float_parsing', 'Input should be a valid number, unable to parse string as a number'],
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  null: ['none_required', 'Input should be None'],
};

/** Ajv's single-limit keywords: the stable type, the ctx key and the message of each. */
const LIMITS: Record<
  'maxLength' | 'minLength' | 'minimum' | 'maximum',
  [type: string, ctxKey: string, message: (limit: number) => string]
> = {
  maxLength: ['string_too_long', 'max_length', (n) => `String should have at most ${n} characters`],
  minLength: [
    'string_too_short',
    'min_length',
    (n) => `String should have at least ${n} character${n === 1 ? '' : 's'}`,
  ],
  minimum: ['greater_than_equal', 'ge', (n) => `Input should be greater than or equal to ${n}`],
  maximum: ['less_than_equal', 'le', (n) => `Input should be less than or equal to ${n}`],
};

/** The `x-int32` refusal: not a number at all (Infinity, NaN), or beyond a 32-bit integer. */
function int32Issue(loc: Array<string | number>, input: unknown): ValidationIssue {
  if (typeof input !== 'number' || !Number.isFinite(input)) {
    const [type, msg] = TYPE_ERRORS.integer ?? ['int_parsing', 'Invalid integer'];
    return { type, loc, msg, input: String(input) };
  }
  const [type, ctxKey, message] = input > INT_MAX ? LIMITS.maximum : LIMITS.minimum;
  const limit = input > INT_MAX ? INT_MAX : INT_MIN;
  return { type, loc, msg: message(limit), input, ctx: { [ctxKey]: limit } };
}

function pathSegments(instancePath: string): Array<string | number> {
  if (!instancePath) return [];
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function valueAt(root: unknown, segments: Array<string | number>): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function typeNames(params: Record<string, unknown>): string[] {
  const type = params.type;
  if (Array.isArray(type)) return type.map(String);
  return typeof type === 'string' ? type.split(',') : [];
}

/** Maps one Ajv error to a SPEC 7 entry with a stable, machine-readable type. */
function toIssue(
  error: FastifySchemaValidationError,
  location: string,
  data: unknown,
): ValidationIssue | null {
  const segments = pathSegments(error.instancePath);
  const loc: Array<string | number> = [location, ...segments];
  const input = valueAt(data, segments);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      return { type: 'missing', loc: [...loc, field], msg: 'Field required', input: input ?? null };
    }
    case 'maxLength':
    case 'minLength':
    case 'minimum':
    case 'maximum': {
      const [type, ctxKey, message] = LIMITS[error.keyword];
      return { type, loc, msg: message(Number(params.limit)), input, ctx: { [ctxKey]: params.limit } };
    }
    case 'maxItems':
    case 'minItems': {
      const most = error.keyword === 'maxItems';
      const length = Array.isArray(input) ? input.length : null;
      const msg = most
        ? `List should have at most ${params.limit} items after validation, not ${length ?? 'more'}`
        : `List should have at least ${params.limit} item${params.limit === 1 ? '' : 's'} after validation, not ${length ?? 0}`;
      return {
        type: most ? 'too_long' : 'too_short',
        loc,
        msg,
        input,
        ctx: {
          field_type: 'List',
          [most ? 'max_length' : 'min_length']: params.limit,
          actual_length: length,
        },
      };
    }
    case 'pattern':
      return {
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${params.pattern}'`,
        input,
        ctx: { pattern: params.pattern },
      };
    case 'enum':
    case 'const': {
      const allowed = (
        Array.isArray(params.allowedValues) ? params.allowedValues : [params.allowedValue]
      ).map((value) => `'${String(value)}'`);
      const expected =
        allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
      return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'type': {
      const names = typeNames(params).filter((name) => name !== 'null');
      // The `null` branch of a nullable field failing says nothing the other branch has not said.
      if (names.length === 0) return null;
      const [type, msg] = TYPE_ERRORS[names[0] ?? 'string'] ?? ['value_error', 'Invalid value'];
      return { type, loc, msg, input };
    }
    case INT32_KEYWORD:
      return int32Issue(loc, input);
    case 'format':
      // `format: int32` documents `Integer` in the OpenAPI document; `x-int32` reports the problem.
      if (params.format === 'int32') return null;
      return { type: 'value_error', loc, msg: error.message ?? 'Invalid value', input };
    case 'anyOf':
    case 'oneOf':
      // The branch errors (usually "type") already describe the problem.
      return null;
    case 'additionalProperties':
      return {
        type: 'extra_forbidden',
        loc: [...loc, String(params.additionalProperty)],
        msg: 'Extra inputs are not permitted',
      };
    default:
      return { type: 'value_error', loc, msg: error.message ?? 'Invalid value', input };
  }
}

/** Echoing the input must never fail: a value too deep or too large to serialise is left out. */
function withSafeInput(issue: ValidationIssue): ValidationIssue {
  if (!('input' in issue) || issue.input === null || typeof issue.input !== 'object') return issue;
  try {
    const text = JSON.stringify(issue.input);
    if (text !== undefined && text.length <= 100_000) return issue;
  } catch {
    // Nested thousands of levels deep: JSON.stringify runs out of stack.
  }
  const { input: _input, ...rest } = issue;
  return rest;
}

/**
 * What JSON Schema lets through but no database column can hold: NUL characters (PostgreSQL text
 * refuses them) and numbers beyond a 32-bit integer (Infinity from "1e309", 1e308). Checked on the
 * validated, coerced inputs so every route answers 422 instead of a database error.
 */
export function storableIssues(
  location: string,
  value: unknown,
  loc: Array<string | number> = [],
): ValidationIssue[] {
  if (typeof value === 'string') {
    return value.includes('\u0000')
      ? [
          {
            type: 'string_pattern_mismatch',
            loc: [location, ...loc],
            msg: 'String should not contain NUL characters',
            input: value,
            ctx: { pattern: '^[^\\x00]*$' },
          },
        ]
      : [];
  }
  if (typeof value === 'number') {
    if (value > INT_MAX || Number.isNaN(value))
      return [
        {
          type: 'less_than_equal',
          loc: [location, ...loc],
          msg: `Input should be less than or equal to ${INT_MAX}`,
          input: Number.isFinite(value) ? value : String(value),
          ctx: { le: INT_MAX },
        },
      ];
    if (value < -INT_MAX - 1)
      return [
        {
          type: 'greater_than_equal',
          loc: [location, ...loc],
          msg: `Input should be greater than or equal to ${-INT_MAX - 1}`,
          input: Number.isFinite(value) ? value : String(value),
          ctx: { ge: -INT_MAX - 1 },
        },
      ];
    return [];
  }
  if (value === null || typeof value !== 'object' || loc.length > 64) return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([key, item]) => storableIssues(location, item, [...loc, key]));
}

export function validationIssues(
  errors: readonly FastifySchemaValidationError[],
  context: string,
  data: unknown,
): ValidationIssue[] {
  const location = locationOf(context);
  const issues = errors
    .map((error) => toIssue(error, location, data))
    .filter((issue): issue is ValidationIssue => issue !== null)
    .map(withSafeInput);
  // Union types report one "type" error per branch; keep one entry per location.
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.type}|${JSON.stringify(issue.loc)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The ISBN a request names, or SPEC 7's 422 `isbn_invalid` (a check digit is beyond JSON Schema);
 * `location` is where it came from (`query`, `path`), with the field `isbn`.
 */
export function isbnOrProblem(input: string, location: string): Isbn {
  const isbn = parseIsbn(input);
  if (isbn) return isbn;
  throw new ValidationProblem([
    {
      type: 'isbn_invalid',
      loc: [location, 'isbn'],
      msg: 'Value error, not a valid ISBN-10 or ISBN-13 (wrong length, characters or check digit)',
      input,
    },
  ]);
}
