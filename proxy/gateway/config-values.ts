// Value checks of gateway.yml: each returns undefined for an absent value (the default applies) or a
// bad one (reported with the value as written), so one pass over the file collects every problem.
import { describe, type Located, type Reader } from './config-reader';

export function integer(r: Reader, at: Located, min?: number, max?: number): number | undefined {
  const value = r.scalar(at);
  if (value === undefined) return undefined;
  const wanted =
    min === 1 && max === undefined
      ? 'a positive integer'
      : min === 0 && max === undefined
        ? 'an integer of 0 or more'
        : min !== undefined && max !== undefined
          ? `an integer from ${min} to ${max}`
          : 'an integer';
  if (typeof value !== 'number' || !Number.isInteger(value) || (min !== undefined && value < min) || (max !== undefined && value > max)) {
    return void r.report(at.line, at.path, `must be ${wanted} (got ${r.shown(at)})`);
  }
  return value;
}

export function fraction(r: Reader, at: Located): number | undefined {
  const value = r.scalar(at);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    return void r.report(at.line, at.path, `must be a number from 0 to 1 (got ${r.shown(at)})`);
  }
  return value;
}

export function boolean(r: Reader, at: Located): boolean | undefined {
  const value = r.scalar(at);
  if (value === undefined || typeof value === 'boolean') return value;
  return void r.report(at.line, at.path, `must be true or false (got ${r.shown(at)})`);
}

export function oneOf<T extends string>(r: Reader, at: Located, allowed: readonly T[]): T | undefined {
  const text = r.string(at);
  if (text === undefined) return undefined;
  if ((allowed as readonly string[]).includes(text.value)) return text.value as T;
  return void r.report(at.line, at.path, `must be one of ${allowed.join(', ')} (got ${describe(text.raw)})`);
}

export function nonEmpty(r: Reader, at: Located): string | undefined {
  const text = r.string(at);
  if (text === undefined) return undefined;
  if (text.value.trim() !== '') return text.value;
  return void r.report(at.line, at.path, 'must not be empty');
}

/** A required URL with one of the given schemes. Messages quote the text before substitution. */
export function address(r: Reader, at: Located, schemes: string[], wanted: string): string | undefined {
  const text = r.string(at);
  if (text === undefined) {
    if (at.node === null) r.report(at.line, at.path, 'is required');
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(text.value);
  } catch {
    url = undefined;
  }
  if (url && schemes.includes(url.protocol) && url.hostname !== '') return text.value;
  return void r.report(at.line, at.path, `must be ${wanted} (got ${describe(text.raw)})`);
}
