import { expect, test } from '@playwright/test';
import { PROXY } from '../support/connect';
import { inviteAndJoin, signUp, snap, uniqueEmail, webUrl } from './helpers';
import { dashboardApi, openRouter, openTab } from './router-helpers';

test("a member's Connect tab: the address, every snippet with a placeholder, the live keys' prefixes, who creates keys; never a key", async ({
  page: owner,
  browser,
  request,
}) => {
  await signUp(owner, { name: 'Orla Owner', email: uniqueEmail('cowner') });
  const routerId = await openRouter(owner);
  const created = await dashboardApi<{ plaintextKey: string; prefix: string }>(owner, 'POST', '/v1/api-keys', {
    routerId,
    body: { label: 'Nightly scraper', routerInstanceId: routerId },
  });
  const revoked = await dashboardApi<{ id: string; plaintextKey: string; prefix: string }>(owner, 'POST', '/v1/api-keys', {
    routerId,
    body: { label: 'Old laptop', routerInstanceId: routerId },
  });
  await dashboardApi(owner, 'DELETE', `/v1/api-keys/${revoked.id}`, { routerId });
  const keys = (
    await dashboardApi<{ items: { label: string; prefix: string; revokedAt: string | null; id: string }[] }>(owner, 'GET', '/v1/api-keys', { routerId })
  ).items;
  const defaultKey = keys.find((k) => k.label === 'Default key')!;
  const { page: member } = await inviteAndJoin(owner, browser, request, { name: 'Milo Member', email: uniqueEmail('cmember'), role: 'member' });

  await openRouter(member);
  await openTab(member, 'Connect');
  const address = `${PROXY}/v1/connect?token=<ROUTER_KEY>`;
  await expect(member.getByRole('figure', { name: 'Connect URL' })).toContainText(address);
  const snippets = member.getByRole('region', { name: 'Snippets' }).getByRole('figure');
  // Playwright, puppeteer, Python, … and the data API's curl.
  await expect(snippets).toHaveCount(7);
  for (const snippet of await snippets.all()) await expect(snippet).toContainText('<ROUTER_KEY>');
  await expect(member.getByRole('figure', { name: 'Playwright (Node.js) snippet' })).toContainText(`chromium.connectOverCDP('${address}')`);

  await expect(member.getByText('An owner or admin of this workspace creates router keys')).toBeVisible();
  const live = member.getByRole('list', { name: 'Live router keys' });
  await expect(live.getByRole('listitem')).toHaveCount(2);
  await expect(live).toContainText(`${created.prefix}… Nightly scraper`);
  await expect(live).toContainText(`${defaultKey.prefix}… Default key`);
  await expect(live).not.toContainText(revoked.prefix);
  await expect(member.getByRole('button', { name: 'Fill in the newest key' })).toHaveCount(0);
  await snap(member, 'connect-as-member');

  // Options still shape the URL for a member.
  await member.getByRole('switch', { name: /Record this session/ }).click();
  await expect(member.getByRole('figure', { name: 'Connect URL' })).toContainText(`${address}&session_record=true`);

  // Keys: the prefixes and who creates keys, no controls.
  await openTab(member, 'Keys');
  await expect(member.getByTestId('keys-member-note')).toContainText('An owner or admin creates, rotates and revokes keys');
  const table = member.getByRole('table', { name: 'Router keys' });
  await expect(table).toContainText(`${created.prefix}…`);
  await expect(table).toContainText(`${defaultKey.prefix}…`);
  await expect(member.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Rotate all' })).toHaveCount(0);

  // No plaintext reached the member's pages, and the API refuses it to a member.
  for (const secret of [created.plaintextKey, revoked.plaintextKey]) {
    expect(await member.content()).not.toContain(secret);
  }
  await openTab(member, 'Connect');
  expect(await member.content()).not.toContain(created.plaintextKey);
  const plaintext = await member.request.get(`${webUrl}/v1/api-keys/current/plaintext`, { headers: { 'X-Router-Id': routerId } });
  expect(plaintext.status()).toBe(403);
  expect((await plaintext.json()).error.code).toBe('forbidden');
});
