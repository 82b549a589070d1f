// What the capture tests (recordings, traces) share: a user whose router has one provider and a
// funded wallet (capture is refused on an empty one), and a proxy of the test file's own, for
// settings the shared stack cannot have (a small byte or event cap).
import { randomUUID } from 'node:crypto';
import { newUser, type TestUser } from './api';
import { eventually, routerKey } from './connect';
import { addProvider } from './providers';
import { freePort } from '../../scripts/lib/ports';
import { startProxy, type ProxyOptions, type ProxyServer } from '../../proxy/server';
import { post } from '../../lib/billing/ledger';
import { db, type Prisma } from '../../lib/db';

export type CaptureUser = TestUser & { key: string };

/** A new user whose router's one provider is `wsUrl`, granted `balanceMillicents` (none when 0). */
export async function userWithProvider(tag: string, wsUrl: string, balanceMillicents = 10_000_000n): Promise<CaptureUser> {
  const user = await newUser(tag);
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: wsUrl });
  if (balanceMillicents > 0n) await post(db, user.workspaceId, [{ kind: 'grant', amountMillicents: balanceMillicents, cause: `grant:${randomUUID()}` }]);
  return { ...user, key: await routerKey(user.workspaceId, user.routerId) };
}

/** A proxy on a free port (loopback unless `options.host` says otherwise) with `options` (no webhooks, no jobs); stop it in `after`. */
export async function ownProxy(
  tag: string,
  options: Partial<Pick<ProxyOptions, 'recording' | 'traces' | 'host' | 'agents'>>,
): Promise<{ proxy: ProxyServer; url: string }> {
  const port = await freePort();
  const proxy = await startProxy({
    port,
    proxyInstanceId: `${tag}-${port}`,
    shutdownDrainMs: 100,
    webhooks: false,
    jobs: false,
    ...options,
    host: options.host ?? '127.0.0.1',
  });
  return { proxy, url: `ws://127.0.0.1:${port}` };
}

/**
 * The id of the workspace's newest session once its row exists: the proxy writes it just after the
 * 101, off the connect path, so a test that asks at once may be early.
 */
export async function newestSessionId(workspaceId: string, where: Prisma.SessionLogWhereInput = {}): Promise<string> {
  const row = await eventually(
    () => db.sessionLog.findFirst({ where: { workspaceId, ...where }, orderBy: { startedAt: 'desc' }, select: { id: true } }),
    10_000,
    'the session row',
  );
  return row.id;
}
