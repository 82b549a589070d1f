// Reading providers of one router; every query carries the workspace and the router.
import { db } from '../db';
import { ApiError, notFound, invalidField } from '../api/errors';
import { openAddress } from './secrets';
import { providerInclude, serializeProvider } from './serialize';

export interface RouterScope {
  workspaceId: string;
  routerId: string;
}

/** The wrapper's resolved workspace and router as the scope of every providers query. */
export const routerScope = (ctx: { workspace: { id: string }; router: { id: string } }): RouterScope => ({
  workspaceId: ctx.workspace.id,
  routerId: ctx.router.id,
});

export async function listProviders(scope: RouterScope, page: number, pageSize: number) {
  const where = { workspaceId: scope.workspaceId, routerId: scope.routerId };
  const [total, rows] = await Promise.all([
    db.provider.count({ where }),
    db.provider.findMany({ where, include: providerInclude, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip: (page - 1) * pageSize, take: pageSize }),
  ]);
  return { items: rows.map(serializeProvider), total, page, pageSize };
}

export async function getProviderRowOrThrow(scope: RouterScope, slug: string) {
  const provider = await db.provider.findFirst({ where: { workspaceId: scope.workspaceId, routerId: scope.routerId, slug }, include: providerInclude });
  if (!provider) throw notFound('provider');
  return provider;
}

export async function getProviderOrThrow(scope: RouterScope, slug: string) {
  return serializeProvider(await getProviderRowOrThrow(scope, slug));
}

/** GET /v1/providers/:slug/plaintext: the stored address and headers in full (null for key-based). */
export async function getProviderPlaintext(scope: RouterScope, slug: string) {
  const provider = await getProviderRowOrThrow(scope, slug);
  const address = openAddress(provider);
  return { slug: provider.slug, url: address?.url ?? null, headers: address ? address.headers : null };
}

/** The router's connectionTimeoutMs bounds every provider test: it runs until the provider's 101. */
export async function getConnectionTimeoutMs(scope: RouterScope): Promise<number> {
  const router = await db.router.findFirst({ where: { id: scope.routerId, workspaceId: scope.workspaceId }, select: { connectionTimeoutMs: true } });
  if (!router) throw notFound('router');
  return router.connectionTimeoutMs;
}

/** A profile slug named by `profile` must exist in the workspace. */
export async function findProfileIdOrThrow(workspaceId: string, slug: string): Promise<string> {
  const profile = await db.profile.findFirst({ where: { workspaceId, slug }, select: { id: true } });
  if (!profile) throw invalidField('profile', `no profile "${slug}" in this workspace`);
  return profile.id;
}

export async function assertSlugFree(scope: RouterScope, slug: string): Promise<void> {
  const existing = await db.provider.findFirst({ where: { workspaceId: scope.workspaceId, routerId: scope.routerId, slug }, select: { id: true } });
  if (existing) throw new ApiError('conflict', `a provider with slug "${slug}" already exists on this router`);
}
