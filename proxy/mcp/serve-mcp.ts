// The MCP Streamable HTTP flow both /mcp endpoints share, the hosted proxy's (handle-mcp.ts) and the
// self-hosted gateway's (proxy/gateway/mcp.ts), once each has authenticated the caller: the body
// read within its limit, a live session's request handed to its transport, an initialize opening
// a session (within the owner's count), and a session the transport did not take closed again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../../lib/log';
import { readBody } from '../http/body';
import { json } from '../http/respond';
import type { McpSessionBase, McpSessions } from './registry';

/** A JSON-RPC request is small; a megabyte is far beyond any tool call's arguments. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;
export const MCP_METHODS = 'GET, POST, DELETE';

/** A refusal as the SDK words its own: a JSON-RPC error object with no id. */
export function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  json(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** Answers a method /mcp does not take (405) and returns true; false for GET, POST and DELETE. */
export function refusedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? 'GET';
  if (method === 'POST' || method === 'GET' || method === 'DELETE') return false;
  rpcError(res, 405, `/mcp takes ${MCP_METHODS}`, { Allow: MCP_METHODS });
  return true;
}

export function tooLarge(res: ServerResponse): void {
  // The rest of the body is read and dropped (proxy/http/body.ts), so the client gets this answer.
  rpcError(res, 413, `the request body is larger than ${MAX_MCP_BODY_BYTES} bytes`);
}

/** A POST's JSON body ({ body: undefined } for GET and DELETE), or null once a refusal was answered. */
export async function readMcpBody(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | null> {
  if (req.method !== 'POST') return { body: undefined };
  const raw = await readBody(req, { limit: MAX_MCP_BODY_BYTES });
  if (raw === null) {
    tooLarge(res);
    return null;
  }
  try {
    return { body: JSON.parse(raw.toString('utf8')) };
  } catch {
    rpcError(res, 400, 'Parse error: the body is not JSON', {}, -32700);
    return null;
  }
}

export interface McpOwner<S extends McpSessionBase> {
  sessions: McpSessions<S>;
  /** The caller: only the sessions it opened are found for it. */
  ownerId: string;
  /** The 429's words when the caller already holds `sessions.maxPerCredential` sessions. */
  fullMessage: string;
  /** A new session (not yet added), its transport from mcpTransport(). */
  open: () => S;
  /** Before a live session's request is handled (the hosted proxy updates its identity). */
  onRequest?: (session: S) => void;
}

/** Handles one authenticated /mcp request whose body was read. */
export async function serveMcp<S extends McpSessionBase>(req: IncomingMessage, res: ServerResponse, body: unknown, owner: McpOwner<S>): Promise<void> {
  const { sessions } = owner;
  const posting = req.method === 'POST';
  const sessionId = req.headers['mcp-session-id'];
  if (sessionId !== undefined) {
    const session = sessions.get(Array.isArray(sessionId) ? (sessionId[0] ?? '') : sessionId);
    if (!session || session.credentialId !== owner.ownerId) return rpcError(res, 404, 'Session not found', {}, -32001);
    owner.onRequest?.(session);
    res.once('close', sessions.begin(session, posting));
    await session.transport.handleRequest(req, res, body);
    return;
  }
  const initializing = posting && (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body));
  if (!initializing) return rpcError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
  if (sessions.countFor(owner.ownerId) >= sessions.maxPerCredential) return rpcError(res, 429, owner.fullMessage);
  const session = owner.open();
  sessions.add(session);
  res.once('close', sessions.begin(session, true));
  try {
    await session.server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  } catch (error) {
    log.error({ err: (error as Error).message }, 'opening an MCP session failed');
    if (!res.headersSent) rpcError(res, 500, 'internal error while opening the MCP session');
  }
  // An initialize the transport rejected (a malformed request) leaves no session behind.
  if (session.transport.sessionId === undefined) await sessions.close(session.id, 'MCP initialize failed');
}

/**
 * A stateful transport whose id is chosen up front (so the session is counted before its first
 * request is answered); when it closes (the client's DELETE /mcp, or another reason) the session
 * and its browsers end.
 */
export function mcpTransport(id: string, sessions: Pick<McpSessions<McpSessionBase>, 'close'>): StreamableHTTPServerTransport {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  transport.onclose = () => void sessions.close(id, 'MCP session ended');
  return transport;
}
