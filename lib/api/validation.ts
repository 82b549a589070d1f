import { z } from 'zod';

/** "email: enter a valid e-mail address; role: expected one of admin, member" */
export function formatZodError(error: z.ZodError, where: string): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join('.') : where;
      if (issue.code === 'invalid_type' && issue.input === undefined) return `${field}: required`;
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Wraps a schema so that the wrapper's messages name each field precisely: the wrapper parses
 * without `reportInput`, so formatZodError cannot tell a missing field from one of the wrong type,
 * and zod reports unknown keys on the parent object. This parses with the input at hand, words
 * a wrong type with the schema's own message, and gives each unknown key its own issue.
 * `pick` may choose the schema from the input (e.g. a key form versus an address form).
 */
export function withFieldErrors<T extends z.ZodType>(pick: T | ((input: unknown) => T)) {
  return z.unknown().transform((input, ctx): z.output<T> => {
    const schema = typeof pick === 'function' ? pick(input) : pick;
    const result = schema.safeParse(input, { reportInput: true });
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) ctx.addIssue({ code: 'custom', path: [...issue.path, key], message: 'not a field of this request' });
      } else if (issue.code === 'invalid_type') {
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.input === undefined ? 'required' : issue.message });
      } else {
        ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
      }
    }
    return z.NEVER;
  });
}
