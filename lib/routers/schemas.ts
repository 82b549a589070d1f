// Router inputs. Ranges and defaults are the PATCH /v1/routers/:id table of docs/api.md, stated once here.
import { z } from 'zod';

export const ROUTER_STRATEGIES = ['priority-chain', 'round-robin', 'least-connections', 'latency-optimized', 'weighted'] as const;

export const routerSlugSchema = z.string().regex(/^[a-z0-9-]{2,40}$/, 'use 2 to 40 lowercase letters, digits or hyphens');

const int = (min: number, max: number) =>
  z
    .number()
    .int('must be a whole number')
    .min(min, `must be at least ${min.toLocaleString('en')}`)
    .max(max, `must be at most ${max.toLocaleString('en')}`);

/** At most this many names in a router's `traceRedactNames`. */
export const TRACE_REDACT_NAMES_MAX = 50;

/**
 * Header and query-parameter names a router's traces redact besides the defaults: each an HTTP
 * header token (RFC 9110), compared without case; repeats (in any case) are kept once.
 */
export const traceRedactNamesSchema = z
  .array(
    z
      .string()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/, "use letters, digits and !#$%&'*+-.^_`|~ only (an HTTP header name)"),
    { message: 'must be a list of names' },
  )
  .max(TRACE_REDACT_NAMES_MAX, `must have at most ${TRACE_REDACT_NAMES_MAX} names`)
  .transform((names) => names.filter((name, i) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === i));

export const createRouterSchema = z.strictObject({
  name: z.string().trim().min(1, 'enter a name').max(100),
  slug: routerSlugSchema.optional(),
  description: z.string().trim().max(500).nullable().optional(),
});

export const updateRouterSchema = z.strictObject({
  name: z.string().trim().min(1, 'enter a name').max(100).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  strategy: z.enum(ROUTER_STRATEGIES, { message: `must be one of ${ROUTER_STRATEGIES.join(', ')}` }).optional(),
  connectionTimeoutMs: int(1_000, 30_000).optional(),
  sessionIdleTimeoutMs: int(10_000, 840_000).optional(),
  queueMaxSize: int(0, 10_000).optional(),
  queueTimeoutMs: int(0, 86_400_000).optional(),
  healthCheckIntervalMs: int(5_000, 3_600_000).optional(),
  cooldownDefaultMs: int(0, 86_400_000).optional(),
  cooldownFailureThreshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  cooldownMinRequestVolume: int(0, 1_000_000).optional(),
  traceRedactNames: traceRedactNamesSchema.optional(),
});

export const updateRouterSettingsSchema = z.strictObject({
  webhooksEnabled: z.boolean().optional(),
  profilesEnabled: z.boolean().optional(),
  replayEnabled: z.boolean().optional(),
  observabilityEnabled: z.boolean().optional(),
});

export const updateAgentSettingsSchema = z.strictObject({
  recordDefault: z.boolean().optional(),
  observabilityDefault: z.boolean().optional(),
  defaultProfile: z.string().min(1).max(64).nullable().optional(),
  saveProfileDefault: z.boolean().optional(),
});
