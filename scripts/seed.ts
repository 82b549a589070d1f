// npm run seed -- --email <e> --password <p> [--name <n>] [--grant-cents <n>] [--enterprise] [--json]
// Creates (or reuses) a verified user with a workspace and its default router, creates an access
// token, takes the router's newest live router key (issuing one when there is none), and prints
// what each credential is for: the account token for the control-plane API on the web port, the
// router key in the connect URL and the data API on the proxy port, and a one-line Playwright
// example. `--grant-cents <n>` grants n cents to the workspace's wallet (a `grant` ledger entry,
// as the operator's grant; each run grants again), `--enterprise` marks the workspace enterprise.
// `--json` prints one JSON line instead:
// { userId, workspaceId, routerId, accessToken, routerKey, connectUrl, providers, accountState, balanceUsdCents }.
import { parseArgs } from 'node:util';
import { publicProxyUrl, publicWebUrl } from './lib/env';
import { openInstallDatabase } from './lib/install-database';

const USAGE = 'usage: npm run seed -- --email <e> --password <p> [--name <n>] [--grant-cents <n>] [--enterprise] [--json]';
const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    'grant-cents': { type: 'string' },
    enterprise: { type: 'boolean' },
    json: { type: 'boolean' },
  },
});
if (!values.email || !values.password) {
  console.error(USAGE);
  process.exit(2);
}
// The same bounds as the operator's grant (POST /v1/admin/workspaces/:id/credits).
const grantCents = values['grant-cents'] === undefined ? null : Number(values['grant-cents']);
if (grantCents !== null && !(/^\d+$/.test(values['grant-cents']!) && grantCents >= 1 && grantCents <= 10_000_000)) {
  console.error(`--grant-cents takes a whole number of cents from 1 to 10000000\n${USAGE}`);
  process.exit(2);
}

const database = await openInstallDatabase('seed');

// Imported after the environment is set: lib/db reads DATABASE_URL on first use.
const { seedUser } = await import('../lib/users/seed-user');
const { db } = await import('../lib/db');
const { currentRouterKeyPlaintext, issueRouterKey } = await import('../lib/keys/manage-router-keys');
const { grantCredits } = await import('../lib/billing/grants');
const { centsOf } = await import('../lib/billing/charges');
const { balanceOf } = await import('../lib/billing/ledger');
const { accountState } = await import('../lib/workspaces/serialize');
const { probeLocalPool } = await import('../lib/providers/local-pool-probe');
const { LOCAL_POOL_SLUG } = await import('../lib/providers/local-pool');

async function routerKeyOf(workspaceId: string, routerId: string): Promise<string> {
  const live = await db.routerKey.count({ where: { routerId, revokedAt: null, keyEncrypted: { not: null } } });
  if (live > 0) return (await currentRouterKeyPlaintext(routerId)).plaintextKey;
  return (await issueRouterKey(workspaceId, routerId, `seed ${new Date().toISOString().slice(0, 19)}`)).plaintextKey;
}

try {
  const user = await seedUser({ email: values.email, password: values.password, name: values.name });
  if (!user.routerId) throw new Error('the workspace has no router');
  const routerKey = await routerKeyOf(user.workspaceId, user.routerId);
  const providers = await db.provider.count({ where: { routerId: user.routerId, enabled: true } });
  // The local-pool provider's capabilities, as a probe on add records them, when it has none yet
  // (this process cannot leave it to the web's next probe: it is about to exit).
  const pool = await db.provider.findFirst({ where: { routerId: user.routerId, slug: LOCAL_POOL_SLUG }, select: { capabilities: true } });
  if (pool && !(pool.capabilities as { probedAt?: string | null }).probedAt) await probeLocalPool();
  if (values.enterprise) await db.workspace.update({ where: { id: user.workspaceId }, data: { enterprise: true, plan: 'enterprise' } });
  if (grantCents !== null) await grantCredits(user.workspaceId, grantCents, 'npm run seed --grant-cents', null);
  const { enterprise } = await db.workspace.findUniqueOrThrow({ where: { id: user.workspaceId }, select: { enterprise: true } });
  const balance = await balanceOf(db, user.workspaceId);
  const wallet = { accountState: accountState({ enterprise, balanceMillicents: balance }), balanceUsdCents: centsOf(balance) };
  const proxy = publicProxyUrl();
  const connectUrl = `${proxy}/v1/connect?token=${routerKey}`;
  if (values.json) {
    console.log(JSON.stringify({ ...user, routerKey, connectUrl, providers, ...wallet }));
  } else {
    const dataApi = proxy.replace(/^ws/, 'http');
    const playwright = `node -e "require('playwright-core').chromium.connectOverCDP(process.argv[1]).then(async (b) => { console.log('connected to', b.version()); await b.close(); })" '${connectUrl}'`;
    console.log(
      [
        `${values.email}: user ${user.userId}, workspace ${user.workspaceId}, router ${user.routerId}`,
        `Wallet: ${(wallet.balanceUsdCents / 100).toFixed(2)} USD, account ${wallet.accountState}${grantCents !== null ? ` (granted ${grantCents} cents now)` : ''}`,
        '',
        'Account token (the control-plane API on the web port; a new one each run):',
        `  ${user.accessToken}`,
        `  curl -H "Authorization: Bearer ${user.accessToken}" ${publicWebUrl()}/v1/me`,
        '',
        'Router key (the connect endpoint and the data API on the proxy port; not an account token):',
        `  ${routerKey}`,
        '',
        'Connect URL (CDP over WebSocket, for Playwright, Puppeteer or any CDP client):',
        `  ${connectUrl}`,
        '',
        'Playwright, one line (run it in this folder: connects, prints the browser version, closes):',
        `  ${playwright}`,
        '',
        'Data API, one screenshot:',
        `  curl -X POST ${dataApi}/v1/screenshot -H "Authorization: Bearer ${routerKey}" -H "Content-Type: application/json" -d '{"url":"https://example.com"}' -o page.png`,
        ...(providers === 0 ? ['', 'This router has no enabled provider yet: the connect URL answers 400 until one is added (dashboard, Providers).'] : []),
      ].join('\n'),
    );
  }
} catch (error) {
  console.error(`seed failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
  await database.stop();
}
