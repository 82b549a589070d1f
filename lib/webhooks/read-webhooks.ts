// Webhooks of a workspace: the list (newest first, paged like the other lists), one webhook.
import { db } from '../db';
import { notFound } from '../api/errors';
import type { z } from 'zod';
import type { listWebhooksQuery } from './schemas';
import { serializeWebhook } from './serialize';

export async function listWebhooks(workspaceId: string, query: z.infer<typeof listWebhooksQuery>) {
  const where = { workspaceId };
  const [items, total] = await Promise.all([
    db.webhook.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (query.page - 1) * query.pageSize, take: query.pageSize }),
    db.webhook.count({ where }),
  ]);
  return { items: items.map(serializeWebhook), total, page: query.page, pageSize: query.pageSize };
}

export async function getWebhookRowOrThrow(workspaceId: string, id: string) {
  const webhook = await db.webhook.findFirst({ where: { id, workspaceId } });
  if (!webhook) throw notFound('webhook');
  return webhook;
}

export async function getWebhook(workspaceId: string, id: string) {
  return serializeWebhook(await getWebhookRowOrThrow(workspaceId, id));
}
