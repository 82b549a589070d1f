// The one router-key check of connect, /v1/status and the data API, with a counting fake lookup
// in place of the database: what reaches the database, what is 401 and what is 429.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashSecret } from '../../lib/crypto/secrets';
import { KEY_REFUSED, MCP_REFUSED, RouterKeyAuth, THROTTLED, TICKET_REFUSED } from './authenticate';
import { clientAddress } from './client-address';
import { FailureThrottle } from './failure-throttle';
import type { RouterKeyIdentity } from './router-key';

const VALID = `rkey_${'v'.repeat(43)}`;
const bad = (n: number) => `rkey_${String(n).padStart(43, 'x')}`;
const identity: RouterKeyIdentity = {
  keyId: 'k1',
  routerId: 'r1',
  workspaceId: 'w1',
  suspended: false,
  enterprise: false,
  balanceMillicents: 0n,
  monthSessions: 0,
};

function setup(options: { lookupBurst?: number } = {}) {
  let now = 1_000_000;
  const lookedUp: string[] = [];
  const auth = new RouterKeyAuth({
    throttle: new FailureThrottle(10, 60_000, { lookupBurst: options.lookupBurst ?? 2, lookupsPerSecond: 1 }),
    now: () => now,
    lookup: async (keyHash) => {
      lookedUp.push(keyHash);
      return keyHash === hashSecret(VALID) ? identity : null;
    },
  });
  return { auth, lookedUp, advance: (ms: number) => (now += ms) };
}

async function trip(auth: RouterKeyAuth, ip: string) {
  for (let i = 0; i < 10; i++) {
    const r = await auth.checkKey(ip, bad(i));
    assert.equal(r.ok ? 200 : r.status, 401);
  }
}

test('ten failures from one address, then 429 with Retry-After for its failed attempts', async () => {
  const { auth } = setup();
  await trip(auth, '10.0.0.1');
  const refused = await auth.checkKey('10.0.0.1', bad(99));
  assert.ok(!refused.ok);
  assert.equal(refused.status, 429);
  assert.equal(refused.message, THROTTLED);
  assert.equal(refused.headers['Retry-After'], '60');
  const other = await auth.checkKey('10.0.0.2', bad(1));
  assert.ok(!other.ok && other.status === 401 && other.message === KEY_REFUSED, 'another address is not affected');
});

test('a valid key from a throttled address still works', async () => {
  const { auth } = setup();
  await trip(auth, '10.0.0.1');
  const r = await auth.checkKey('10.0.0.1', VALID);
  assert.ok(r.ok);
  assert.equal(r.identity.routerId, 'r1');
});

test('throttled: missing, malformed and repeated bad keys get 429 without a lookup', async () => {
  const { auth, lookedUp } = setup();
  await trip(auth, '10.0.0.1');
  const before = lookedUp.length;
  for (const key of [null, 'nope', 'rkey_short', `acct_${'a'.repeat(43)}`, bad(3), bad(3), bad(7)]) {
    const r = await auth.checkKey('10.0.0.1', key);
    assert.ok(!r.ok && r.status === 429, `${key}: ${JSON.stringify(r)}`);
  }
  assert.equal(lookedUp.length, before, 'not one lookup');
});

test('throttled: a flood of new bad keys reaches the lookup at most the budget allows; a valid key that passed before still works', async () => {
  const { auth, lookedUp, advance } = setup({ lookupBurst: 2 });
  await trip(auth, '10.0.0.1');
  assert.ok((await auth.checkKey('10.0.0.1', VALID)).ok); // spends one lookup, remembered as good
  const before = lookedUp.length;
  for (let i = 100; i < 600; i++) {
    const r = await auth.checkKey('10.0.0.1', bad(i));
    assert.ok(!r.ok && r.status === 429);
    if (i % 100 === 0) advance(1_000);
  }
  assert.ok(lookedUp.length - before <= 1 + 5, `${lookedUp.length - before} lookups for 500 bad keys over 5 s`);
  assert.ok((await auth.checkKey('10.0.0.1', VALID)).ok, 'the good key is not starved by the flood');
});

test('throttled failures that were looked up keep the address throttled; the rest do not extend it', async () => {
  const { auth, advance } = setup({ lookupBurst: 1 });
  await trip(auth, '10.0.0.1');
  advance(59_000);
  assert.equal((await auth.checkKey('10.0.0.1', null)).ok, false);
  advance(1_000);
  // The window moved on; the unchecked 429 above did not count.
  const r = await auth.checkKey('10.0.0.1', bad(50));
  assert.ok(!r.ok && r.status === 401);
});

test('unthrottled: malformed keys fail without a lookup and count; well-formed ones are looked up', async () => {
  const { auth, lookedUp } = setup();
  const r = await auth.checkKey('10.0.0.3', 'rkey_bad0');
  assert.ok(!r.ok && r.status === 401);
  assert.equal(lookedUp.length, 0);
  assert.equal(auth.throttle.blockedFor('10.0.0.3', 1_000_000), 0);
  await auth.checkKey('10.0.0.3', bad(1));
  assert.deepEqual(lookedUp, [hashSecret(bad(1))]);
});

test('client address: the socket without TRUST_PROXY, the right-most X-Forwarded-For entry with it', () => {
  const req = (remoteAddress: string | undefined, xff?: string | string[]) =>
    ({ socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as never;
  assert.equal(clientAddress(req('127.0.0.2', '203.0.113.9'), false), '127.0.0.2', 'a client-sent header means nothing without a trusted proxy');
  assert.equal(clientAddress(req('::ffff:127.0.0.2'), false), '127.0.0.2');
  assert.equal(clientAddress(req('127.0.0.1', '198.51.100.1, 203.0.113.9'), true), '203.0.113.9', 'the entry the trusted proxy appended');
  assert.equal(clientAddress(req('127.0.0.1', ['198.51.100.1', ' 2001:DB8::1 ']), true), '2001:db8::1');
  assert.equal(clientAddress(req('127.0.0.1', '203.0.113.9, not-an-ip'), true), '127.0.0.1', 'unreadable: the socket (the proxy itself)');
  assert.equal(clientAddress(req('127.0.0.1'), true), '127.0.0.1');
  assert.equal(clientAddress(req(undefined), false), 'unknown');
});

test('connect tickets: only from ticket= on /v1/connect, single use by the redeemer, throttled like keys', async () => {
  const ticket = `ctkt_${'t'.repeat(43)}`;
  const redeemed: string[] = [];
  const auth = new RouterKeyAuth({
    throttle: new FailureThrottle(5, 60_000, { lookupBurst: 0, lookupsPerSecond: 0 }),
    lookup: async () => null,
    redeemTicket: async (hash) => {
      redeemed.push(hash);
      return redeemed.length === 1 && hash === hashSecret(ticket) ? identity : null;
    },
  });
  const req = (headers: Record<string, string> = {}) => ({ socket: { remoteAddress: '10.0.0.9' }, headers }) as never;
  const url = (path: string, query: string) => new URL(`http://proxy${path}?${query}`);

  const ok = await auth.check(req(), url('/v1/connect', `ticket=${ticket}&provider=a`));
  assert.ok(ok.ok && ok.identity.keyId === 'k1');
  const again = await auth.check(req(), url('/v1/connect', `ticket=${ticket}`));
  assert.ok(!again.ok && again.status === 401 && again.message === TICKET_REFUSED, 'a used ticket fails');
  for (const path of ['/v1/status', '/v1/content', '/json/version']) {
    const r = await auth.check(req(), url(path, `ticket=${ticket}`));
    assert.ok(!r.ok && r.message === KEY_REFUSED, `${path}: a ticket is no key`);
  }
  assert.equal(redeemed.length, 2, 'only /v1/connect redeems');
  const asToken = await auth.check(req(), url('/v1/connect', `token=${ticket}`));
  assert.ok(!asToken.ok && asToken.message === KEY_REFUSED, 'a ticket in token= is not looked up as a key');
  const throttled = await auth.check(req(), url('/v1/connect', `ticket=${ticket}`));
  assert.ok(!throttled.ok && throttled.status === 429, 'failed tickets count toward the address throttle');
  for (const r of [again, asToken, throttled]) assert.ok(!r.ok && !r.message.includes(ticket));
});

test('MCP: a chat link or a router key, in the header or token=; failures are one 401 under the same throttle', async () => {
  const link = `mcp_${'m'.repeat(43)}`;
  const linkIdentity: RouterKeyIdentity = { ...identity, keyId: 'link1' };
  const lookedUp: string[] = [];
  const auth = new RouterKeyAuth({
    throttle: new FailureThrottle(4, 60_000, { lookupBurst: 0, lookupsPerSecond: 0 }),
    lookup: async (hash) => (hash === hashSecret(VALID) ? identity : null),
    lookupChatLink: async (hash) => {
      lookedUp.push(hash);
      return hash === hashSecret(link) ? linkIdentity : null;
    },
  });
  const req = (headers: Record<string, string> = {}) => ({ socket: { remoteAddress: '10.0.0.7' }, headers }) as never;
  const url = (query = '') => new URL(`http://proxy/mcp${query}`);

  const byHeader = await auth.checkMcp(req({ authorization: `Bearer ${link}` }), url());
  assert.ok(byHeader.ok && byHeader.identity.keyId === 'link1' && byHeader.credential === 'chat_link');
  const byQuery = await auth.checkMcp(req(), url(`?token=${link}`));
  assert.ok(byQuery.ok && byQuery.credential === 'chat_link');
  const byKey = await auth.checkMcp(req({ authorization: `Bearer ${VALID}` }), url());
  assert.ok(byKey.ok && byKey.identity.keyId === 'k1' && byKey.credential === 'router_key');

  const before = lookedUp.length;
  for (const token of [null, 'mcp_short', `mcp_${'m'.repeat(42)}!`]) {
    const r = await auth.checkMcp(req(token ? { authorization: `Bearer ${token}` } : {}), url());
    assert.ok(!r.ok && r.status === 401 && r.message === MCP_REFUSED, String(token));
  }
  assert.equal(lookedUp.length, before, 'malformed links never reach the database');
  const unknown = await auth.checkMcp(req(), url(`?token=mcp_${'u'.repeat(43)}`));
  assert.ok(!unknown.ok && unknown.status === 401 && unknown.message === MCP_REFUSED);
  const throttled = await auth.checkMcp(req(), url(`?token=mcp_${'w'.repeat(43)}`));
  assert.ok(!throttled.ok && throttled.status === 429 && throttled.message === THROTTLED);
  const stillWorks = await auth.checkMcp(req(), url(`?token=${link}`));
  assert.ok(stillWorks.ok, 'a link that passed before still works from a throttled address');
});
