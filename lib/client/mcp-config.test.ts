import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_LINK_PLACEHOLDER, maskIn, maskToken, mcpConfigs, mcpServerName, mcpUrl, type McpClientId } from './mcp-config';

const token = 'mcp_AbC-123_xyzXYZ0987654321abcdefghijklmnopq';
const url = 'https://proxy.example.com/mcp';
const name = 'browser-router-default';
const configs = mcpConfigs({ url, name, token });
const snippet = (id: McpClientId, i = 0) => configs.find((c) => c.id === id)!.snippets[i]!.code;

test('the MCP URL is the proxy address over HTTP(S) with /mcp', () => {
  assert.equal(mcpUrl('ws://localhost:9500'), 'http://localhost:9500/mcp');
  assert.equal(mcpUrl('wss://proxy.example.com/'), 'https://proxy.example.com/mcp');
  assert.equal(mcpUrl('https://proxy.example.com'), 'https://proxy.example.com/mcp');
});

test('the server name carries the router slug', () => {
  assert.equal(mcpServerName('default'), 'browser-router-default');
  assert.equal(mcpServerName('Shop Fleet!'), 'browser-router-shop-fleet');
  assert.equal(mcpServerName(undefined), 'browser-router');
});

test('one configuration per tool, in a fixed order', () => {
  assert.deepEqual(
    configs.map((c) => c.id),
    ['claude-code', 'claude-desktop', 'cursor', 'vscode'],
  );
});

test('Claude Code: an HTTP server with the bearer header after the name and URL', () => {
  assert.equal(snippet('claude-code'), `claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer ${token}"`);
});

test('Claude Desktop: a connector URL with the token, or mcp-remote with the header from an env var', () => {
  assert.equal(snippet('claude-desktop', 0), `${url}?token=${token}`);
  assert.deepEqual(JSON.parse(snippet('claude-desktop', 1)), {
    mcpServers: {
      [name]: { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}'], env: { AUTH_HEADER: `Bearer ${token}` } },
    },
  });
});

test('mcp-remote gets --allow-http for plain HTTP beyond localhost only', () => {
  const args = (u: string) => JSON.parse(mcpConfigs({ url: u, name, token }).find((c) => c.id === 'claude-desktop')!.snippets[1]!.code).mcpServers[name].args;
  assert.deepEqual(args('http://192.168.1.20:9500/mcp'), [
    '-y',
    'mcp-remote',
    'http://192.168.1.20:9500/mcp',
    '--allow-http',
    '--header',
    'Authorization:${AUTH_HEADER}',
  ]);
  assert.ok(!args('http://localhost:9500/mcp').includes('--allow-http'));
  assert.ok(!args('http://127.0.0.1:9500/mcp').includes('--allow-http'));
});

test('Cursor: mcpServers with url and headers', () => {
  assert.deepEqual(JSON.parse(snippet('cursor')), { mcpServers: { [name]: { url, headers: { Authorization: `Bearer ${token}` } } } });
});

test('VS Code: servers with type http, url and headers', () => {
  assert.deepEqual(JSON.parse(snippet('vscode')), { servers: { [name]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } });
});

test('masking hides every occurrence of the token and keeps its start', () => {
  assert.equal(maskToken(token), `mcp_AbC-${'•'.repeat(24)}`);
  for (const config of configs) {
    for (const s of config.snippets) {
      const shown = maskIn(s.code, token);
      assert.ok(!shown.includes(token.slice(8)), `${config.id}: ${shown}`);
      assert.ok(shown.includes(maskToken(token)), `${config.id}: ${shown}`);
    }
  }
  assert.equal(maskIn('no secret here', token), 'no secret here');
});

test('a placeholder token fills every snippet for readers who cannot see the link', () => {
  const shown = mcpConfigs({ url, name, token: CHAT_LINK_PLACEHOLDER });
  for (const config of shown) for (const s of config.snippets) assert.ok(s.code.includes('CHAT_LINK_TOKEN'), config.id);
});
