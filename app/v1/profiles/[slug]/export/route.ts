import { endpoint } from '@/lib/api/endpoint';
import { bareJson } from '@/lib/api/handler';
import { profileEndpoints } from '@/lib/profiles/endpoints';
import { exportProfile } from '@/lib/profiles/export-profile';

// GET /v1/profiles/:slug/export — owner/admin; ?format=native|playwright; the decrypted state in the
// envelope, or with ?download=1 the state itself as a file
export const GET = endpoint(profileEndpoints.exportProfile, async (ctx) => {
  const { slug, document } = await exportProfile(ctx.workspace.id, ctx.params.slug, ctx.query.format);
  if (!ctx.query.download) return document;
  const filename = `${slug.replace(/[^A-Za-z0-9._-]/g, '_')}.${ctx.query.format}.json`;
  return bareJson(document, { 'Content-Disposition': `attachment; filename="${filename}"` });
});
