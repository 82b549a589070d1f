import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { profileEndpoints } from '@/lib/profiles/endpoints';
import { createProfile } from '@/lib/profiles/manage-profiles';
import { listProfiles } from '@/lib/profiles/read-profiles';

// GET /v1/profiles — profiles of the workspace, newest first, paged
export const GET = endpoint(profileEndpoints.listProfiles, (ctx) => listProfiles(ctx.workspace.id, ctx.query));

// POST /v1/profiles — owner/admin; { slug, name, captured? }; 201 Profile; no captured = an empty profile
export const POST = endpoint(profileEndpoints.createProfile, async (ctx) => created(await createProfile(ctx.workspace.id, ctx.body)));
