// `session.ended` / `session.error` into the outbox, in the transaction that writes the session's
// end, so the event exists exactly when the end does. Called for connect and agent sessions
// only: data-API calls never reach here, and playground sessions are skipped.
import { Prisma, type Tx } from '../db';
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
  const webhooks = await tx.$queryRaw<{ id: string }[]>`${matchingWebhooks(session.workspaceId, session.routerId, event)} ORDER BY w."createdAt" ASC`;
  if (webhooks.length === 0) return [];
  return enqueueDeliveries(tx, {
    queue: CLOUD_QUEUE,
    workspaceId: session.workspaceId,
    webhookIds: webhooks.map((w) => w.id),
    payload: sessionPayload(session, cloudSource()),
  });
}

/**
 * The webhooks that take `event` for a session of this router: the router's Webhooks switch on,
 * the webhook active, for every router or this one, and listening to the event. One statement,
 * shared with the proxy's single-statement session end (lib/sessions/session-writer.ts).
 */
export function matchingWebhooks(workspaceId: string, routerId: string, event: string): Prisma.Sql {
  return Prisma.sql`
    SELECT w."id" FROM "Webhook" w
    JOIN "Router" r ON r."id" = ${routerId} AND r."webhooksEnabled"
    WHERE w."workspaceId" = ${workspaceId} AND w."active"
      AND (w."routerId" IS NULL OR w."routerId" = ${routerId})
      AND (cardinality(w."events") = 0 OR ${event} = ANY (w."events"))`;
}
