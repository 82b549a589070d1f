// Health checks every router's healthCheckIntervalMs. They never start a browser (a billable
// thing on cloud providers): address providers get a TCP (and TLS) connect, managed providers
// their pool status, key-based providers are left to their vendor's own availability.
import net from 'node:net';
import tls from 'node:tls';
import type { RouterRuntime, RuntimeProvider } from '../config/router-store';

const CHECK_TIMEOUT_MS = 5_000;

export interface HealthReport {
  healthy: boolean;
  /** A managed provider's current capacity, which bounds its concurrency when maxConcurrent is unset. */
  capacity?: number;
}

export async function checkProvider(provider: RuntimeProvider): Promise<HealthReport> {
  if (!provider.url) return { healthy: true };
  const url = new URL(provider.url);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  if (provider.providerKind === 'managed') {
    try {
      const response = await fetch(`${secure ? 'https' : 'http'}://${url.host}/pool/status`, { headers: provider.headers, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      const status = (await response.json()) as { calibrating?: boolean; capacity?: number };
      return { healthy: response.ok && status.calibrating !== true, capacity: typeof status.capacity === 'number' ? status.capacity : undefined };
    } catch {
      return { healthy: false };
    }
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
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
