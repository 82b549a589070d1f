// /mcp: the chat-agent MCP surface over Streamable HTTP (docs/agents.md, The MCP endpoint). POST
// carries JSON-RPC (an initialize without Mcp-Session-Id opens a session), GET the session's event
// stream, DELETE ends the session. Every request authenticates, not just the initialize: the
// credential (the router's chat link, or one of its router keys) must be valid now and be the one
// that opened the session; any other session id is "Session not found", so a caller learns nothing
// about sessions that are not its own. The hosted /mcp never runs without a token, so it has no
// Host-header check: a DNS-rebound page cannot supply the token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouterKeyAuth } from '../auth/authenticate';
import type { RouterStore } from '../config/router-store';
import type { AgentTickets } from '../connect/agent-tickets';
import type { AgentPolicy } from '../agent/policy';
import { openMcpSession } from './mcp-session';
import type { McpRegistry } from './registry';
import { MAX_MCP_BODY_BYTES, readMcpBody, refusedMethod, rpcError, serveMcp, tooLarge } from './serve-mcp';

export interface McpDeps {
  keys: RouterKeyAuth;
  routers: RouterStore;
  registry: McpRegistry;
  tickets: AgentTickets;
  /** This process on loopback, for the browsers' connects (agent-endpoint.ts). */
  selfUrl: () => string;
  /** The agent toolkit's limits (tests shorten the idle close). */
  policy?: Partial<AgentPolicy>;
}

export async function handleMcp(req: IncomingMessage, res: ServerResponse, url: URL, deps: McpDeps): Promise<void> {
  if (refusedMethod(req, res)) return;
  // A declared size is refused before the credential is even looked up.
  if (req.method === 'POST' && Number(req.headers['content-length'] ?? 0) > MAX_MCP_BODY_BYTES) return tooLarge(res);

  const auth = await deps.keys.checkMcp(req, url);
  if (!auth.ok) return rpcError(res, auth.status, auth.message, auth.status === 401 ? { ...auth.headers, 'WWW-Authenticate': 'Bearer' } : auth.headers);
  const identity = auth.identity;
  if (identity.suspended) return rpcError(res, 402, 'the workspace is suspended');
  const read = await readMcpBody(req, res);
  if (!read) return;
  await serveMcp(req, res, read.body, {
    sessions: deps.registry,
    ownerId: identity.keyId,
    fullMessage: `this credential already holds ${deps.registry.maxPerCredential} open MCP sessions; end one (DELETE /mcp) or let one go idle before opening another`,
    open: () =>
      openMcpSession({
        identity,
        credential: auth.credential,
        registry: deps.registry,
        routers: deps.routers,
        tickets: deps.tickets,
        selfUrl: deps.selfUrl,
        policy: deps.policy,
      }),
    // The browsers it opens next run under the caller's identity as of this request.
    onRequest: (session) => (session.identity = identity),
  });
}
