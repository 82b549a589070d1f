// `session.ended` / `session.error` into the outbox, in the transaction that writes the session's
// end, so the event exists exactly when the end does. Called for connect and agent sessions
// only: data-API calls never reach here, and playground sessions are skipped.
import type { Tx } from '../db';
import { CLOUD_QUEUE, enqueueDeliveries } from './outbox';
import { cloudSource, sessionEventOf, sessionPayload, type EndedSession } from './payload';

export interface SessionForEvent extends EndedSession {
  workspaceId: string;
  routerId: string | null;
  playground: boolean;
}

export async function enqueueSessionEvent(tx: Tx, session: SessionForEvent): Promise<string[]> {
  if (session.playground || !session.routerId || session.state === 'active') return [];
  // Read in the transaction, not from a cache: a switch turned off is honoured from its commit on.
  const router = await tx.router.findUnique({ where: { id: session.routerId }, select: { webhooksEnabled: true } });
  if (!router?.webhooksEnabled) return [];
  const event = sessionEventOf(session);
  const webhooks = await tx.webhook.findMany({
    where: {
      workspaceId: session.workspaceId,
      active: true,
      OR: [{ routerId: null }, { routerId: session.routerId }],
      AND: [{ OR: [{ events: { isEmpty: true } }, { events: { has: event } }] }],
    },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  return enqueueDeliveries(tx, {
    queue: CLOUD_QUEUE,
    workspaceId: session.workspaceId,
    webhookIds: webhooks.map((w) => w.id),
    payload: sessionPayload(session, cloudSource()),
  });
}
