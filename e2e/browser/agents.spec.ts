// A chat agent configured from the dashboard, end to end: the owner creates the router's chat link,
// copies the Cursor configuration from the Chat link card, and an MCP client set up exactly from that
// configuration drives a browser through the proxy to complete a form on a local site. The browser
// then shows in Sessions as an agent session.
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { launchChromium } from '../support/chromium';
import { startTestSite } from '../support/test-site';
import { signUp, snap, uniqueEmail } from './helpers';
import { dashboardApi, openRouter, openTab } from './router-helpers';

test('an agent tool configured from the Chat link card completes a form through the MCP endpoint; the session shows as an agent session', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const [chromium, site] = await Promise.all([launchChromium(), startTestSite()]);
  try {
    await signUp(page, { name: 'Alan Agents', email: uniqueEmail('agents') });
    const routerId = await openRouter(page);
    await dashboardApi(page, 'POST', '/v1/providers', { routerId, body: { slug: 'chrome', name: 'Test Chrome', url: chromium.wsUrl } });

    await openTab(page, 'Keys');
    const chat = page.getByRole('region', { name: 'Chat link' });
    await chat.getByRole('button', { name: 'Create chat link' }).click();
    await chat.getByRole('tab', { name: 'Cursor', exact: true }).click();
    const figure = chat.getByRole('tabpanel', { name: 'Cursor', exact: true }).getByRole('figure', { name: '~/.cursor/mcp.json' });
    await figure.getByRole('button', { name: 'Copy' }).click();
    // The clipboard is written asynchronously after the click: read until it holds the file.
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('mcpServers');
    const config = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      mcpServers: Record<string, { url: string; headers: Record<string, string> }>;
    };
    const [server] = Object.values(config.mcpServers);

    // The agent tool, as Cursor would run it from that file.
    const client = new Client({ name: 'cursor-like', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.url), { requestInit: { headers: server!.headers } }));
    const tool = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content
        .filter((c) => c.type === 'text')
        .map((c) => (c as { text: string }).text)
        .join('\n');
      expect(result.isError, text).not.toBe(true);
      return text;
    };
    try {
      await tool('browser_session', { action: 'open' });
      const form = await tool('browser_navigate', { url: `${site.url}/agent/form` });
      const ref = (pattern: RegExp) => /^(e\d+)/.exec(form.split('\n').find((l) => pattern.test(l)) ?? '')![1]!;
      const sent = await tool('browser_act', {
        steps: [
          { action: 'fill', ref: ref(/textbox "Full name"/), text: 'Alan Agents' },
          { action: 'fill', ref: ref(/textbox "Email"/), text: 'alan@example.com' },
          { action: 'click', ref: ref(/button "Create account"/) },
        ],
      });
      expect(sent).toContain('Page: "Welcome"');
      expect(await tool('browser_extract', { format: 'text' })).toContain('Thanks, Alan Agents');

      // While it runs, the session is listed live as an agent session.
      await page.goto('/sessions');
      const row = page.getByRole('row').filter({ hasText: 'Agent' });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('Test Chrome');
      await snap(page, 'agent-session');
      await tool('browser_session', { action: 'close' });
    } finally {
      await client.close();
    }
  } finally {
    await Promise.all([chromium.stop(), site.close()]);
  }
});
