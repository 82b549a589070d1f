// Health checks every router's healthCheckIntervalMs. They never start a browser (a billable
// thing on cloud providers): address providers get a TCP (and TLS) connect, managed providers
// their pool status, key-based providers are left to their vendor's own availability. The checks
// follow the RouterStore: they start when a router is loaded, follow its changes and stop when
// the router is deleted.
import { connectEgress, egressFetch } from '../../lib/net/egress-connect';
import { EgressRefusedError } from '../../lib/net/egress-policy';
import { outboundAddress } from '../../lib/providers/egress';
import type { RouterRuntime, RouterStore, RuntimeProvider } from '../config/router-store';
import { systemClock, type Clock, type TimerHandle } from '../engine';

const CHECK_TIMEOUT_MS = 5_000;

export interface HealthReport {
  healthy: boolean;
  /** Why it is unhealthy (the egress policy's refusal, a refused port, no answer), when it is not. */
  reason?: string;
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
      const response = await egressFetch(policy, `${secure ? 'https' : 'http'}://${url.host}/pool/status`, {
        headers,
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
      const status = (await response.json()) as { calibrating?: boolean; capacity?: number; active?: number };
      const capacity = typeof status.capacity === 'number' ? status.capacity : undefined;
      const healthy = response.ok && status.calibrating !== true;
      return {
        healthy,
        reason: healthy ? undefined : `the pool answered ${response.status}${status.calibrating ? ' (calibrating)' : ''}`,
        capacity,
        hasRoom: capacity !== undefined && typeof status.active === 'number' && status.active < capacity,
      };
    } catch (error) {
      return { healthy: false, reason: `health check: ${failureText(error)}` };
    }
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 443 : 80));
  let refusal = '';
  const socket = await connectEgress(policy, { host, port, secure }).catch((error: unknown) => ((refusal = failureText(error)), null));
  if (!socket) return { healthy: false, reason: `health check: ${refusal}` };
  return new Promise((resolve) => {
    const done = (reason?: string) => {
      socket.destroy();
      resolve(reason ? { healthy: false, reason: `health check: ${reason}` } : { healthy: true });
    };
    socket.setTimeout(CHECK_TIMEOUT_MS, () => done(`no answer within ${CHECK_TIMEOUT_MS} ms`));
    socket.once(secure ? 'secureConnect' : 'connect', () => done());
    socket.once('error', (error) => done(error.message));
  });
}

/** An egress refusal worded as a dial's (proxy/websocket/dial.ts), so both name the policy alike. */
function failureText(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const refused = error instanceof EgressRefusedError ? error : cause instanceof EgressRefusedError ? cause : null;
  return refused ? `refused by the egress policy: ${refused.message}` : (error as Error).message;
}

export interface HealthCheckerOptions {
  clock?: Clock;
  /** Checks one provider (the real check unless a test passes its own). */
  check?: (provider: RuntimeProvider) => Promise<HealthReport>;
}

export class HealthChecker {
  private readonly timers = new Map<string, { interval: number; timer: TimerHandle }>();
  private readonly clock: Clock;
  private readonly check: (provider: RuntimeProvider) => Promise<HealthReport>;

  constructor(options: HealthCheckerOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.check = options.check ?? checkProvider;
  }

  /** Checks every router the store loads, with its changes, until the router is deleted. */
  follow(routers: RouterStore): void {
    routers.onRuntime((runtime) => this.watch(runtime));
    routers.onForget((routerId) => this.unwatch(routerId));
  }

  /** (Re)schedules the checks of a router after it was loaded or changed. */
  watch(runtime: RouterRuntime): void {
    const existing = this.timers.get(runtime.id);
    if (existing && existing.interval === runtime.healthCheckIntervalMs) return;
    if (existing) this.clock.clearTimer(existing.timer);
    this.schedule(runtime);
    // Managed providers tell their capacity right away rather than after the first interval.
    if (!existing && runtime.providers.some((p) => p.providerKind === 'managed')) void this.checkAll(runtime);
  }

  /** Stops the checks of a router (it was deleted). */
  unwatch(routerId: string): void {
    const existing = this.timers.get(routerId);
    if (existing) this.clock.clearTimer(existing.timer);
    this.timers.delete(routerId);
  }

  /** Routers being checked (tests). */
  get watching(): number {
    return this.timers.size;
  }

  async checkAll(runtime: RouterRuntime): Promise<void> {
    const reports = await Promise.all(runtime.providers.map(async (p) => [p, await this.check(p)] as const));
    let capacityChanged = false;
    for (const [checked, report] of reports) {
      // A verdict on a configuration that was replaced while the check ran says nothing about the
      // new one (a fixed address must not be marked down by a check of the broken one).
      const provider = runtime.providers.find((p) => p.id === checked.id);
      if (!provider || provider.updatedAt !== checked.updatedAt || !this.timers.has(runtime.id)) continue;
      runtime.engine.setHealthy(provider.id, report.healthy, report.reason);
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
    for (const { timer } of this.timers.values()) this.clock.clearTimer(timer);
    this.timers.clear();
  }

  /** One check per interval, the next timer set when the previous one fires (an interval of one-shot timers). */
  private schedule(runtime: RouterRuntime): void {
    const interval = runtime.healthCheckIntervalMs;
    const tick = () => {
      if (this.timers.get(runtime.id)?.timer !== timer) return;
      timer = this.clock.setTimer(tick, interval);
      this.timers.set(runtime.id, { interval, timer });
      void this.checkAll(runtime);
    };
    let timer = this.clock.setTimer(tick, interval);
    this.timers.set(runtime.id, { interval, timer });
  }
}
