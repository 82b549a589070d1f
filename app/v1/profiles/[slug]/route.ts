import { api } from '@/lib/api/handler';
import { deleteProfile, renameProfile } from '@/lib/profiles/manage-profiles';
import { getProfile } from '@/lib/profiles/read-profiles';
import { updateProfileSchema } from '@/lib/profiles/schemas';

// GET /v1/profiles/:slug — one profile
export const GET = api({ counted: true }, (ctx) => getProfile(ctx.workspace.id, ctx.params.slug!));

// PATCH /v1/profiles/:slug — owner/admin; { name } (an extension: renames it)
export const PATCH = api({ counted: true, role: 'admin', body: updateProfileSchema }, (ctx) => renameProfile(ctx.workspace.id, ctx.params.slug!, ctx.body.name));

// DELETE /v1/profiles/:slug — owner/admin; { slug }; every saved version goes with it
export const DELETE = api({ counted: true, role: 'admin' }, (ctx) => deleteProfile(ctx.workspace.id, ctx.params.slug!));
