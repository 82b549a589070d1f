import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { profileEndpoints } from '@/lib/profiles/endpoints';
import { importPlaywrightProfile } from '@/lib/profiles/manage-profiles';

// POST /v1/profiles/import-playwright — any member; { slug, name, storageState }; 201 Profile
export const POST = endpoint(profileEndpoints.importPlaywrightProfile, async (ctx) => created(await importPlaywrightProfile(ctx.workspace.id, ctx.body)));
