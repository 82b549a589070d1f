// Forms validate with the server's own zod schema before sending, and show the server's
// `validation_error` next to the same fields when it finds something the schema could not.
import { z } from 'zod';
import { isApiError } from './api-fetch';

export type FieldErrors = Partial<Record<string, string>>;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What `validate` answers: the schema's output, or an error message per field. */
export type Validated<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

export function validate<S extends z.ZodType>(schema: S, values: unknown): Validated<z.infer<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'form';
    errors[field] ??= capitalise(issue.message);
  }
  return { ok: false, errors };
}

/** `validation_error` messages read "email: enter a valid e-mail address; role: …" (lib/api/validation.ts). */
export function fieldErrorsFromApi(error: unknown, fields: readonly string[]): FieldErrors | null {
  if (!isApiError(error, 'validation_error')) return null;
  const errors: FieldErrors = {};
  for (const part of error.message.split('; ')) {
    const match = /^([\w.]+): (.*)$/.exec(part);
    if (match && fields.includes(match[1]!)) errors[match[1]!] ??= capitalise(match[2]!);
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The path a sign-in or sign-up goes back to: only this site's own paths, never another origin. */
export function safeCallbackUrl(value: unknown, fallback = '/overview'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
