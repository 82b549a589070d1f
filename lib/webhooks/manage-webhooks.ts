// Create, update and delete webhooks. The full URL is stored encrypted (it carries the
// receiver's secret); responses show the masked form kept beside it.
import { db, type Tx } from '../db';
import { ApiError, notFound, invalidField } from '../api/errors';
import { encryptText } from '../crypto/encryption';
import { egressPolicy, egressRefusal } from '../net/egress-policy';
import { maskUrl } from './mask-url';
import { cancelPendingDeliveries } from './outbox';
import { WEBHOOKS_PER_WORKSPACE, type CreateWebhookInput, type UpdateWebhookInput } from './schemas';
import { serializeWebhook } from './serialize';

const storedUrl = (url: string) => ({ urlEncrypted: encryptText(url), urlDisplay: maskUrl(url) });

/** `routerInstanceId` must name a router of the workspace; null means every router. */
async function checkRouter(tx: Tx, workspaceId: string, routerId: string | null | undefined) {
  if (!routerId) return;
  const router = await tx.router.findFirst({ where: { id: routerId, workspaceId }, select: { id: true } });
  if (!router) throw invalidField('routerInstanceId', `no router "${routerId}" in this workspace`);
}

/** A receiver the egress policy refuses is a 400 naming the field (every delivery is checked again). */
async function assertUrlAllowed(url: string | undefined) {
  const refused = url === undefined ? null : await egressRefusal(egressPolicy(), url);
  if (refused) throw invalidField('url', refused);
}

export async function createWebhook(workspaceId: string, input: CreateWebhookInput) {
  await assertUrlAllowed(input.url);
  const webhook = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspaceId} FOR UPDATE`;
    if ((await tx.webhook.count({ where: { workspaceId } })) >= WEBHOOKS_PER_WORKSPACE) {
      throw new ApiError('fair_use_limit_reached', `a workspace can have at most ${WEBHOOKS_PER_WORKSPACE} webhooks`);
    }
    await checkRouter(tx, workspaceId, input.routerInstanceId);
    return tx.webhook.create({
      data: { workspaceId, routerId: input.routerInstanceId ?? null, label: input.label, ...storedUrl(input.url), events: input.events ?? [] },
    });
  });
  return serializeWebhook(webhook);
}

export async function updateWebhook(workspaceId: string, id: string, input: UpdateWebhookInput) {
  await assertUrlAllowed(input.url);
  const webhook = await db.$transaction(async (tx) => {
    const current = await tx.webhook.findFirst({ where: { id, workspaceId } });
    if (!current) throw notFound('webhook');
    await checkRouter(tx, workspaceId, input.routerInstanceId);
    // Switched off: what is still waiting for a retry is dropped rather than sent later.
    if (input.active === false && current.active) await cancelPendingDeliveries(tx, id);
    return tx.webhook.update({
      where: { id },
      data: {
        ...(input.label !== undefined ? { label: input.label } : {}),
        ...(input.url !== undefined ? storedUrl(input.url) : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.routerInstanceId !== undefined ? { routerId: input.routerInstanceId } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
      },
    });
  });
  return serializeWebhook(webhook);
}

/** Deliveries and their log go with it. */
export async function deleteWebhook(workspaceId: string, id: string) {
  const { count } = await db.webhook.deleteMany({ where: { id, workspaceId } });
  if (count === 0) throw notFound('webhook');
  return { id };
}
