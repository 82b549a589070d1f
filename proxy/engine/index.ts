// Public surface of the routing engine (pure logic; the proxy and the gateway supply the I/O).

export { systemClock, FakeClock, type Clock, type TimerHandle } from './clock';
export { CooldownTracker, COOLDOWN_WINDOW_MS, type CooldownSettings } from './cooldown';
export { EngineError, isEngineError, lastFailureNote, type BlockReason, type EngineErrorCode } from './errors';
export { FULL_RETRY_MS, RouterEngine, type AcquireOptions, type CooldownListener, type RouterEngineOptions } from './engine';
export { LatencyTracker, LATENCY_EWMA_ALPHA } from './latency';
export { Lease, Reservation } from './reservation';
export { MemorySlotStore, type SlotStore } from './slots';
export { createStrategy, type RoutingView, type Strategy } from './strategies';
export {
  concurrencyLimit,
  DEFAULT_ROUTER_SETTINGS,
  STRATEGY_NAMES,
  type Attempt,
  type ProviderConfig,
  type ProviderStatus,
  type RouterSettings,
  type StrategyName,
} from './types';
