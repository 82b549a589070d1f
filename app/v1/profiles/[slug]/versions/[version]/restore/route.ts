import { endpoint } from '@/lib/api/endpoint';
import { profileEndpoints } from '@/lib/profiles/endpoints';
import { parseVersionParam, restoreProfileVersion } from '@/lib/profiles/restore-version';

// POST /v1/profiles/:slug/versions/:version/restore — owner/admin; that version saved again as the current one; Profile (an extension)
export const POST = endpoint(profileEndpoints.restoreProfileVersion, (ctx) =>
  restoreProfileVersion(ctx.workspace.id, ctx.params.slug, parseVersionParam(ctx.params.version)),
);
