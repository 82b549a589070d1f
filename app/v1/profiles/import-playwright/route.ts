import { api, created } from '@/lib/api/handler';
import { importPlaywrightProfile } from '@/lib/profiles/manage-profiles';
import { importPlaywrightSchema, PROFILE_BODY_MAX_BYTES } from '@/lib/profiles/schemas';

// POST /v1/profiles/import-playwright — any member; { slug, name, storageState }; 201 Profile
export const POST = api({ counted: true, body: importPlaywrightSchema, maxBodyBytes: PROFILE_BODY_MAX_BYTES }, async (ctx) =>
  created(await importPlaywrightProfile(ctx.workspace.id, ctx.body)),
);
