import { endpoint } from '@/lib/api/endpoint';
import { profileEndpoints } from '@/lib/profiles/endpoints';
import { listProfileVersions } from '@/lib/profiles/read-profiles';

// GET /v1/profiles/:slug/versions — the kept versions, newest first (an extension)
export const GET = endpoint(profileEndpoints.listProfileVersions, (ctx) => listProfileVersions(ctx.workspace.id, ctx.params.slug));
