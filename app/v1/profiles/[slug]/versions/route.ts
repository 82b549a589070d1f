import { endpoint } from '@/lib/api/endpoint';
import { profileOps } from '@/lib/openapi/operations/profiles';
import { listProfileVersions } from '@/lib/profiles/read-profiles';

// GET /v1/profiles/:slug/versions — the kept versions, newest first (an extension)
export const GET = endpoint(profileOps.listProfileVersions, (ctx) => listProfileVersions(ctx.workspace.id, ctx.params.slug));
