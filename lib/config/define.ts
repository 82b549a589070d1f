// How a setting is declared and read (lib/config/settings.ts holds the tables): one row per
// environment variable, with its default, the values it allows and why it is a setting. Unset or
// empty is the default; anything else must be allowed, or the whole reading fails with one message
// naming every bad variable, its rule and the value it had.
import { z } from 'zod';

type Unit = 'ms' | 's' | null;

export interface Setting<T> {
  env: string;
  default: T;
  /** What a good value looks like, for the refusal: `LEASE_TTL_MS must be …`. */
  rule: string;
  /** Why it is a setting (the README's table says the same for an operator). */
  why: string;
  /** Reads a set, non-empty value; a failure's message is ignored for `rule`. */
  schema: z.ZodType<T, string>;
  /** A credential, or an address that may carry one: a refusal never shows its value. */
  secret?: boolean;
}

type Env = Record<string, string | undefined>;
export type Table = Record<string, Setting<unknown>>;
export type Values<T extends Table> = { readonly [K in keyof T]: T[K]['default'] };

const UNIT_NAMES = { ms: 'milliseconds', s: 'seconds' } as const;
const MAX_LIST_ENTRIES = 10;

const row = <T>(env: string, value: T, rule: string, why: string, schema: z.ZodType<T, string>): Setting<T> => ({
  env,
  default: value,
  rule: `${env} must be ${rule}`,
  why,
  schema,
});

const wholeNumber = (min: number, max: number) => z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().min(min).max(max));
const unitWords = (unit: Unit) => (unit ? ` of ${UNIT_NAMES[unit]}` : '');

/** A whole number in a range: a count, a port, a duration in `unit`. */
export function whole(env: string, unit: Unit, value: number, [min, max]: [number, number], why: string): Setting<number> {
  return row(env, value, `a whole number${unitWords(unit)} from ${min} to ${max}`, why, wholeNumber(min, max));
}

/** A comma-separated list of whole numbers, each in the range. */
export function wholes(
  env: string,
  unit: Unit,
  value: readonly number[],
  [min, max]: [number, number],
  why: string,
  maxEntries = MAX_LIST_ENTRIES,
): Setting<readonly number[]> {
  const rule = `a comma-separated list of up to ${maxEntries} whole numbers${unitWords(unit)} from ${min} to ${max}`;
  return row(
    env,
    value,
    rule,
    why,
    z
      .string()
      .transform((text) => text.split(','))
      .pipe(z.array(wholeNumber(min, max)).max(maxEntries)),
  );
}

/** A number with a fractional part allowed (a percentage, say). */
export function decimal(env: string, value: number, [min, max]: [number, number], why: string): Setting<number> {
  return row(
    env,
    value,
    `a number from ${min} to ${max}`,
    why,
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number)
      .pipe(z.number().min(min).max(max)),
  );
}

/** `1` on, `0` off. */
export function flag(env: string, value: boolean, why: string): Setting<boolean> {
  return row(
    env,
    value,
    '1 (on) or 0 (off)',
    why,
    z
      .string()
      .trim()
      .pipe(z.enum(['0', '1']))
      .transform((text) => text === '1'),
  );
}

/** One of a few words, in any case. */
export function oneOf<const T extends string>(env: string, values: readonly [T, ...T[]], value: T, why: string): Setting<T> {
  return row(env, value, `one of ${values.map((v) => `"${v}"`).join(', ')}`, why, z.string().trim().toLowerCase().pipe(z.enum(values)));
}

/** Free text (a name, an address in a form only its user checks); trimmed. */
export function text(env: string, value: string, why: string): Setting<string> {
  return row(env, value, 'text', why, z.string().trim());
}

/** Text that may be left unset (null): a secret or an address with no default. */
export function optionalText(env: string, why: string): Setting<string | null> {
  return row<string | null>(env, null, 'text', why, z.string().trim());
}

/** A key of `bytes` random bytes, base64-encoded; unset is null. */
export function base64Key(env: string, bytes: number, why: string): Setting<string | null> {
  const valid = (value: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === bytes;
  return row<string | null>(env, null, `${bytes} bytes, base64-encoded`, why, z.string().trim().refine(valid));
}

/** A PostgreSQL name (a schema, say): lower-case letters, digits and `_`, not starting with a digit. */
export function sqlName(env: string, value: string, why: string): Setting<string> {
  return row(
    env,
    value,
    'a PostgreSQL name: up to 63 lower-case letters, digits and _, not starting with a digit',
    why,
    z
      .string()
      .trim()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/),
  );
}

/** An absolute URL with one of the schemes; without a default, unset is null. */
export function url(env: string, schemes: readonly string[], why: string): Setting<string | null> {
  const rule = `an absolute ${schemes.map((s) => `${s}://`).join(' or ')} URL`;
  const valid = (value: string) => URL.canParse(value) && schemes.includes(new URL(value).protocol.slice(0, -1));
  return row<string | null>(env, null, rule, why, z.string().trim().refine(valid));
}

/** A comma-separated list of words (addresses, say), trimmed, empty entries dropped; `lower` lower-cases them. */
export function words(env: string, why: string, options: { lower?: boolean } = {}): Setting<readonly string[]> {
  const split = (text: string) =>
    text
      .split(',')
      .map((w) => (options.lower ? w.trim().toLowerCase() : w.trim()))
      .filter(Boolean);
  return row<readonly string[]>(env, [], 'a comma-separated list', why, z.string().transform(split));
}

/** The same setting, its value never shown in a refusal. */
export const secret = <T>(setting: Setting<T>): Setting<T> => ({ ...setting, secret: true });

/** One setting from `env`: its value (the default when unset or empty), or why the value is refused. */
function readOne<T>(setting: Setting<T>, env: Env): { value: T } | { problem: string } {
  const raw = env[setting.env];
  if (raw === undefined || raw.trim() === '') return { value: setting.default };
  const parsed = setting.schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  return { problem: `${setting.rule}, got ${setting.secret ? `a value of ${raw.length} characters (not shown)` : `"${raw}"`}` };
}

/** Reads every setting of the table from `env`; throws one message naming every bad variable. */
export function parseSettings<T extends Table>(table: T, env: Env): Values<T> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(table)) {
    const read = readOne(setting, env);
    if ('problem' in read) problems.push(read.problem);
    else values[key] = read.value;
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return values as Values<T>;
}

/**
 * One setting, its default when unset or bad: for what must work before the settings are checked
 * (the logger, which reports that check's failure).
 */
export function readLenient<T>(setting: Setting<T>, env: Env): T {
  const read = readOne(setting, env);
  return 'value' in read ? read.value : setting.default;
}

/** Bad settings, all of them: one restart fixes every one. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'SettingsError';
  }
}
