// Several proxies may run (docs/deployment.md): what concerns one running session (its live
// view) is asked of the proxy that holds it, at the address that proxy's run registered.
import { db } from '../db';

/** The internal address of the proxy run holding the session, or null when it registered none (then the configured proxy). */
export async function holdingProxyUrl(proxyInstanceId: string | null): Promise<string | null> {
  if (!proxyInstanceId) return null;
  const run = await db.proxyInstance.findUnique({ where: { id: proxyInstanceId }, select: { internalUrl: true } });
  return run?.internalUrl?.replace(/\/+$/, '') ?? null;
}
