// Beside the reference tool: the same form task scripted through our MCP endpoint and through
// Microsoft's Playwright MCP server pointed at our connect URL (`--cdp-endpoint`). Both must
// complete it, which also shows that a third-party CDP client runs unchanged through the proxy.
// The snapshot sizes of both on the same pages are printed for the record (docs/agents.md).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { userWithProvider } from '../support/capture';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, PROXY } from '../support/connect';
import { startTestSite, type TestSite } from '../support/test-site';

const SLOW = { timeout: 180_000 };
const require = createRequire(import.meta.url);

let browser: Chromium;
let site: TestSite;
let outputDir: string;

before(async () => {
  [browser, site, outputDir] = await Promise.all([launchChromium(), startTestSite(), mkdtemp(path.join(os.tmpdir(), 'pw-mcp-'))]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close(), rm(outputDir, { recursive: true, force: true })]);
});

const textOf = (result: CallToolResult) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(result.isError, true, `${name}: ${textOf(result)}`);
  return textOf(result);
}

test('the same form through our MCP and through @playwright/mcp on our connect URL: both complete it', SLOW, async () => {
  const user = await userWithProvider('mcp-reference', browser.wsUrl);
  const sizes: Record<string, { ours: number; reference: number }> = {};

  // Ours, over HTTP with the router key.
  const ours = new Client({ name: 'reference-comparison', version: '1.0.0' });
  await ours.connect(
    new StreamableHTTPClientTransport(new URL(`${PROXY.replace(/^ws/, 'http')}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${user.key}` } } }),
  );
  try {
    await callTool(ours, 'browser_session', { action: 'open' });
    for (const page of ['/agent/form', '/agent/large?n=1000']) {
      await callTool(ours, 'browser_navigate', { url: `${site.url}${page}` });
      sizes[page] = { ours: Buffer.byteLength(await callTool(ours, 'browser_snapshot', {})), reference: 0 };
    }
    const form = await callTool(ours, 'browser_navigate', { url: `${site.url}/agent/form` });
    const ref = (pattern: RegExp) => /^(e\d+)/.exec(form.split('\n').find((l) => pattern.test(l)) ?? '')![1]!;
    const done = await callTool(ours, 'browser_act', {
      steps: [
        { action: 'fill', ref: ref(/textbox "Full name"/), text: 'Ada Lovelace' },
        { action: 'fill', ref: ref(/textbox "Email"/), text: 'ada@example.com' },
        { action: 'select', ref: ref(/combobox "Plan"/), option: 'Pro' },
        { action: 'click', ref: ref(/button "Create account"/) },
      ],
    });
    assert.match(done, /Page: "Welcome"/);
    assert.match(await callTool(ours, 'browser_extract', { format: 'text' }), /email=ada@example\.com plan=pro/);
    await callTool(ours, 'browser_session', { action: 'close' });
  } finally {
    await ours.close();
  }

  // The reference, over stdio, given our connect URL as its CDP endpoint.
  const reference = new Client({ name: 'reference-comparison', version: '1.0.0' });
  await reference.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(path.dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'),
        '--cdp-endpoint',
        connectUrl(user.key),
        '--output-dir',
        outputDir,
      ],
      stderr: 'ignore',
    }),
  );
  try {
    for (const page of ['/agent/form', '/agent/large?n=1000']) {
      await callTool(reference, 'browser_navigate', { url: `${site.url}${page}` });
      sizes[page]!.reference = Buffer.byteLength(await callTool(reference, 'browser_snapshot', {}));
    }
    await callTool(reference, 'browser_navigate', { url: `${site.url}/agent/form` });
    const snapshot = await callTool(reference, 'browser_snapshot', {});
    const ref = (pattern: RegExp) => {
      const line = snapshot.split('\n').find((l) => pattern.test(l));
      assert.ok(line, `no ${pattern} in the reference's snapshot:\n${snapshot}`);
      return /\[ref=([^\]]+)\]/.exec(line!)![1]!;
    };
    await callTool(reference, 'browser_type', { element: 'Full name', target: ref(/textbox "Full name"/), text: 'Ada Lovelace' });
    await callTool(reference, 'browser_type', { element: 'Email', target: ref(/textbox "Email"/), text: 'ada@example.com' });
    await callTool(reference, 'browser_select_option', { element: 'Plan', target: ref(/combobox "Plan"/), values: ['Pro'] });
    await callTool(reference, 'browser_click', { element: 'Create account', target: ref(/button "Create account"/) });
    const result = await callTool(reference, 'browser_snapshot', {});
    assert.match(result, /Thanks, Ada Lovelace/);
    assert.match(result, /email=ada@example\.com plan=pro/);
  } finally {
    await reference.close();
  }

  for (const [page, size] of Object.entries(sizes)) console.log(`snapshot of ${page}: ours ${size.ours} bytes, @playwright/mcp ${size.reference} bytes`);
  assert.ok(sizes['/agent/large?n=1000']!.ours <= 16 * 1024, 'ours stays within its 16 KB budget');
});
