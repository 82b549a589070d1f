import { z } from 'zod';
import { MAX_FIELD_ISSUES, type FieldIssue } from './errors';

const TYPE_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  record: 'an object',
  object: 'an object',
  array: 'a list',
  bigint: 'an integer',
  date: 'a date',
  null: 'null',
};

/** What a value is, in the words of a message: "number", "array", "null". */
function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  return typeof input;
}

const quoteAll = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * The wording of zod's issues wherever a schema gives no message of its own: what was expected
 * and what came ("expected an integer, got 1500.5", "expected a string, got number"), and
 * "required" only for a field that is absent. Parses must pass `reportInput: true`, or a wrong
 * type cannot be told from a missing field.
 */
export const issueWording: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'required';
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (issue.expected === 'int' && typeof issue.input === 'number' && Number.isFinite(issue.input)) return `expected an integer, got ${issue.input}`;
      // A query value coerced to a number that is none: the text itself is not at hand here.
      if (typeof issue.input === 'number' && Number.isNaN(issue.input)) return `expected ${expected}`;
      return `expected ${expected}, got ${received(issue.input)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'must not be empty' : `must be at least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at least ${min} item${min === 1 ? '' : 's'}`;
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${max} item${max === 1 ? '' : 's'}`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoteAll(issue.values)}` : `must be one of ${quoteAll(issue.values)}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'must be an e-mail address';
      if (issue.format === 'url') return 'must be a URL';
      if (issue.format === 'regex') return 'is not in the expected format';
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'not a field of this request';
    case 'invalid_union':
      return 'matches none of the accepted forms';
    default:
      return undefined;
  }
};

/** Parse options for input that came from a client: the input is reported, issues worded as above. */
export const clientInput = { reportInput: true, error: issueWording } as const;

/**
 * One entry per field, path dotted ("headers.0.name"); issues about the input as a whole are
 * about `where` (`body`, `query`). Unknown keys each get their own entry rather than one on the parent.
 */
export function fieldIssues(error: z.ZodError, where: string): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'not a field of this request' }));
    const message = issue.code === 'invalid_type' ? typeMessage(issue) : issue.message;
    return [{ path: base.length > 0 ? base.join('.') : where, message }];
  });
}

/**
 * A wrong type always says what came, also under a schema's own message ("use a whole number,
 * got 1500.5"); an absent field is "required" whatever the schema says for a wrong type.
 */
function typeMessage(issue: z.core.$ZodIssueInvalidType): string {
  if (!('input' in issue)) return issue.message;
  if (issue.input === undefined) return 'required';
  if (/\bgot\b/.test(issue.message) || (typeof issue.input === 'number' && Number.isNaN(issue.input))) return issue.message;
  const got = issue.expected === 'int' && typeof issue.input === 'number' ? String(issue.input) : received(issue.input);
  return `${issue.message}, got ${got}`;
}

/** What each withFieldErrors wrapper accepts, for the API's description: the wrapper itself takes any input. */
const wrapped = new WeakMap<z.ZodType, z.ZodType>();

/** The schema that describes what `schema` accepts: a withFieldErrors wrapper's inner shape, else `schema` itself. */
export function describedSchema(schema: z.ZodType): z.ZodType {
  return wrapped.get(schema) ?? schema;
}

/**
 * Wraps a schema so that it is parsed with the input reported (a transform's inner parse does not
 * inherit the caller's options), each unknown key as its own issue. `pick` may choose the schema
 * from the input (e.g. a key form versus an address form); `accepts` then names every shape it can
 * choose (a union), which is what the API's OpenAPI document shows.
 */
export function withFieldErrors<T extends z.ZodType>(pick: T | ((input: unknown) => T), accepts?: z.ZodType) {
  const wrapper = z.unknown().transform((input, ctx): z.output<T> => {
    const schema = typeof pick === 'function' ? pick(input) : pick;
    const result = schema.safeParse(input, clientInput);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) ctx.addIssue({ code: 'custom', path: [...issue.path, key], message: 'not a field of this request' });
      } else {
        ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
      }
    }
    return z.NEVER;
  });
  const shape = typeof pick === 'function' ? accepts : pick;
  if (shape) wrapped.set(wrapper, shape);
  return wrapper;
}

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/**
 * Every string (and object key) holding U+0000, which PostgreSQL refuses in text: checked for all
 * input before any schema or query sees it. Iterative, so a deeply nested body cannot exhaust the stack.
 * `where` names the input as a whole when the value itself is a string. Stops at the first
 * MAX_FIELD_ISSUES, which is all a response reports.
 */
export function nulIssues(value: unknown, where: string): FieldIssue[] {
  type Step = { key: string; parent: Step | null };
  const pathOf = (step: Step | null) => {
    const keys: string[] = [];
    for (let s = step; s; s = s.parent) keys.push(s.key);
    return keys.length > 0 ? keys.reverse().join('.') : where;
  };
  const found: FieldIssue[] = [];
  const pending: { value: unknown; step: Step | null }[] = [{ value, step: null }];
  while (pending.length > 0 && found.length < MAX_FIELD_ISSUES) {
    const { value: current, step } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\0')) found.push({ path: pathOf(step), message: NUL_MESSAGE });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], step: { key: String(i), parent: step } });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current).reverse()) {
        if (key.includes('\0')) found.push({ path: pathOf({ key: key.replace(/\0/g, '\\u0000'), parent: step }), message: NUL_MESSAGE });
        else pending.push({ value: inner, step: { key, parent: step } });
      }
    }
  }
  return found;
}
