import { expect, test, type Locator } from '@playwright/test';
import { connectUrl, expectRefused } from '../support/connect';
import { PROXY_HTTP } from '../support/data-api';
import { signUp, snap, uniqueEmail } from './helpers';
import { openRouter, openTab, revealedSecret } from './router-helpers';

test('router keys: create with a one-time reveal and copy, revoke, rotate all; the chat link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, { name: 'Keith Keys', email: uniqueEmail('rkeys') });
  await openRouter(page);
  await openTab(page, 'Keys');
  const table = page.getByRole('table', { name: 'Router keys' });
  const defaultRow = table.getByRole('row', { name: /Default key/ });
  await expect(defaultRow).toContainText('Live');
  await expect(defaultRow).toContainText('rkey_');

  // Create: shown once, copied, listed by its prefix.
  await page.getByRole('button', { name: 'Create key' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('Enter a label')).toBeVisible();
  await dialog.getByLabel('Label').fill('CI runner');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Key “CI runner” created');
  await expect(dialog).toContainText('Owners and admins can fetch it again on the Connect tab');
  await expect(dialog).not.toContainText("won't see it again");
  const ciKey = await revealedSecret(page);
  expect(ciKey).toMatch(/^rkey_/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ciKey);
  await snap(page, 'router-key-reveal');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const ciRow = table.getByRole('row', { name: /CI runner/ });
  await expect(ciRow).toContainText(ciKey.slice(0, 11));
  await expect(ciRow).toContainText('Live');
  await expect(ciRow).toContainText('Never');
  // The key authenticates at the proxy: this router has no provider yet, which is the 400, not a 401.
  await expectRefused(connectUrl(ciKey), 400);

  // Revoke: stays listed, refused at once.
  await page.getByRole('button', { name: 'Revoke CI runner' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('Key revoked')).toBeVisible();
  await expect(ciRow).toContainText('Revoked');
  await expect(page.getByRole('button', { name: 'Revoke CI runner' })).toHaveCount(0);
  await expectRefused(connectUrl(ciKey), 401);

  // Rotate all: every live key is revoked and one new key is revealed.
  await page.getByRole('button', { name: 'Rotate all' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate keys' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Keys rotated');
  const rotated = await revealedSecret(page);
  expect(rotated).toMatch(/^rkey_/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(defaultRow).toContainText('Revoked');
  await expect(table.getByRole('row', { name: /Rotated key/ })).toContainText('Live');
  await expectRefused(connectUrl(rotated), 400);
  await snap(page, 'router-keys');

  // The chat link: none, create, reveal, rotate (a new token), delete.
  const chat = page.getByRole('region', { name: 'Chat link' });
  await expect(chat.getByText('No chat link')).toBeVisible();
  await chat.getByRole('button', { name: 'Create chat link' }).click();
  await expect(page.getByText('Chat link created')).toBeVisible();
  const mcp = `${PROXY_HTTP.replace(/\/+$/, '')}/mcp`;
  await expect(chat.getByTestId('mcp-url')).toHaveText(mcp);
  await chat.getByRole('button', { name: 'Copy URL' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(mcp);
  await chat.getByRole('button', { name: 'Show token' }).click();
  const first = (await chat.getByTestId('chat-link-token').textContent())?.trim() ?? '';
  expect(first).toMatch(/^mcp_/);
  await chat.getByRole('button', { name: 'Hide token' }).click();

  // A configuration per agent tool: the token masked on screen while hidden, the real one copied.
  const server = 'browser-router-default';
  const tool = async (name: string) => {
    await chat.getByRole('tab', { name, exact: true }).click();
    const panel = chat.getByRole('tabpanel', { name, exact: true });
    await expect(panel).not.toContainText(first);
    return panel;
  };
  const copied = async (figure: Locator) => {
    await figure.getByRole('button', { name: 'Copy' }).click();
    await expect(figure.getByRole('button', { name: 'Copied' })).toBeVisible();
    return page.evaluate(() => navigator.clipboard.readText());
  };
  const claudeCode = (await tool('Claude Code')).getByRole('figure', { name: 'Terminal' });
  await expect(claudeCode).toContainText(`claude mcp add --transport http ${server} ${mcp} --header "Authorization: Bearer ${first.slice(0, 8)}••••`);
  expect(await copied(claudeCode)).toBe(`claude mcp add --transport http ${server} ${mcp} --header "Authorization: Bearer ${first}"`);
  let panel = await tool('Claude Desktop');
  expect(await copied(panel.getByRole('figure', { name: /Add custom connector/ }))).toBe(`${mcp}?token=${first}`);
  const desktop = JSON.parse(await copied(panel.getByRole('figure', { name: 'claude_desktop_config.json' })));
  expect(desktop.mcpServers[server].command).toBe('npx');
  expect(desktop.mcpServers[server].args).toEqual(expect.arrayContaining(['mcp-remote', mcp, '--header', 'Authorization:${AUTH_HEADER}']));
  expect(desktop.mcpServers[server].env).toEqual({ AUTH_HEADER: `Bearer ${first}` });
  panel = await tool('Cursor');
  await expect(panel.getByRole('figure', { name: '~/.cursor/mcp.json' })).toContainText(`"url": "${mcp}"`);
  expect(JSON.parse(await copied(panel.getByRole('figure', { name: '~/.cursor/mcp.json' })))).toEqual({
    mcpServers: { [server]: { url: mcp, headers: { Authorization: `Bearer ${first}` } } },
  });
  panel = await tool('VS Code');
  expect(JSON.parse(await copied(panel.getByRole('figure', { name: '.vscode/mcp.json' })))).toEqual({
    servers: { [server]: { type: 'http', url: mcp, headers: { Authorization: `Bearer ${first}` } } },
  });
  await chat.getByRole('button', { name: 'Show token' }).click();
  await expect(panel).toContainText(`"Authorization": "Bearer ${first}"`);
  await snap(page, 'chat-link-mcp');

  await chat.getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate link' }).click();
  await expect(page.getByText('Chat link rotated')).toBeVisible();
  await expect(chat.getByTestId('chat-link-token')).not.toHaveText(first);
  await expect(chat.getByTestId('chat-link-token')).toHaveText(/^mcp_/);
  // The configurations follow the new token.
  const second = (await chat.getByTestId('chat-link-token').textContent())?.trim() ?? '';
  await expect(panel).toContainText(`"Authorization": "Bearer ${second}"`);
  await chat.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete link' }).click();
  await expect(chat.getByText('No chat link')).toBeVisible();

  // After a reload the one-time key is gone from the page; an owner fetches the newest one.
  await openTab(page, 'Connect');
  await page.reload();
  await expect(page.getByRole('figure', { name: 'Connect URL' })).toContainText('token=<ROUTER_KEY>');
  await page.getByRole('button', { name: 'Fill in the newest key' }).click();
  await expect(page.getByRole('figure', { name: 'Connect URL' })).toContainText(`token=${rotated}`);
});
