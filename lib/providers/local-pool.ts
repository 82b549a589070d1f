// On a local install the browser pool started by `npm start` (LOCAL_POOL_URL) becomes the first
// provider of every new router, so a fresh install serves Playwright with no cloud account.
// LOCAL_POOL_AUTO_PROVIDER=0 turns that off.
import type { Prisma } from '../db/generated/client';
import type { Tx } from '../db';
import { fetchPoolStatus } from './detect-managed';
import { outboundAddress } from './egress';
import { latestLocalPoolProbe, probeLocalPool } from './local-pool-probe';
import { unprobedCapabilities } from './probe-capabilities';
import { sealAddress } from './secrets';
import { LOCAL_POOL_SLUG, localPoolAddress } from './local-pool-address';

export { LOCAL_POOL_SLUG, localPoolAddress } from './local-pool-address';

export async function addLocalPoolProvider(tx: Tx, scope: { workspaceId: string; routerId: string }) {
  const address = localPoolAddress();
  if (!address) return null;
  // The pool may still be calibrating: its capacity is learned later by the proxy's health checks.
  const out = outboundAddress(address);
  const status = await fetchPoolStatus(out.url, out.headers, 500, out.policy);
  // The install's latest probe of the pool; without one the row is filled in by the probe started
  // now (lib/providers/local-pool-probe.ts): this transaction cannot wait for a browser.
  const probed = latestLocalPoolProbe();
  if (!probed) void probeLocalPool();
  const capabilities = {
    ...(probed ?? unprobedCapabilities()),
    providerKind: 'managed',
    advertisedMaxConcurrent: status?.capacity ?? probed?.advertisedMaxConcurrent ?? null,
  };
  return tx.provider.create({
    data: {
      workspaceId: scope.workspaceId,
      routerId: scope.routerId,
      slug: LOCAL_POOL_SLUG,
      name: 'Local browser pool',
      ...sealAddress(address.url, address.headers),
      capabilities: capabilities as unknown as Prisma.InputJsonValue,
    },
  });
}
