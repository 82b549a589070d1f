import { api, created } from '@/lib/api/handler';
import { createProfile } from '@/lib/profiles/manage-profiles';
import { listProfiles } from '@/lib/profiles/read-profiles';
import { createProfileSchema, listProfilesQuery, PROFILE_BODY_MAX_BYTES } from '@/lib/profiles/schemas';

// GET /v1/profiles — profiles of the workspace, newest first, paged
export const GET = api({ counted: true, query: listProfilesQuery }, (ctx) => listProfiles(ctx.workspace.id, ctx.query));

// POST /v1/profiles — owner/admin; { slug, name, captured? }; 201 Profile; no captured = an empty profile
export const POST = api({ counted: true, role: 'admin', body: createProfileSchema, maxBodyBytes: PROFILE_BODY_MAX_BYTES }, async (ctx) =>
  created(await createProfile(ctx.workspace.id, ctx.body)),
);
