// Webhook test helpers: create through the API, read the outbox, end a real session through the proxy.
import { call, expectOk, type TestUser } from './api';
import { cdp, eventually, expectOpened } from './connect';

export const SOURCE = `${process.env.GATEWAY_NAME?.trim() || 'browser-router'}/cloud`;

export async function createWebhook(user: TestUser, body: Record<string, unknown>): Promise<any> {
  return expectOk(await call('POST', '/v1/webhooks', { auth: { token: user.token }, headers: { 'x-workspace-id': user.workspaceId }, body }), 201);
}

/** Outbox rows of one session's events (written in the session-end transaction). */
export async function deliveriesOf(sessionId: string) {
  const { db } = await import('../../lib/db');
  return db.$queryRaw<{ id: string; webhookId: string; event: string; status: string; attempts: number }[]>`
    SELECT "id", "webhookId", "event", "status", "attempts" FROM "WebhookDelivery" WHERE "payload"->'data'->>'sessionId' = ${sessionId} ORDER BY "createdAt"`;
}

/** The session row once its end is written. */
export async function endedSession(sessionId: string) {
  const { db } = await import('../../lib/db');
  return eventually(
    async () => {
      const row = await db.sessionLog.findUnique({ where: { id: sessionId } });
      return row && row.state !== 'active' ? row : null;
    },
    10_000,
    `the end of ${sessionId}`,
  );
}

/** Opens a session through the proxy, makes one CDP round trip, closes it normally; returns the ended row. */
export async function oneSession(connectUrl: string) {
  const opened = await expectOpened(connectUrl);
  await cdp(opened.ws, 'Browser.getVersion');
  opened.ws.close();
  await opened.closed;
  return endedSession(opened.sessionId);
}

export async function deliveryStatus(deliveryId: string) {
  const { db } = await import('../../lib/db');
  return (await db.webhookDelivery.findUnique({ where: { id: deliveryId } }))?.status ?? null;
}
