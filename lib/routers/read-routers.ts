import { db } from '../db';
import { notFound } from '../api/errors';
import { routerCountsInclude, serializeRouter } from './serialize';

export async function listRouters(workspaceId: string) {
  const routers = await db.router.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: routerCountsInclude });
  return { items: routers.map(serializeRouter), total: routers.length };
}

export async function getRouterOrThrow(workspaceId: string, id: string) {
  const router = await db.router.findFirst({ where: { id, workspaceId }, include: routerCountsInclude });
  if (!router) throw notFound('router');
  return serializeRouter(router);
}

/** The router the dashboard opens; bearer calls choose theirs with X-Router-Id. */
export async function setActiveRouter(userId: string, workspaceId: string, routerId: string) {
  const router = await db.router.findFirst({ where: { id: routerId, workspaceId }, select: { id: true } });
  if (!router) throw notFound('router');
  await db.user.update({ where: { id: userId }, data: { activeRouterId: router.id } });
  return { activeRouterInstanceId: router.id };
}
