// The chat-agent MCP surface at /mcp, driven by the SDK's own client over real HTTP: who may open an
// MCP session (the router's chat link or a router key, in the header or token=), who may use one
// (only the credential that opened it), the limits, and the cut-off when a chat link is rotated or
// deleted (its MCP sessions and its agents' browsers close at once). Agent tickets, the way an
// agent's browser reaches /v1/connect, work once and only from this machine's loopback. Tests that
// look inside a proxy (its MCP registry, its tickets) run one of their own in this process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { newUser, type TestUser } from '../support/api';
import { ownProxy } from '../support/capture';
import { launchChromium, type Chromium } from '../support/chromium';
import { eventually, expectOpened, expectRefused, open, PROXY, randomLoopback, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { agentTools } from '../../proxy/agent/tools';
import { checkChatLink } from '../../proxy/auth/chat-link';
import { agentEndpoint } from '../../proxy/mcp/agent-endpoint';
import type { ProxyServer } from '../../proxy/server';
import { deleteChatLink, rotateChatLink } from '../../lib/keys/chat-links';
import { db } from '../../lib/db';

const HTTP = PROXY.replace(/^ws/, 'http');
// This file's requests come from a loopback address of its own, so the failures it provokes on
// purpose never throttle another file's requests (the throttle counts per client address).
const dispatcher = new Agent({ localAddress: randomLoopback() });
const fetchHere = ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch;

let browser: Chromium;
let own: { proxy: ProxyServer; url: string };
before(async () => {
  browser = await launchChromium();
  // Bound to every interface, so a test can reach it from an address that is not loopback.
  own = await ownProxy('mcp-surface', { host: '0.0.0.0' });
});
after(async () => {
  await own?.proxy.stop();
  await browser?.stop();
  await dispatcher.close();
});

type Owner = TestUser & { key: string };

async function owner(tag: string): Promise<Owner> {
  const user = await newUser(tag);
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  return { ...user, key: await routerKey(user.workspaceId, user.routerId) };
}

interface Mcp {
  client: Client;
  transport: StreamableHTTPClientTransport;
  sessionId: string;
  end(): Promise<void>;
}

/** An MCP client connected (initialized) with `token` in the Authorization header or in token=. */
async function connectMcp(token: string, options: { base?: string; via?: 'header' | 'query' } = {}): Promise<Mcp> {
  const url = new URL(`${options.base ?? HTTP}/mcp`);
  if (options.via === 'query') url.searchParams.set('token', token);
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: fetchHere,
    ...(options.via === 'query' ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  });
  const client = new Client({ name: 'mcp-surface-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    sessionId: transport.sessionId!,
    end: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** A session's row, once written (the insert does not hold up the client's 101). */
const sessionRow = (id: string) => eventually(() => db.sessionLog.findUnique({ where: { id } }), 5_000, `the row of ${id}`);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};
const LIST_TOOLS = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** One request to /mcp as it is, without the SDK: its status, headers and (JSON) body. */
async function raw(method: string, options: { token?: string; sessionId?: string; body?: unknown; headers?: Record<string, string>; base?: string } = {}) {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.sessionId) headers['mcp-session-id'] = options.sessionId;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetchHere(`${options.base ?? HTTP}/mcp`, {
    method,
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* an event stream */
  }
  return { status: response.status, headers: response.headers, text, json };
}

test('a chat link (header), a router key (header) and token= all open MCP sessions; the tools come with their annotations', async () => {
  const user = await owner('mcp-init');
  const link = await rotateChatLink(user.workspaceId, user.routerId);
  const sessions = [await connectMcp(link.token), await connectMcp(user.key), await connectMcp(link.token, { via: 'query' })];
  assert.equal(new Set(sessions.map((s) => s.sessionId)).size, 3, 'every client gets its own MCP session');
  const expected = agentTools();
  for (const s of sessions) {
    assert.match(s.client.getInstructions() ?? '', /snapshot/, 'the handshake teaches the workflow');
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), expected.map((t) => t.name).sort());
    for (const tool of expected) {
      const listed = tools.find((t) => t.name === tool.name)!;
      assert.equal(listed.title, tool.title);
      assert.equal(listed.description, tool.description);
      assert.equal(listed.annotations?.readOnlyHint, tool.annotations.readOnlyHint, `${tool.name} readOnlyHint`);
      assert.equal(listed.annotations?.openWorldHint, tool.annotations.openWorldHint, `${tool.name} openWorldHint`);
    }
  }
  const used = await eventually(async () => (await db.chatLink.findUnique({ where: { id: link.id } }))?.lastUsedAt, 5_000, 'the chat link marked as used');
  assert.ok(Date.now() - used.getTime() < 60_000);
  await Promise.all(sessions.map((s) => s.end()));
});

test('no token or a wrong one: 401 with WWW-Authenticate: Bearer and a JSON body, and no MCP session', async () => {
  const user = await owner('mcp-401');
  await rotateChatLink(user.workspaceId, user.routerId);
  for (const token of [undefined, 'nonsense', `mcp_${'a'.repeat(43)}`, `rkey_${'b'.repeat(43)}`, user.token]) {
    const r = await raw('POST', { token, body: INITIALIZE });
    assert.equal(r.status, 401, `${token}: ${r.text}`);
    assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal(r.json?.error?.code, -32000);
    assert.match(r.json.error.message, /chat link or router key missing, wrong or revoked/);
    assert.equal(r.headers.get('mcp-session-id'), null, 'no session was opened');
  }
  await assert.rejects(connectMcp(`mcp_${'c'.repeat(43)}`), /401|chat link or router key/);
  await assert.rejects(connectMcp(`mcp_${'c'.repeat(43)}`, { via: 'query' }), /401|chat link or router key/);
});

test('an MCP session belongs to the credential that opened it: any other gets 404 Session not found', async () => {
  const user = await owner('mcp-owner');
  const stranger = await owner('mcp-stranger');
  const link = await rotateChatLink(user.workspaceId, user.routerId);
  const mine = await connectMcp(link.token);
  const unknown = await raw('POST', { token: user.key, sessionId: randomUUID(), body: LIST_TOOLS });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.json, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
  for (const token of [user.key, stranger.key]) {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const r = await raw(method, { token, sessionId: mine.sessionId, body: method === 'POST' ? LIST_TOOLS : undefined });
      assert.equal(r.status, 404, `${method}: ${r.text}`);
      assert.deepEqual(r.json, unknown.json, 'a foreign session reads exactly like one that does not exist');
    }
  }
  const noToken = await raw('POST', { sessionId: mine.sessionId, body: LIST_TOOLS });
  assert.equal(noToken.status, 401);
  assert.ok((await mine.client.listTools()).tools.length > 0, 'the owner still uses it');
  await mine.end();
});

test("rotating the chat link closes its MCP sessions and its agents' browsers (4005) at once; the new link works", async () => {
  const user = await owner('mcp-rotate');
  const base = own.url.replace(/^ws/, 'http');
  const link = await rotateChatLink(user.workspaceId, user.routerId);
  const mcp = await connectMcp(link.token, { base });
  assert.ok(own.proxy.mcp.get(mcp.sessionId), 'the proxy holds the MCP session');
  // An agent's browser as the MCP surface opens it: a ticket for the link, to the proxy's own /v1/connect.
  const identity = (await checkChatLink(link.token))!;
  const endpoint = agentEndpoint({
    selfUrl: () => own.url,
    tickets: own.proxy.agentTickets,
    routers: own.proxy.routers,
    caller: () => ({ identity, credential: 'chat_link' }),
  });
  const browserSession = await expectOpened(
    (await endpoint.connect({ record: false, trace: false, profile: null, saveProfile: false, pageConsole: false })).url,
  );
  assert.equal((await sessionRow(browserSession.sessionId)).kind, 'agent');

  const rotated = await rotateChatLink(user.workspaceId, user.routerId);
  assert.notEqual(rotated.id, link.id, 'the new link is a new credential');
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    browserSession.closed,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the browser is still open')), 1_000))),
  ]);
  clearTimeout(timer);
  assert.deepEqual(closed, {
    code: 4005,
    reason: "chat link rotated or deleted: connect the MCP client again with the router's current chat link (Keys page)",
  });
  await eventually(() => !own.proxy.mcp.get(mcp.sessionId), 1_000, 'the MCP session to close');
  await assert.rejects(mcp.client.listTools(), 'the next call of the old session fails');
  assert.equal((await raw('POST', { base, token: link.token, sessionId: mcp.sessionId, body: LIST_TOOLS })).status, 401, 'the old link is refused');
  const ended = await eventually(
    async () => {
      const r = await db.sessionLog.findUnique({ where: { id: browserSession.sessionId } });
      return r && r.state !== 'active' ? r : null;
    },
    5_000,
    'the browser session row to end',
  );
  assert.deepEqual([ended.state, ended.errorReason], ['closed', 'chat link rotated or deleted']);
  await mcp.client.close();

  const fresh = await connectMcp(rotated.token, { base });
  await deleteChatLink(user.routerId);
  await eventually(() => !own.proxy.mcp.get(fresh.sessionId), 1_000, 'deleting the link to close its MCP session');
  await fresh.client.close();
});

test('an agent ticket opens one agent session, only from loopback and not through a reverse proxy', async (t) => {
  const user = await owner('mcp-ticket');
  const { lookupRouterKey } = await import('../../proxy/auth/router-key');
  const { hashSecret } = await import('../../lib/crypto/secrets');
  const identity = (await lookupRouterKey(hashSecret(user.key)))!;
  const ticket = own.proxy.agentTickets.issue({ identity, credentialId: identity.keyId });
  const port = new URL(own.url).port;

  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (external) {
    const r = await open(`ws://${external}:${port}/v1/connect?agent_ticket=${ticket}`, {}, external);
    assert.ok('status' in r && r.status === 401, 'refused from an address that is not loopback');
    assert.match((r as { body: string }).body, /router key missing, wrong or revoked/);
  } else {
    t.diagnostic('no non-loopback interface here: the address rule is covered by proxy/connect/agent-tickets.test.ts');
  }
  await expectRefused(`${own.url}/v1/connect?agent_ticket=${ticket}`, 401, { 'X-Forwarded-For': '203.0.113.9' });

  const opened = await expectOpened(`${own.url}/v1/connect?agent_ticket=${ticket}`);
  const live = [...own.proxy.sessions.all()].find((s) => s.id === opened.sessionId);
  assert.equal(live?.keyId, identity.keyId, 'registered under the credential, so revoking it closes the browser');
  assert.equal((await sessionRow(opened.sessionId)).kind, 'agent');
  await expectRefused(`${own.url}/v1/connect?agent_ticket=${ticket}`, 401);
  opened.ws.close();
});

test('limits: 405 with Allow, 413 over a megabyte (declared or streamed), 402 for a suspended workspace, 20 MCP sessions per credential', async () => {
  const user = await owner('mcp-limits');
  const put = await raw('PUT', { token: user.key, body: INITIALIZE });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');

  const big = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(1024 * 1024) } });
  assert.equal((await raw('POST', { token: user.key, body: big })).status, 413);
  const bytes = new TextEncoder().encode(big);
  const streamed = await fetchHere(`${HTTP}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: new ReadableStream({
      start(c) {
        for (let i = 0; i < bytes.length; i += 65_536) c.enqueue(bytes.subarray(i, i + 65_536));
        c.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  assert.equal(streamed.status, 413);
  await streamed.text();

  const opened: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await raw('POST', { token: user.key, body: INITIALIZE });
    assert.equal(r.status, 200, r.text);
    opened.push(r.headers.get('mcp-session-id')!);
  }
  const over = await raw('POST', { token: user.key, body: INITIALIZE });
  assert.equal(over.status, 429);
  assert.match(over.json.error.message, /20 open MCP sessions/);
  const link = await rotateChatLink(user.workspaceId, user.routerId);
  const other = await connectMcp(link.token);
  assert.ok(other.sessionId, 'the count is per credential');
  assert.equal((await raw('DELETE', { token: user.key, sessionId: opened.pop() })).status, 200);
  const again = await raw('POST', { token: user.key, body: INITIALIZE });
  assert.equal(again.status, 200, 'a session ended makes room');
  opened.push(again.headers.get('mcp-session-id')!);
  for (const id of opened) await raw('DELETE', { token: user.key, sessionId: id });

  await db.workspace.update({ where: { id: user.workspaceId }, data: { suspended: true } });
  try {
    const suspended = await raw('POST', { token: link.token, body: INITIALIZE });
    assert.equal(suspended.status, 402);
    assert.match(suspended.json.error.message, /suspended/);
    assert.equal(
      (await raw('POST', { token: link.token, sessionId: other.sessionId, body: LIST_TOOLS })).status,
      402,
      'on every request, not just the initialize',
    );
  } finally {
    await db.workspace.update({ where: { id: user.workspaceId }, data: { suspended: false } });
  }
  await other.end();
});
