// Forms validate with the server's own zod schema before sending, and show the server's
// `validation_error` next to the same fields when it finds something the schema could not.
import { z } from 'zod';
import { clientInput } from '../api/validation';
import { isApiError } from './api-fetch';

export type FieldErrors = Partial<Record<string, string>>;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What `validate` answers: the schema's output, or an error message per field. */
export type Validated<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

export function validate<S extends z.ZodType>(schema: S, values: unknown): Validated<z.infer<S>> {
  // Worded as the server words them, so a field reads the same whichever side caught it.
  const result = schema.safeParse(values, clientInput);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'form';
    errors[field] ??= capitalise(issue.message);
  }
  return { ok: false, errors };
}

/**
 * A `validation_error`'s `details` placed on the form's fields: an issue lands on the field its
 * path names, or on the nearest listed field it is inside (`headers.X-A` on `headers` when the form
 * lists `headers`, not `headers.X-A`). Null when none of them is about a listed field.
 */
export function fieldErrorsFromApi(error: unknown, fields: readonly string[]): FieldErrors | null {
  if (!isApiError(error, 'validation_error')) return null;
  const errors: FieldErrors = {};
  for (const { path, message } of error.details) {
    const field = fields.includes(path) ? path : fields.filter((f) => path.startsWith(`${f}.`)).sort((a, b) => b.length - a.length)[0];
    if (field) errors[field] ??= capitalise(message);
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The path a sign-in or sign-up goes back to: only this site's own paths, never another origin. */
export function safeCallbackUrl(value: unknown, fallback = '/overview'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
