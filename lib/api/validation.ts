import type { z } from 'zod';

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
