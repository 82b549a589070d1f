// Chat agents through the proxy's MCP endpoint, with the MCP SDK's own client over HTTP: a form
// completed on a local site (open, navigate, snapshot, fill, submit, extract, screenshot, close) as
// a session row of kind `agent`; refs refused after a re-render and after a navigation the page
// started; two clients that cannot see or drive each other's browsers; the router's agent defaults
// (record, profile) applied and visible on the row; the webhook of an agent session; the idle close.
// Wrong tokens, ownership of MCP sessions and rotation are in mcp-surface.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { completeForm, refOf } from '../support/agent-form';
import { call, expectOk } from '../support/api';
import { ownProxy, userWithProvider, type CaptureUser } from '../support/capture';
import { launchChromium, type Chromium } from '../support/chromium';
import { eventually, PROXY } from '../support/connect';
import { updateRouterRow } from '../support/providers';
import { startTestSite, type TestSite } from '../support/test-site';
import { createWebhook, deliveriesOf, endedSession } from '../support/webhooks';
import { rotateChatLink } from '../../lib/keys/chat-links';
import { db } from '../../lib/db';
import type { ProxyServer } from '../../proxy/server';

const SLOW = { timeout: 120_000 };
const MCP = `${PROXY.replace(/^ws/, 'http')}/mcp`;

let browser: Chromium;
let site: TestSite;
/** A proxy of this file's own whose agent browsers close after 1 s without a tool call. */
let quick: ProxyServer;
let quickUrl: string;

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  const own = await ownProxy('mcp-idle', { agents: { defaultIdleMs: 1_000, minIdleMs: 500 } });
  quick = own.proxy;
  quickUrl = `${own.url.replace(/^ws/, 'http')}/mcp`;
});
after(async () => {
  await quick?.stop();
  await Promise.all([browser?.stop(), site?.close()]);
});

interface Agent {
  client: Client;
  tool(name: string, args?: Record<string, unknown>): Promise<{ text: string; error: boolean; result: CallToolResult }>;
  close(): Promise<void>;
}

async function agent(token: string, url = MCP): Promise<Agent> {
  const client = new Client({ name: 'mcp-agents-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return {
    client,
    async tool(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content
        .filter((c) => c.type === 'text')
        .map((c) => (c as { text: string }).text)
        .join('\n');
      return { text, error: result.isError === true, result };
    },
    close: () => client.close(),
  };
}

async function chatUser(tag: string): Promise<CaptureUser & { chatToken: string }> {
  const user = await userWithProvider(tag, browser.wsUrl);
  const link = await rotateChatLink(user.workspaceId, user.routerId);
  return { ...user, chatToken: link.token };
}

const browserIdOf = (text: string) => /Opened browser (br_[\w-]+)/.exec(text)![1]!;

test('a chat agent completes a form on a local site through MCP; the browser is a session of kind agent', SLOW, async () => {
  const user = await chatUser('mcp-form');
  const a = await agent(user.chatToken);
  try {
    const opened = await a.tool('browser_session', { action: 'open' });
    assert.equal(opened.error, false, opened.text);
    await completeForm(a, site.url, 'markdown');
    const shot = await a.tool('browser_screenshot');
    const image = shot.result.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
    assert.equal(image.mimeType, 'image/jpeg');
    assert.ok(
      Buffer.from(image.data, 'base64')
        .subarray(0, 2)
        .equals(Buffer.from([0xff, 0xd8])),
    );

    const state = JSON.parse((await a.tool('browser_session', { action: 'state' })).text) as { sessionLogId: string };
    const row = await db.sessionLog.findUniqueOrThrow({ where: { id: state.sessionLogId } });
    assert.equal(row.kind, 'agent');
    assert.equal(row.state, 'active');
    assert.equal(row.routerId, user.routerId);
    const closed = await a.tool('browser_session', { action: 'close' });
    assert.match(closed.text, /Closed browser br_/);
    const ended = await endedSession(state.sessionLogId);
    assert.equal(ended.state, 'closed');
    // The Sessions API lists it with its kind.
    const listed = expectOk(await call('GET', `/v1/sessions?kind=agent`, { auth: { token: user.token }, headers: { 'x-workspace-id': user.workspaceId } }));
    assert.ok(JSON.stringify(listed).includes(state.sessionLogId), 'listed among agent sessions');
    const after = await a.tool('browser_snapshot');
    assert.equal(after.error, true);
    assert.match(after.text, /no browser is open/);
  } finally {
    await a.close();
  }
});

test('refs are refused after the page re-renders and after a navigation the page started itself; nothing is clicked', SLOW, async () => {
  const user = await chatUser('mcp-stale');
  const a = await agent(user.key);
  try {
    await a.tool('browser_session', { action: 'open' });
    const first = await a.tool('browser_navigate', { url: `${site.url}/agent/rerender` });
    const item = refOf(first.text, /button "Item 1"/);
    await a.tool('browser_act', { steps: [{ action: 'click', ref: refOf(first.text, /button "Shuffle"/) }] });
    const stale = await a.tool('browser_act', { steps: [{ action: 'click', ref: item }] });
    assert.equal(stale.error, true);
    assert.match(stale.text, new RegExp(`${item} is stale.*Take a new snapshot`));
    assert.equal((await a.tool('browser_eval', { expression: "document.getElementById('log').textContent" })).text, '""');

    const id = randomUUID();
    const leaving = await a.tool('browser_navigate', { url: `${site.url}/agent/self-nav?id=${id}` });
    const go = refOf(leaving.text, /button "Continue"/);
    site.release(id);
    assert.equal((await a.tool('browser_wait', { urlContains: '/agent/landing' })).error, false);
    const refused = await a.tool('browser_act', { steps: [{ action: 'click', ref: go }] });
    assert.equal(refused.error, true);
    assert.match(refused.text, new RegExp(`${go} is stale`));
    assert.equal((await a.tool('browser_eval', { expression: 'document.title' })).text, '"Landed"');
  } finally {
    await a.close();
  }
});

test("two clients are isolated: neither lists, reads nor drives the other's browser, even with its id", SLOW, async () => {
  const user = await chatUser('mcp-two');
  const [a, b] = [await agent(user.chatToken), await agent(user.chatToken)];
  try {
    const mine = browserIdOf((await a.tool('browser_session', { action: 'open' })).text);
    await a.tool('browser_navigate', { url: `${site.url}/agent/form` });
    assert.match((await b.tool('browser_session', { action: 'list' })).text, /No browser is open/);
    for (const [name, args] of [
      ['browser_snapshot', {}],
      ['browser_extract', {}],
      ['browser_act', { steps: [{ action: 'click', ref: 'e1' }] }],
      ['browser_session', { action: 'close' }],
    ] as const) {
      const foreign = await b.tool(name, { ...args, sessionId: mine });
      assert.equal(foreign.error, true, name);
      assert.match(foreign.text, new RegExp(`no browser session ${mine} here`), name);
    }
    assert.match((await a.tool('browser_snapshot')).text, /Page: "Sign up"/, 'the owner still drives it');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("the router's agent defaults apply to a browser opened without options: recorded, with the default profile", SLOW, async () => {
  const user = await chatUser('mcp-defaults');
  await updateRouterRow(user.routerId, { replayEnabled: true, profilesEnabled: true });
  const auth = { auth: { token: user.token }, headers: { 'x-workspace-id': user.workspaceId } };
  const profile = expectOk(await call('POST', '/v1/profiles', { ...auth, body: { slug: 'agent-default', name: 'Agent default' } }), 201);
  expectOk(await call('PATCH', `/v1/routers/${user.routerId}/agent-settings`, { ...auth, body: { recordDefault: true, defaultProfile: 'agent-default' } }));
  const a = await agent(user.chatToken);
  try {
    const opened = await eventually(
      async () => {
        // The proxy hears of the new settings through NOTIFY: retry until they apply.
        const res = await a.tool('browser_session', { action: 'open' });
        if (res.error) return null;
        if (/recorded/.test(res.text)) return res;
        await a.tool('browser_session', { action: 'close', sessionId: browserIdOf(res.text) });
        return null;
      },
      10_000,
      'the defaults to apply',
    );
    assert.match(opened.text, /recorded, profile agent-default \(read-only\)/);
    const state = JSON.parse((await a.tool('browser_session', { action: 'state' })).text) as { sessionLogId: string; options: Record<string, unknown> };
    assert.deepEqual(state.options, { record: true, trace: false, profile: 'agent-default', saveProfile: false, pageConsole: false });
    const row = await db.sessionLog.findUniqueOrThrow({ where: { id: state.sessionLogId }, include: { recording: true } });
    assert.equal(row.kind, 'agent');
    assert.equal(row.profileId, profile.id);
    await eventually(() => db.recording.findUnique({ where: { sessionLogId: state.sessionLogId } }), 10_000, 'the recording row');
    // An explicit option wins over the default.
    const plain = await a.tool('browser_session', { action: 'open', record: false, profile: null });
    assert.doesNotMatch(plain.text, /recorded|profile/);
  } finally {
    await a.close();
  }
});

test('an agent session sends its webhook when it ends', SLOW, async () => {
  const user = await chatUser('mcp-webhook');
  await createWebhook(user, { label: 'agent events', url: 'https://hooks.example.test/agent', events: ['session.ended'] });
  const a = await agent(user.chatToken);
  try {
    await a.tool('browser_session', { action: 'open' });
    const state = JSON.parse((await a.tool('browser_session', { action: 'state' })).text) as { sessionLogId: string };
    await a.tool('browser_session', { action: 'close' });
    await endedSession(state.sessionLogId);
    const deliveries = await eventually(
      async () => ((await deliveriesOf(state.sessionLogId)).length > 0 ? deliveriesOf(state.sessionLogId) : null),
      10_000,
      'the delivery',
    );
    assert.deepEqual(
      deliveries.map((d) => d.event),
      ['session.ended'],
    );
  } finally {
    await a.close();
  }
});

test('the idle close: a browser left alone closes itself, its row ends, and the next call says why', SLOW, async () => {
  const user = await chatUser('mcp-idle');
  const a = await agent(user.chatToken, quickUrl);
  try {
    const id = browserIdOf((await a.tool('browser_session', { action: 'open' })).text);
    const state = JSON.parse((await a.tool('browser_session', { action: 'state', sessionId: id })).text) as { sessionLogId: string };
    const ended = await endedSession(state.sessionLogId);
    assert.equal(ended.state, 'closed');
    const later = await a.tool('browser_snapshot', { sessionId: id });
    assert.equal(later.error, true);
    assert.match(later.text, new RegExp(`browser session ${id} is closed: closed after 1 s without a tool call`));
  } finally {
    await a.close();
  }
});
