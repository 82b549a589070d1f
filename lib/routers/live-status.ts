// The proxy's live view of one router's providers: what the proxy answers on its internal endpoint
// (proxy/status.ts builds it, typed by this schema) and what the dashboard receives (read by the web
// process through lib/proxy-client/status.ts, shown by the Providers tab). One schema, both ends.
import { z } from 'zod';

export const liveProviderStateSchema = z.object({
  id: z.string(),
  slug: z.string(),
  healthy: z.boolean(),
  priority: z.number(),
  active: z.number().int().min(0),
  /** The provider's maxConcurrent, else a managed provider's advertised capacity; null: no limit. */
  maxConcurrent: z.number().int().nullable(),
  cooldownUntil: z.string().nullable(),
});
export type LiveProviderState = z.infer<typeof liveProviderStateSchema>;

/** GET /internal/routers/:id/status on the proxy. */
export const routerStatusAnswerSchema = z.object({
  ok: z.literal(true),
  providers: z.array(liveProviderStateSchema),
  /** Connections waiting on the proxy that answered (each proxy queues its own). */
  queued: z.number().int().min(0),
});
export type RouterStatusAnswer = z.infer<typeof routerStatusAnswerSchema>;

/** `available: false` when the live state cannot be read (proxy down or refusing). */
export type RouterLiveStatus =
  | { available: true; providers: LiveProviderState[]; queued: number; checkedAt: string }
  | { available: false; reason: string; providers: LiveProviderState[]; queued: number; checkedAt: string };
