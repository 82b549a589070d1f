// Router runtime per router: settings, enabled providers (addresses decrypted) and the routing
// engine that owns their slots, cooldown and queue. Loaded on first use and refreshed in place
// when the control plane NOTIFYs a change, so engine state (active slots, cooldown) survives.
import { db } from '../../lib/db';
import { openAddress, openCredentials } from '../../lib/providers/secrets';
import { log } from '../../lib/log';
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
}

export interface RouterRuntime {
  id: string;
  workspaceId: string;
  settings: RouterSettings;
  connectionTimeoutMs: number;
  sessionIdleTimeoutMs: number;
  healthCheckIntervalMs: number;
  switches: { webhooksEnabled: boolean; profilesEnabled: boolean; replayEnabled: boolean; observabilityEnabled: boolean };
  providers: RuntimeProvider[];
  engine: RouterEngine<RuntimeProvider>;
}

type Loaded = Omit<RouterRuntime, 'engine'>;

async function load(routerId: string): Promise<Loaded | null> {
  const router = await db.router.findUnique({ where: { id: routerId }, include: { providers: { where: { enabled: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } });
  if (!router) return null;
  const providers: RuntimeProvider[] = [];
  for (const p of router.providers) {
    try {
      const capabilities = (p.capabilities ?? {}) as { providerKind?: string; advertisedMaxConcurrent?: number | null };
      providers.push({
        id: p.id, slug: p.slug, name: p.name, priority: p.priority, weight: p.weight, maxConcurrent: p.maxConcurrent,
        advertisedMaxConcurrent: capabilities.advertisedMaxConcurrent ?? null,
        providerKind: capabilities.providerKind === 'managed' ? 'managed' : 'generic',
        profileId: p.profileId, adapterKind: p.adapterKind,
        ...(openAddress(p) ?? { url: null, headers: {} }),
        credentials: openCredentials(p),
        options: (p.options ?? {}) as Record<string, unknown>,
      });
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
    switches: { webhooksEnabled: router.webhooksEnabled, profilesEnabled: router.profilesEnabled, replayEnabled: router.replayEnabled, observabilityEnabled: router.observabilityEnabled },
    providers,
  };
}

export class RouterStore {
  private readonly runtimes = new Map<string, Promise<RouterRuntime | null>>();
  private readonly listeners: ((runtime: RouterRuntime) => void)[] = [];

  /** Called after a runtime is created or refreshed (the health checker follows it). */
  onRuntime(listener: (runtime: RouterRuntime) => void): void {
    this.listeners.push(listener);
  }

  get(routerId: string): Promise<RouterRuntime | null> {
    let entry = this.runtimes.get(routerId);
    if (!entry) {
      entry = load(routerId).then((loaded) => {
        if (!loaded) return null;
        const runtime: RouterRuntime = { ...loaded, engine: new RouterEngine({ clock: systemClock, settings: loaded.settings, providers: loaded.providers }) };
        this.listeners.forEach((l) => l(runtime));
        return runtime;
      });
      entry.catch(() => this.runtimes.delete(routerId));
      this.runtimes.set(routerId, entry);
    }
    return entry;
  }

  /** Re-reads a router after a change; its engine keeps slots and cooldowns. */
  async refresh(routerId: string): Promise<void> {
    const current = await this.runtimes.get(routerId)?.catch(() => null);
    if (!current) return;
    const loaded = await load(routerId);
    if (!loaded) {
      current.engine.close();
      this.runtimes.delete(routerId);
      return;
    }
    Object.assign(current, loaded);
    current.engine.update(loaded.settings, loaded.providers);
    this.listeners.forEach((l) => l(current));
  }

  async refreshAll(): Promise<void> {
    await Promise.all([...this.runtimes.keys()].map((id) => this.refresh(id)));
  }

  async all(): Promise<RouterRuntime[]> {
    return (await Promise.all(this.runtimes.values())).filter((r): r is RouterRuntime => r !== null);
  }
}
