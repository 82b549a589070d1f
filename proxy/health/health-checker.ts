// Health checks every router's healthCheckIntervalMs. They never start a browser (a billable
// thing on cloud providers): address providers get a TCP (and TLS) connect, managed providers
// their pool status, key-based providers are left to their vendor's own availability.
import net from 'node:net';
import tls from 'node:tls';
import type { RouterRuntime, RuntimeProvider } from '../config/router-store';

const CHECK_TIMEOUT_MS = 5_000;

export async function checkProvider(provider: RuntimeProvider): Promise<boolean> {
  if (!provider.url) return true;
  const url = new URL(provider.url);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  if (provider.providerKind === 'managed') {
    try {
      const response = await fetch(`${secure ? 'https' : 'http'}://${url.host}/pool/status`, { headers: provider.headers, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      const status = (await response.json()) as { calibrating?: boolean };
      return response.ok && status.calibrating !== true;
    } catch {
      return false;
    }
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    const done = (ok: boolean) => { socket.destroy(); resolve(ok); };
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
  }

  async checkAll(runtime: RouterRuntime): Promise<void> {
    await Promise.all(runtime.providers.map(async (p) => runtime.engine.setHealthy(p.id, await checkProvider(p))));
  }

  stop(): void {
    for (const { timer } of this.timers.values()) clearInterval(timer);
    this.timers.clear();
  }
}
