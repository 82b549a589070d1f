// Router and provider changes reach running proxies through PostgreSQL NOTIFY (issue: connect
// proxy listens on this channel). Sent inside the writing transaction, so it fires on commit only.
import { db, type Tx } from '../db';

export const ROUTER_CHANNEL = 'router_changed';

export async function notifyRouterChanged(tx: Tx, routerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${ROUTER_CHANNEL}, ${routerId})`;
}

/** The same signal after a write that ran outside a transaction. */
export async function announceRouterChange(routerId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${ROUTER_CHANNEL}, ${routerId})`;
}
