// Test fixtures shared by the engine's test files (not part of the public surface).

import { FakeClock } from './clock';
import { RouterEngine } from './engine';
import type { EngineError } from './errors';
import type { SlotStore } from './slots';
import { DEFAULT_ROUTER_SETTINGS, type ProviderConfig, type RouterSettings } from './types';

export function provider(id: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    id,
    slug: `${id}-slug`,
    priority: 100,
    weight: 100,
    maxConcurrent: null,
    advertisedMaxConcurrent: null,
    ...overrides,
  };
}

export function settings(overrides: Partial<RouterSettings> = {}): RouterSettings {
  return { ...DEFAULT_ROUTER_SETTINGS, ...overrides };
}

export function setup(providers: ProviderConfig[], overrides: Partial<RouterSettings> = {}, slots?: SlotStore): { clock: FakeClock; engine: RouterEngine } {
  const clock = new FakeClock(1_000_000);
  const engine = new RouterEngine({ clock, settings: settings(overrides), providers, slots });
  return { clock, engine };
}

/** Lets promise continuations run (resolution of queued acquires is asynchronous). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** Tracks a promise's state without awaiting it, so tests can assert "still pending". */
export function track<T>(promise: Promise<T>): {
  readonly settled: boolean;
  readonly value: T | undefined;
  readonly error: EngineError | undefined;
} {
  const state = { settled: false, value: undefined as T | undefined, error: undefined as EngineError | undefined };
  promise.then(
    (v) => {
      state.settled = true;
      state.value = v;
    },
    (e: EngineError) => {
      state.settled = true;
      state.error = e;
    },
  );
  return state;
}
