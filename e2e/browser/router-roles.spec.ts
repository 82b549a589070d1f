import { expect, test } from '@playwright/test';
import { launchChromium } from '../support/chromium';
import { PROXY_HTTP } from '../support/data-api';
import { inviteAndJoin, signUp, snap, uniqueEmail } from './helpers';
import { dashboardApi, openRouter, openTab } from './router-helpers';

test('a member sees routers, providers with their live state, keys and settings, but no controls that change them', async ({
  page: owner,
  browser,
  request,
}) => {
  const chromium = await launchChromium();
  try {
    await signUp(owner, { name: 'Olga Owner', email: uniqueEmail('rowner') });
    const routerId = await openRouter(owner);
    await dashboardApi(owner, 'POST', '/v1/providers', { routerId, body: { slug: 'chrome', url: chromium.wsUrl } });
    const { page: member } = await inviteAndJoin(owner, browser, request, { name: 'Mia Member', email: uniqueEmail('rmember'), role: 'member' });

    await member.goto('/routers');
    await expect(member.getByRole('table', { name: 'Routers' })).toContainText('Default');
    await expect(member.getByRole('button', { name: 'Create router' })).toHaveCount(0);

    // Providers: the live state is readable by any member (the status route needs no key in the browser).
    await openRouter(member);
    await expect(member.getByTestId('live-chrome')).toContainText('Healthy', { timeout: 20_000 });
    await expect(member.getByRole('button', { name: 'Add provider' })).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'Actions for chrome' })).toHaveCount(0);
    await expect(member.getByRole('switch', { name: 'Enable chrome' })).toBeDisabled();
    await snap(member, 'providers-as-member');

    await openTab(member, 'Keys');
    await expect(member.getByRole('table', { name: 'Router keys' })).toContainText('Default key');
    await expect(member.getByRole('button', { name: 'Create key' })).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'Rotate all' })).toHaveCount(0);
    await expect(member.getByRole('button', { name: /^Revoke / })).toHaveCount(0);
    await expect(member.getByText('Only owners and admins can see or change the chat link.')).toBeVisible();
    // The MCP URL and the configurations, with a placeholder where the token goes.
    const chat = member.getByRole('region', { name: 'Chat link' });
    await expect(chat.getByTestId('mcp-url')).toHaveText(`${PROXY_HTTP.replace(/\/+$/, '')}/mcp`);
    await expect(chat.getByRole('tabpanel', { name: 'Claude Code' })).toContainText('--header "Authorization: Bearer <CHAT_LINK_TOKEN>"');

    await openTab(member, 'Settings');
    await expect(member.getByRole('form', { name: 'Routing settings' }).getByLabel(/^Connection timeout/)).toBeDisabled();
    await expect(member.getByRole('button', { name: 'Save routing settings' })).toHaveCount(0);
    await expect(member.getByRole('switch', { name: /^Recording/ })).toBeDisabled();
    await expect(member.getByRole('button', { name: 'Delete router' })).toHaveCount(0);

    await openTab(member, 'Connect');
    await expect(member.getByText('An owner or admin of this workspace creates router keys')).toBeVisible();
    await expect(member.getByRole('figure', { name: 'Connect URL' })).toContainText('token=<ROUTER_KEY>');
    await expect(member.getByRole('button', { name: 'Fill in the newest key' })).toHaveCount(0);
  } finally {
    await chromium.stop();
  }
});
