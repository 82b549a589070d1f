// Create, update and delete routers; the four switches and the agent defaults.
import { db, type Tx } from '../db';
import { ApiError, notFound, invalidField } from '../api/errors';
import { serializeRouterKey } from '../keys/create-router-key';
import { ROUTERS_PER_WORKSPACE } from '../workspaces/limits';
import { createRouterWithKey } from './create-router';
import { notifyRouterChanged } from './notify';
import { routerCountsInclude, serializeRouter } from './serialize';
import { slugify } from './slug';
import type { z } from 'zod';
import type { createRouterSchema, updateAgentSettingsSchema, updateRouterSchema, updateRouterSettingsSchema } from './schemas';
import type { routerSettings as routerSettingsAnswer, agentSettings as agentSettingsAnswer } from '../openapi/resources/routers';

async function lockWorkspace(tx: Tx, workspaceId: string) {
  await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspaceId} FOR UPDATE`;
}

export async function createRouter(workspaceId: string, input: z.infer<typeof createRouterSchema>) {
  const result = await db.$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    if ((await tx.router.count({ where: { workspaceId } })) >= ROUTERS_PER_WORKSPACE) {
      throw new ApiError('fair_use_limit_reached', `a workspace can have at most ${ROUTERS_PER_WORKSPACE} routers`);
    }
    let slug = input.slug;
    if (slug) {
      if (await tx.router.findUnique({ where: { workspaceId_slug: { workspaceId, slug } } }))
        throw new ApiError('conflict', `a router with slug "${slug}" already exists`);
    } else {
      // A derived slug takes the first free "-2", "-3", … rather than failing.
      const base = slugify(input.name);
      const taken = new Set(
        (await tx.router.findMany({ where: { workspaceId, slug: { startsWith: base.slice(0, 36) } }, select: { slug: true } })).map((r) => r.slug),
      );
      slug = base;
      for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 40 - String(n).length - 1)}-${n}`;
    }
    return createRouterWithKey(tx, { workspaceId, name: input.name, slug, description: input.description });
  });
  const router = await db.router.findUniqueOrThrow({ where: { id: result.router.id }, include: routerCountsInclude });
  return { ...serializeRouter(router), apiKey: { ...serializeRouterKey(result.key), plaintextKey: result.plaintextKey } };
}

async function getOwnRouterOrThrow(workspaceId: string, id: string) {
  const router = await db.router.findFirst({ where: { id, workspaceId } });
  if (!router) throw notFound('router');
  return router;
}

export async function updateRouter(workspaceId: string, id: string, input: z.infer<typeof updateRouterSchema>) {
  await getOwnRouterOrThrow(workspaceId, id);
  const router = await db.$transaction(async (tx) => {
    const updated = await tx.router.update({ where: { id }, data: input, include: routerCountsInclude });
    await notifyRouterChanged(tx, id);
    return updated;
  });
  return serializeRouter(router);
}

export async function deleteRouter(workspaceId: string, id: string) {
  return db.$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const router = await tx.router.findFirst({ where: { id, workspaceId } });
    if (!router) throw notFound('router');
    if ((await tx.router.count({ where: { workspaceId } })) === 1)
      throw new ApiError('last_router', 'a workspace needs at least one router; create another before deleting this one');
    // Providers, keys and the chat link go with it (cascade); session history stays.
    await tx.router.delete({ where: { id } });
    await tx.user.updateMany({ where: { activeRouterId: id }, data: { activeRouterId: null } });
    await notifyRouterChanged(tx, id);
    return { id: router.id, slug: router.slug };
  });
}

function serializeSettings(router: { id: string; webhooksEnabled: boolean; profilesEnabled: boolean; replayEnabled: boolean; observabilityEnabled: boolean }) {
  return {
    routerInstanceId: router.id,
    webhooksEnabled: router.webhooksEnabled,
    profilesEnabled: router.profilesEnabled,
    replayEnabled: router.replayEnabled,
    observabilityEnabled: router.observabilityEnabled,
  };
}

export async function getRouterSettings(workspaceId: string, id: string): Promise<z.input<typeof routerSettingsAnswer>> {
  return serializeSettings(await getOwnRouterOrThrow(workspaceId, id));
}

export async function updateRouterSettings(workspaceId: string, id: string, input: z.infer<typeof updateRouterSettingsSchema>) {
  await getOwnRouterOrThrow(workspaceId, id);
  return db.$transaction(async (tx) => {
    const router = await tx.router.update({ where: { id }, data: input });
    await notifyRouterChanged(tx, id);
    return serializeSettings(router);
  });
}

type RouterWithProfile = {
  id: string;
  recordDefault: boolean;
  observabilityDefault: boolean;
  saveProfileDefault: boolean;
  defaultProfile: { slug: string } | null;
};

function serializeAgentSettings(router: RouterWithProfile) {
  return {
    routerInstanceId: router.id,
    recordDefault: router.recordDefault,
    observabilityDefault: router.observabilityDefault,
    defaultProfile: router.defaultProfile?.slug ?? null,
    saveProfileDefault: router.saveProfileDefault,
  };
}

export async function getAgentSettings(workspaceId: string, id: string): Promise<z.input<typeof agentSettingsAnswer>> {
  const router = await db.router.findFirst({ where: { id, workspaceId }, include: { defaultProfile: { select: { slug: true } } } });
  if (!router) throw notFound('router');
  return serializeAgentSettings(router);
}

export async function updateAgentSettings(workspaceId: string, id: string, input: z.infer<typeof updateAgentSettingsSchema>) {
  await getOwnRouterOrThrow(workspaceId, id);
  const { defaultProfile, ...flags } = input;
  let defaultProfileId: string | null | undefined;
  if (defaultProfile === null) defaultProfileId = null;
  if (typeof defaultProfile === 'string') {
    const profile = await db.profile.findUnique({ where: { workspaceId_slug: { workspaceId, slug: defaultProfile } }, select: { id: true } });
    if (!profile) throw invalidField('defaultProfile', `no profile "${defaultProfile}" in this workspace`);
    defaultProfileId = profile.id;
  }
  // The proxies hold these defaults with the router (what an agent's browser gets): reload them.
  const router = await db.$transaction(async (tx) => {
    const updated = await tx.router.update({
      where: { id },
      data: { ...flags, ...(defaultProfileId !== undefined ? { defaultProfileId } : {}) },
      include: { defaultProfile: { select: { slug: true } } },
    });
    await notifyRouterChanged(tx, id);
    return updated;
  });
  return serializeAgentSettings(router);
}
