// The proxy's live view of one router's providers, as the dashboard receives it (read by the web
// process from the proxy in app/api/routers/[id]/status, shown by the Providers tab).

export interface LiveProviderState {
  id: string;
  slug: string;
  healthy: boolean;
  priority: number;
  active: number;
  /** The provider's maxConcurrent, else a managed provider's advertised capacity; null: no limit. */
  maxConcurrent: number | null;
  cooldownUntil: string | null;
}

/** `available: false` when the live state cannot be read (proxy down or refusing). */
export type RouterLiveStatus =
  | { available: true; providers: LiveProviderState[]; queued: number; checkedAt: string }
  | { available: false; reason: string; providers: LiveProviderState[]; queued: number; checkedAt: string };
