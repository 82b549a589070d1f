import { api } from '@/lib/api/handler';
import { listProfileVersions } from '@/lib/profiles/read-profiles';

// GET /v1/profiles/:slug/versions — the kept versions, newest first (an extension)
export const GET = api({ counted: true }, (ctx) => listProfileVersions(ctx.workspace.id, ctx.params.slug!));
