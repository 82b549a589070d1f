// What the client reads when the proxy itself ends its session: the close frame's reason (and the
// Inspector.detached sent before it, proxy/relay/goodbye.ts). Playwright shows it under "Target
// page, context or browser has been closed", so each names the cause and what controls it, in the
// names the API and the dashboard use (docs/connect.md, "When the proxy ends a session"). A close
// frame carries at most 123 bytes of reason: every text here fits (close-reasons.test.ts), and
// frames.ts cuts anything longer at a character boundary.

/** How long a session may run, whatever its traffic (docs/connect.md, Limits). */
export const SESSION_LIFETIME_MS = 4 * 3_600_000;

/** 300000 → "300 s", 500 → "0.5 s": the router setting is in ms, seconds read better. */
const seconds = (ms: number) => `${Number((ms / 1_000).toFixed(1))} s`;

/** 4008: no traffic either way (any frame counts) for the router's sessionIdleTimeoutMs. */
export const idleTimeoutText = (idleTimeoutMs: number) =>
  `idle timeout: no traffic for ${seconds(idleTimeoutMs)}; set the router's sessionIdleTimeoutMs (Settings > Routing > Idle timeout)`;

export const CLOSE_TEXTS = {
  /** 4009 */
  lifetime: `session lifetime reached: a session lasts at most ${SESSION_LIFETIME_MS / 3_600_000} hours (a fixed limit, not a setting); connect again`,
  /** 4000: POST /v1/sessions/:id/close, or Close session in the dashboard. */
  controlPlane: 'closed by the workspace: a member closed it (Sessions page or POST /v1/sessions/:id/close); connect again',
  /** 4001 */
  keyRevoked: "router key revoked: this key was revoked (the router's Keys page); connect with one of its current keys",
  /** 4002 */
  keyRotated: "router key rotated: this key was replaced by a rotation; connect with the new key (the router's Keys page)",
  /** 4003 */
  workspaceDeletion: 'workspace marked for deletion: its account was deleted; restore the account within 30 days to connect again',
  /** 4004 */
  workspaceSuspended: 'workspace suspended by the operator: sessions and connects are refused until the suspension is lifted',
  /** 4005 */
  chatLinkRevoked: "chat link rotated or deleted: connect the MCP client again with the router's current chat link (Keys page)",
  /** 1001 */
  shutdown: 'proxy shutting down: this proxy is restarting or stopping; connect again for a new session',
} as const;
