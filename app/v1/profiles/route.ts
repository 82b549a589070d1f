import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { profileOps } from '@/lib/openapi/operations/profiles';
import { createProfile } from '@/lib/profiles/manage-profiles';
import { listProfiles } from '@/lib/profiles/read-profiles';

// GET /v1/profiles — profiles of the workspace, newest first, paged
export const GET = endpoint(profileOps.listProfiles, (ctx) => listProfiles(ctx.workspace.id, ctx.query));

// POST /v1/profiles — owner/admin; { slug, name, captured? }; 201 Profile; no captured = an empty profile
export const POST = endpoint(profileOps.createProfile, async (ctx) =>
  created(await createProfile(ctx.workspace.id, ctx.body)),
);
