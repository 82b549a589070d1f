// Whether each provider answers, for GET /v1/status and the dashboard: dialled exactly as
// `gateway check` dials it (lib/providers/check-provider.ts: the WebSocket within
// gateway.connectionTimeout, then one CDP answer), once at start-up and then every 30 s. Cooldown
// only learns of a dead provider when a client's connect fails there; the probe tells the operator
// before any client does. It never moves a provider in or out of the pool: routing stays with the
// engine's failure accounting (docs/gateway.md, "Provider health").
//
// A round waits for the previous one to finish, so probes never overlap; the timer is the clock's
// (unref'd by systemClock) and stop() clears it.
import { log } from '../../lib/log';
import { proxyFor } from '../../lib/net/outbound-proxy';
import { testOperatorAddress, type ProviderAddress, type TestOutcome } from '../../lib/providers/check-provider';
import type { Clock, TimerHandle } from '../engine';
import type { GatewayProvider } from './config';

export const PROBE_INTERVAL_MS = 30_000;

export interface Reachability {
  /** null before the first probe of this provider finished, or when it is not probed. */
  reachable: boolean | null;
  /** ISO time the last probe finished. */
  checkedAt: string | null;
  /** Connect and first CDP answer, when reachable. */
  latencyMs: number | null;
  /** Why it is unreachable (or not probed); names the host only, never the path, query or headers. */
  reason: string | null;
}

const UNCHECKED: Reachability = Object.freeze({ reachable: null, checkedAt: null, latencyMs: null, reason: null });

/** The probe does not use HTTP(S)_PROXY (as `gateway check`): a provider behind it would look dead. */
const NOT_PROBED_PROXY = 'not probed: dialled through HTTP_PROXY/HTTPS_PROXY, which the probe does not use';

export type ProbeFn = (address: ProviderAddress, timeoutMs: number) => Promise<TestOutcome>;

export interface ProbeOptions {
  clock: Clock;
  /** gateway.connectionTimeout. */
  timeoutMs: number;
  env: Readonly<Record<string, string | undefined>>;
  intervalMs?: number;
  /**
   * A provider at its maxConcurrent is not dialled (its last result stands): a pool at capacity
   * would refuse the probe, and a probe would take a browser slot from a client.
   */
  isFull?: (providerId: string) => boolean;
  probe?: ProbeFn;
}

export class ProviderProbes {
  private readonly results = new Map<string, Reachability>();
  private readonly probed: readonly GatewayProvider[];
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    providers: readonly GatewayProvider[],
    private readonly options: ProbeOptions,
  ) {
    const viaProxy = (p: GatewayProvider) => proxyFor(new URL(p.url), options.env) !== null;
    for (const p of providers.filter(viaProxy)) this.results.set(p.id, { ...UNCHECKED, reason: NOT_PROBED_PROXY });
    this.probed = providers.filter((p) => !viaProxy(p));
  }

  /** The first round now; the next ones `intervalMs` after each round ends. */
  start(): void {
    void this.round();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.options.clock.clearTimer(this.timer);
    this.timer = null;
  }

  of(providerId: string): Reachability {
    return this.results.get(providerId) ?? UNCHECKED;
  }

  private async round(): Promise<void> {
    this.timer = null;
    const due = this.probed.filter((p) => !this.options.isFull?.(p.id));
    await Promise.all(due.map((p) => this.probeOne(p)));
    if (this.stopped) return;
    this.timer = this.options.clock.setTimer(() => void this.round(), this.options.intervalMs ?? PROBE_INTERVAL_MS);
  }

  private async probeOne(provider: GatewayProvider): Promise<void> {
    const probe = this.options.probe ?? testOperatorAddress;
    const outcome = await probe({ url: provider.url, headers: provider.headers }, this.options.timeoutMs).catch((error: Error): TestOutcome => ({
      ok: false,
      reason: `unexpected failure: ${error?.message ?? String(error)}`,
    }));
    if (this.stopped) return;
    const before = this.results.get(provider.id)?.reachable ?? null;
    const checkedAt = new Date(this.options.clock.now()).toISOString();
    if (outcome.ok) {
      this.results.set(provider.id, { reachable: true, checkedAt, latencyMs: outcome.latencyMs, reason: null });
      if (before === false) log.info({ provider: provider.id, latencyMs: outcome.latencyMs }, 'provider reachable again');
      return;
    }
    const reason = scrubReason(outcome.reason, provider);
    this.results.set(provider.id, { reachable: false, checkedAt, latencyMs: null, reason });
    // Once per change, not every 30 s.
    if (before !== false) log.warn({ provider: provider.id, reason }, 'provider unreachable');
  }
}

/**
 * check-provider names only the host in its own reasons; a reason passed on from a library (an
 * unexpected failure) could still quote the address. Whatever of the address or headers could be
 * a secret is cut out.
 */
export function scrubReason(reason: string, provider: Pick<GatewayProvider, 'url' | 'headers'>): string {
  const secrets = new Set<string>([provider.url, ...Object.values(provider.headers)]);
  try {
    const url = new URL(provider.url);
    for (const part of [url.href, url.username, url.password, url.pathname + url.search, url.pathname, url.search, ...url.searchParams.values()])
      secrets.add(part);
    for (const part of [url.username, url.password, ...url.searchParams.values()]) secrets.add(encodeURIComponent(part));
  } catch {
    // not a URL: the raw string above is all there is to cut
  }
  let scrubbed = reason;
  // Longest first, so a whole address goes before the parts inside it; very short parts ("", "/",
  // "1") are no secrets and would cut letters out of the message.
  for (const secret of [...secrets].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length)) scrubbed = scrubbed.split(secret).join('***');
  return scrubbed;
}
