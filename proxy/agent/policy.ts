// How long agent browsers live (docs/agents.md, "Sessions"): an idle close after minutes without a
// tool call (default 5, clamped to 1–30), a hard cap of 4 hours, and a keepalive that keeps the
// routed connection from timing out while the model thinks, without counting as activity.

export interface AgentPolicy {
  /** The idle close when the caller names none. */
  defaultIdleMs: number;
  minIdleMs: number;
  maxIdleMs: number;
  /** The hard cap of one browser session. */
  maxLifetimeMs: number;
  /** A CDP round trip this often keeps every hop of the connection alive. */
  keepaliveMs: number;
  /** How many browsers one caller (an MCP session, a CLI session name) may hold at once. */
  maxSessions: number;
}

const MINUTE = 60_000;

export const DEFAULT_POLICY: AgentPolicy = {
  defaultIdleMs: 5 * MINUTE,
  minIdleMs: 1 * MINUTE,
  maxIdleMs: 30 * MINUTE,
  maxLifetimeMs: 4 * 60 * MINUTE,
  // Agent sessions are not subject to the router's idle timeout (the toolkit's own idle close
  // replaces it); 45 s stays under the ~2-minute idle cutoffs of load balancers in front of providers.
  keepaliveMs: 45_000,
  maxSessions: 5,
};

/** The idle close for a requested number of minutes, clamped to the policy's range. */
export function idleMsFor(policy: AgentPolicy, idleMinutes: number | undefined): number {
  if (idleMinutes === undefined || !Number.isFinite(idleMinutes)) return policy.defaultIdleMs;
  return Math.min(policy.maxIdleMs, Math.max(policy.minIdleMs, Math.round(idleMinutes * MINUTE)));
}
