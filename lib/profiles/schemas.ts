// Input of the profiles endpoints (docs/api.md, Profiles). The state shapes themselves (captured and
// Playwright) are in ./state.ts, shared with the proxy; this file wraps them in the request bodies.
import { z } from 'zod';
import { capturedStateSchema, playwrightStateSchema, PROFILE_MAX_BYTES } from './state';

export const PROFILE_SLUG_MAX = 64;

// `import-playwright` is an endpoint of its own (POST /v1/profiles/import-playwright), and `.` and
// `..` are dot segments URLs resolve away: a profile with one of them as its slug could never be
// read at /v1/profiles/:slug.
export const RESERVED_PROFILE_SLUGS = ['import-playwright', '.', '..'] as const;

export const profileSlugSchema = z
  .string({ message: 'enter a slug' })
  .min(1, 'enter a slug')
  .max(PROFILE_SLUG_MAX, `use at most ${PROFILE_SLUG_MAX} characters`)
  .regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dots, underscores or hyphens')
  .refine((slug) => !(RESERVED_PROFILE_SLUGS as readonly string[]).includes(slug), 'this slug is reserved by the API');

export const profileNameSchema = z.string({ message: 'enter a name' }).trim().min(1, 'enter a name').max(100, 'use at most 100 characters');

/**
 * The request body of a create or an import: the state in its request shape is larger than the
 * stored JSON the 10 MB limit counts (Playwright's name/value pairs, sessionStorage that is never
 * kept), so the body may be larger; a state over the limit is still refused with 413 after parsing.
 */
export const PROFILE_BODY_MAX_BYTES = 3 * PROFILE_MAX_BYTES;

/** POST /v1/profiles. `captured` omitted: an empty profile (`null` is refused, like the providers' `profile`). */
export const createProfileSchema = z.strictObject({
  slug: profileSlugSchema,
  name: profileNameSchema,
  captured: capturedStateSchema.optional(),
});

/** POST /v1/profiles/import-playwright: a Playwright storage state (`origins` may carry `indexedDB`). */
export const importPlaywrightSchema = z.strictObject({
  slug: profileSlugSchema,
  name: profileNameSchema,
  storageState: playwrightStateSchema,
});

export const updateProfileSchema = z.strictObject({
  name: profileNameSchema,
});

export const listProfilesQuery = z.object({
  page: z.coerce.number().int().min(1, 'must be 1 or more').default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(25),
});

export const exportProfileQuery = z.object({
  format: z.enum(['native', 'playwright']).default('native'),
  /** `1`: the state itself as a file (no envelope, a Content-Disposition name), for `curl -o` and the dashboard. */
  download: z.enum(['1', 'true']).optional(),
});

export type CreateProfileInput = z.infer<typeof createProfileSchema>;
export type ImportPlaywrightInput = z.infer<typeof importPlaywrightSchema>;
export type ExportFormat = z.infer<typeof exportProfileQuery>['format'];
