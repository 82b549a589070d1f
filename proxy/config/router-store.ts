// Router runtime per router: settings, enabled providers (addresses decrypted) and the routing
// engine that owns their slots, cooldown and queue. Loaded on first use and refreshed in place
// when the control plane NOTIFYs a change, so engine state (active slots, cooldown) survives,
// except for a provider whose configuration was changed: that one starts afresh. A router that
// is gone is forgotten (its engine closed, its health checks stopped).
import { db } from '../../lib/db';
import type { Provider } from '../../lib/db/generated/client';
import { openAddress, openCredentials } from '../../lib/providers/secrets';
import { log } from '../../lib/log';
import { extraRedactNames } from '../../lib/traces/redact';
import { RouterEngine, systemClock, type ProviderConfig, type RouterSettings, type StrategyName } from '../engine';

export interface RuntimeProvider extends ProviderConfig {
  name: string;
  profileId: string | null;
  providerKind: 'managed' | 'generic';
  adapterKind: string | null;
  url: string | null;
  headers: Record<string, string>;
  /** Key-based providers: the vendor key (decrypted) and adapter options. */
  credentials: { apiKey: string } | null;
  options: Record<string, unknown>;
  /** When the provider row was last changed (ms): a new value means a new configuration. */
  updatedAt: number;
  /** False when the capability probe found that the provider cannot screencast (it cannot record sessions). */
  canRecord: boolean;
}

export interface RouterRuntime {
  id: string;
  workspaceId: string;
  settings: RouterSettings;
  connectionTimeoutMs: number;
  sessionIdleTimeoutMs: number;
  healthCheckIntervalMs: number;
  switches: { webhooksEnabled: boolean; profilesEnabled: boolean; replayEnabled: boolean; observabilityEnabled: boolean };
  /** The router agent settings: what an agent's browser gets for the options its caller left unset. */
  agent: { recordDefault: boolean; observabilityDefault: boolean; defaultProfile: string | null /* profile slug */; saveProfileDefault: boolean };
  /** Header and query-parameter names its traces redact besides the defaults (lowercase, lib/traces/redact.ts). */
  traceRedactNames: ReadonlySet<string>;
  providers: RuntimeProvider[];
  engine: RouterEngine<RuntimeProvider>;
}

export type LoadedRouter = Omit<RouterRuntime, 'engine'>;

async function load(routerId: string): Promise<LoadedRouter | null> {
  const router = await db.router.findUnique({
    where: { id: routerId },
    include: { providers: { where: { enabled: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }, defaultProfile: { select: { slug: true } } },
  });
  if (!router) return null;
  const providers: RuntimeProvider[] = [];
  for (const p of router.providers) {
    try {
      providers.push(runtimeProvider(p));
    } catch (error) {
      log.error({ providerId: p.id, err: (error as Error).message }, 'provider configuration unreadable; skipped');
    }
  }
  return {
    id: router.id,
    workspaceId: router.workspaceId,
    settings: {
      strategy: router.strategy as StrategyName,
      cooldownDefaultMs: router.cooldownDefaultMs,
      cooldownFailureThreshold: router.cooldownFailureThreshold,
      cooldownMinRequestVolume: router.cooldownMinRequestVolume,
      queueMaxSize: router.queueMaxSize,
      queueTimeoutMs: router.queueTimeoutMs,
    },
    connectionTimeoutMs: router.connectionTimeoutMs,
    sessionIdleTimeoutMs: router.sessionIdleTimeoutMs,
    healthCheckIntervalMs: router.healthCheckIntervalMs,
    switches: {
      webhooksEnabled: router.webhooksEnabled,
      profilesEnabled: router.profilesEnabled,
      replayEnabled: router.replayEnabled,
      observabilityEnabled: router.observabilityEnabled,
    },
    agent: {
      recordDefault: router.recordDefault,
      observabilityDefault: router.observabilityDefault,
      defaultProfile: router.defaultProfile?.slug ?? null,
      saveProfileDefault: router.saveProfileDefault,
    },
    traceRedactNames: extraRedactNames(router.traceRedactNames),
    providers,
  };
}

/** A provider row as routing uses it: its address and key decrypted, what the capability probe found. */
function runtimeProvider(p: Provider): RuntimeProvider {
  const capabilities = (p.capabilities ?? {}) as { providerKind?: string; advertisedMaxConcurrent?: number | null; pageScreencast?: string };
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    priority: p.priority,
    weight: p.weight,
    maxConcurrent: p.maxConcurrent,
    advertisedMaxConcurrent: capabilities.advertisedMaxConcurrent ?? null,
    providerKind: capabilities.providerKind === 'managed' ? 'managed' : 'generic',
    profileId: p.profileId,
    adapterKind: p.adapterKind,
    ...(openAddress(p) ?? { url: null, headers: {} }),
    credentials: openCredentials(p),
    options: (p.options ?? {}) as Record<string, unknown>,
    updatedAt: p.updatedAt.getTime(),
    canRecord: capabilities.pageScreencast !== 'unsupported',
  };
}

/** Routing state kept where every proxy sees it (proxy/cluster/); absent for a proxy on its own. */
export interface SharedRouting {
  /** Cooldowns running now on these providers, in ms left (a router loading picks them up). */
  cooldowns(providerIds: readonly string[]): Promise<{ providerId: string; remainingMs: number }[]>;
  /** A provider's configuration changed: the failures counted about the old one are dropped everywhere. */
  reset(providerId: string): Promise<void>;
}

export class RouterStore {
  private readonly runtimes = new Map<string, Promise<RouterRuntime | null>>();
  /** Refreshes under way: a get() waits for its router's, so a connect right after a change sees it. */
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly listeners: ((runtime: RouterRuntime) => void)[] = [];
  private readonly forgetListeners: ((routerId: string) => void)[] = [];

  /** `loader` reads a router (the database unless a test passes its own). */
  constructor(
    private readonly loader: (routerId: string) => Promise<LoadedRouter | null> = load,
    private readonly shared?: SharedRouting,
  ) {}

  /** Called after a runtime is created or refreshed (the health checker follows it). */
  onRuntime(listener: (runtime: RouterRuntime) => void): void {
    this.listeners.push(listener);
  }

  /** Called when a loaded router turned out to be deleted and was dropped. */
  onForget(listener: (routerId: string) => void): void {
    this.forgetListeners.push(listener);
  }

  async get(routerId: string): Promise<RouterRuntime | null> {
    const refreshing = this.refreshing.get(routerId);
    // A failed refresh is logged by its caller; this connect goes on with what is loaded.
    if (refreshing) await refreshing.catch(() => {});
    let entry = this.runtimes.get(routerId);
    if (!entry) {
      entry = this.loader(routerId).then(async (loaded) => {
        if (!loaded) return null;
        const engine = new RouterEngine({ clock: systemClock, settings: loaded.settings, providers: loaded.providers, shared: this.shared !== undefined });
        for (const c of (await this.shared?.cooldowns(loaded.providers.map((p) => p.id))) ?? []) engine.enterCooldown(c.providerId, c.remainingMs);
        const runtime: RouterRuntime = { ...loaded, engine };
        this.listeners.forEach((l) => l(runtime));
        return runtime;
      });
      const created = entry;
      created.catch(() => {
        if (this.runtimes.get(routerId) === created) this.runtimes.delete(routerId);
      });
      this.runtimes.set(routerId, created);
    }
    return entry;
  }

  /**
   * Re-reads a router after a change; its engine keeps slots and cooldowns, but a provider whose
   * row changed starts afresh (health, cooldown), so a fixed address is usable at once.
   */
  refresh(routerId: string): Promise<void> {
    // Refreshes of one router run one after the other, so the last notification's read wins.
    const previous = this.refreshing.get(routerId)?.catch(() => {}) ?? Promise.resolve();
    const next = previous
      .then(() => this.reload(routerId))
      .finally(() => {
        if (this.refreshing.get(routerId) === next) this.refreshing.delete(routerId);
      });
    this.refreshing.set(routerId, next);
    return next;
  }

  async refreshAll(): Promise<void> {
    await Promise.all([...this.runtimes.keys()].map((id) => this.refresh(id)));
  }

  /** A slot freed on the provider somewhere (a session ended on any proxy): one waiter here may try for it. */
  capacityFreed(providerId: string): void {
    void this.withProvider(providerId, (runtime) => runtime.engine.capacityFreed(providerId, 1));
  }

  /** A shared cooldown started on the provider (decided from every proxy's failures). */
  enterCooldown(providerId: string, remainingMs: number): void {
    void this.withProvider(providerId, (runtime) => runtime.engine.enterCooldown(providerId, remainingMs));
  }

  /** Every loaded engine looks at its queue again (after notifications may have been missed). */
  async recheckAll(): Promise<void> {
    for (const runtime of await this.all()) runtime.engine.recheck();
  }

  private async withProvider(providerId: string, fn: (runtime: RouterRuntime) => void): Promise<void> {
    for (const runtime of await this.all()) if (runtime.providers.some((p) => p.id === providerId)) fn(runtime);
  }

  async all(): Promise<RouterRuntime[]> {
    return (await Promise.all(this.runtimes.values())).filter((r): r is RouterRuntime => r !== null);
  }

  private async reload(routerId: string): Promise<void> {
    const entry = this.runtimes.get(routerId);
    if (!entry) return;
    const current = await entry.catch(() => null);
    if (!current) {
      // Nothing loaded (the router did not exist or failed to load): read it afresh next time.
      if (this.runtimes.get(routerId) === entry) this.runtimes.delete(routerId);
      return;
    }
    const loaded = await this.loader(routerId);
    if (!loaded) {
      current.engine.close();
      this.runtimes.delete(routerId);
      this.forgetListeners.forEach((l) => l(routerId));
      return;
    }
    const before = new Map(current.providers.map((p) => [p.id, p.updatedAt]));
    Object.assign(current, loaded);
    current.engine.update(loaded.settings, loaded.providers);
    for (const p of loaded.providers) {
      const was = before.get(p.id);
      if (was !== undefined && was !== p.updatedAt) {
        current.engine.reset(p.id);
        this.shared?.reset(p.id).catch((error: Error) => log.error({ providerId: p.id, err: error.message }, 'could not reset shared provider state'));
      }
    }
    this.listeners.forEach((l) => l(current));
  }
}
