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
  const event = sessionEventOf(session);
  // Read in the transaction, not from a cache: a switch turned off is honoured from its commit on.
  // One statement: the router's Webhooks switch and the webhooks that take this event.
  const webhooks = await tx.$queryRaw<{ id: string }[]>`
    SELECT w."id" FROM "Webhook" w
    JOIN "Router" r ON r."id" = ${session.routerId} AND r."webhooksEnabled"
    WHERE w."workspaceId" = ${session.workspaceId} AND w."active"
      AND (w."routerId" IS NULL OR w."routerId" = ${session.routerId})
      AND (cardinality(w."events") = 0 OR ${event} = ANY (w."events"))
    ORDER BY w."createdAt" ASC`;
  if (webhooks.length === 0) return [];
  return enqueueDeliveries(tx, {
    queue: CLOUD_QUEUE,
    workspaceId: session.workspaceId,
    webhookIds: webhooks.map((w) => w.id),
    payload: sessionPayload(session, cloudSource()),
  });
}
