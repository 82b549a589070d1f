// Health checks every router's healthCheckIntervalMs. They never start a browser (a billable
// thing on cloud providers): address providers get a TCP (and TLS) connect, managed providers
// their pool status, key-based providers are left to their vendor's own availability.
import { connectEgress, egressFetch } from '../../lib/net/egress-connect';
import { outboundAddress } from '../../lib/providers/egress';
import type { RouterRuntime, RuntimeProvider } from '../config/router-store';

const CHECK_TIMEOUT_MS = 5_000;

export interface HealthReport {
  healthy: boolean;
  /** A managed provider's current capacity, which bounds its concurrency when maxConcurrent is unset. */
  capacity?: number;
  /** A managed provider with fewer sessions than its capacity right now (it has room). */
  hasRoom?: boolean;
}

export async function checkProvider(provider: RuntimeProvider): Promise<HealthReport> {
  if (!provider.url) return { healthy: true };
  const url = new URL(provider.url);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  // Checks go where dials may go: the egress policy (the local pool exempt, and given its token).
  const { policy, headers } = outboundAddress({ url: provider.url, headers: provider.headers });
  if (provider.providerKind === 'managed') {
    try {
      const response = await egressFetch(policy, `${secure ? 'https' : 'http'}://${url.host}/pool/status`, { headers, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      const status = (await response.json()) as { calibrating?: boolean; capacity?: number; active?: number };
      const capacity = typeof status.capacity === 'number' ? status.capacity : undefined;
      return { healthy: response.ok && status.calibrating !== true, capacity, hasRoom: capacity !== undefined && typeof status.active === 'number' && status.active < capacity };
    } catch {
      return { healthy: false };
    }
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 443 : 80));
  const socket = await connectEgress(policy, { host, port, secure }).catch(() => null);
  if (!socket) return { healthy: false };
  return new Promise((resolve) => {
    const done = (ok: boolean) => { socket.destroy(); resolve({ healthy: ok }); };
    socket.setTimeout(CHECK_TIMEOUT_MS, () => done(false));
    socket.once(secure ? 'secureConnect' : 'connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export class HealthChecker {
  private readonly timers = new Map<string, { interval: number; timer: NodeJS.Timeout }>();

  /** (Re)schedules the checks of a router after it was loaded or changed. */
  watch(runtime: RouterRuntime): void {
    const existing = this.timers.get(runtime.id);
    if (existing && existing.interval === runtime.healthCheckIntervalMs) return;
    if (existing) clearInterval(existing.timer);
    const timer = setInterval(() => void this.checkAll(runtime), runtime.healthCheckIntervalMs);
    timer.unref();
    this.timers.set(runtime.id, { interval: runtime.healthCheckIntervalMs, timer });
    // Managed providers tell their capacity right away rather than after the first interval.
    if (!existing && runtime.providers.some((p) => p.providerKind === 'managed')) void this.checkAll(runtime);
  }

  async checkAll(runtime: RouterRuntime): Promise<void> {
    const reports = await Promise.all(runtime.providers.map(async (p) => [p, await checkProvider(p)] as const));
    let capacityChanged = false;
    for (const [provider, report] of reports) {
      runtime.engine.setHealthy(provider.id, report.healthy);
      // A provider that answered "at capacity" is tried again as soon as a report shows room.
      if (report.healthy && report.hasRoom) runtime.engine.capacityFreed(provider.id);
      if (report.capacity !== undefined && provider.advertisedMaxConcurrent !== report.capacity) {
        provider.advertisedMaxConcurrent = report.capacity;
        capacityChanged = true;
      }
    }
    if (capacityChanged) runtime.engine.update(runtime.settings, runtime.providers);
  }

  stop(): void {
    for (const { timer } of this.timers.values()) clearInterval(timer);
    this.timers.clear();
  }
}
