// /mcp: the chat-agent MCP surface over Streamable HTTP (docs/agents.md, The MCP endpoint). POST
// carries JSON-RPC (an initialize without Mcp-Session-Id opens a session), GET the session's event
// stream, DELETE ends the session. Every request authenticates, not just the initialize: the
// credential (the router's chat link, or one of its router keys) must be valid now and be the one
// that opened the session; any other session id is "Session not found", so a caller learns nothing
// about sessions that are not its own. The hosted /mcp never runs without a token, so it has no
// Host-header check: a DNS-rebound page cannot supply the token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../../lib/log';
import type { RouterKeyAuth } from '../auth/authenticate';
import type { RouterStore } from '../config/router-store';
import type { AgentTickets } from '../connect/agent-tickets';
import { readBody } from '../http/body';
import { json } from '../http/respond';
import type { AgentPolicy } from '../agent/policy';
import { openMcpSession } from './mcp-session';
import type { McpRegistry } from './registry';

/** A JSON-RPC request is small; a megabyte is far beyond any tool call's arguments. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;
export const MCP_METHODS = 'GET, POST, DELETE';

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
  const method = req.method ?? 'GET';
  if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') return rpcError(res, 405, `/mcp takes ${MCP_METHODS}`, { Allow: MCP_METHODS });
  // A declared size is refused before the credential is even looked up.
  if (method === 'POST' && Number(req.headers['content-length'] ?? 0) > MAX_MCP_BODY_BYTES) return tooLarge(res);

  const auth = await deps.keys.checkMcp(req, url);
  if (!auth.ok) return rpcError(res, auth.status, auth.message, auth.status === 401 ? { ...auth.headers, 'WWW-Authenticate': 'Bearer' } : auth.headers);
  const identity = auth.identity;
  if (identity.suspended) return rpcError(res, 402, 'the workspace is suspended');

  let body: unknown;
  if (method === 'POST') {
    const raw = await readBody(req, { limit: MAX_MCP_BODY_BYTES });
    if (raw === null) return tooLarge(res);
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return rpcError(res, 400, 'Parse error: the body is not JSON', {}, -32700);
    }
  }

  const sessionId = header(req, 'mcp-session-id');
  if (sessionId !== undefined) {
    const session = deps.registry.get(sessionId);
    if (!session || session.credentialId !== identity.keyId) return rpcError(res, 404, 'Session not found', {}, -32001);
    const done = deps.registry.begin(session, identity, method === 'POST');
    res.once('close', done);
    await session.transport.handleRequest(req, res, body);
    return;
  }

  const initializing = method === 'POST' && (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body));
  if (!initializing) return rpcError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
  if (deps.registry.countFor(identity.keyId) >= deps.registry.maxPerCredential) {
    return rpcError(res, 429, `this credential already holds ${deps.registry.maxPerCredential} open MCP sessions; end one (DELETE /mcp) or let one go idle before opening another`);
  }
  const session = openMcpSession({ identity, credential: auth.credential, registry: deps.registry, routers: deps.routers, tickets: deps.tickets, selfUrl: deps.selfUrl, policy: deps.policy });
  deps.registry.add(session);
  const done = deps.registry.begin(session, identity, true);
  res.once('close', done);
  try {
    await session.server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  } catch (error) {
    log.error({ err: (error as Error).message }, 'opening an MCP session failed');
    if (!res.headersSent) rpcError(res, 500, 'internal error while opening the MCP session');
  }
  // An initialize the transport rejected (a malformed request) leaves no session behind.
  if (session.transport.sessionId === undefined) await deps.registry.close(session.id, 'MCP initialize failed');
}

function tooLarge(res: ServerResponse): void {
  // The rest of the body is read and dropped (proxy/http/body.ts), so the client gets this answer.
  rpcError(res, 413, `the request body is larger than ${MAX_MCP_BODY_BYTES} bytes`);
}

/** A refusal as the SDK words its own: a JSON-RPC error object with no id. */
export function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  json(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
