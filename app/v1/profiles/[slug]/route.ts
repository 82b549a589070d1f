import { endpoint } from '@/lib/api/endpoint';
import { profileEndpoints } from '@/lib/profiles/endpoints';
import { deleteProfile, renameProfile } from '@/lib/profiles/manage-profiles';
import { getProfile } from '@/lib/profiles/read-profiles';

// GET /v1/profiles/:slug — one profile
export const GET = endpoint(profileEndpoints.getProfile, (ctx) => getProfile(ctx.workspace.id, ctx.params.slug));

// PATCH /v1/profiles/:slug — owner/admin; { name } (an extension: renames it)
export const PATCH = endpoint(profileEndpoints.renameProfile, (ctx) => renameProfile(ctx.workspace.id, ctx.params.slug, ctx.body.name));

// DELETE /v1/profiles/:slug — owner/admin; { slug }; every saved version goes with it
export const DELETE = endpoint(profileEndpoints.deleteProfile, (ctx) => deleteProfile(ctx.workspace.id, ctx.params.slug));
