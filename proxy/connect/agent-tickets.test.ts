// Agent tickets: one redemption each, gone after their time to live (a fake clock), and accepted
// only from this machine's own loopback connects, never through a reverse proxy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RouterKeyIdentity } from '../auth/router-key';
import { AGENT_TICKET_TTL_MS, AgentTickets, isLocalCaller, isLoopbackAddress, isWellFormedAgentTicket } from './agent-tickets';

const identity: RouterKeyIdentity = {
  keyId: 'link1',
  routerId: 'r1',
  workspaceId: 'w1',
  suspended: false,
  enterprise: false,
  balanceMillicents: 0n,
  monthSessions: 0,
};

test('a ticket is atkt_ and 32 random bytes, and works once', () => {
  const tickets = new AgentTickets();
  const ticket = tickets.issue({ identity, credentialId: 'link1', credential: 'chat_link' });
  assert.match(ticket, /^atkt_[A-Za-z0-9_-]{43}$/);
  assert.ok(isWellFormedAgentTicket(ticket));
  assert.notEqual(tickets.issue({ identity, credentialId: 'link1' }), ticket, 'every ticket is new');
  assert.deepEqual(tickets.redeem(ticket), { identity, credentialId: 'link1', credential: 'chat_link' });
  assert.equal(tickets.redeem(ticket), null, 'a second redemption fails');
});

test('an expired ticket is refused; unredeemed ones are swept at the next issue', () => {
  let now = 1_000_000;
  const tickets = new AgentTickets({ now: () => now });
  const early = tickets.issue({ identity, credentialId: 'k1' });
  now += AGENT_TICKET_TTL_MS - 1;
  const later = tickets.issue({ identity, credentialId: 'k1' });
  assert.equal(tickets.size, 2);
  now += 1;
  assert.equal(tickets.redeem(early), null, 'exactly at its expiry it no longer works');
  assert.ok(tickets.redeem(later), 'a younger one still does');
  const stale = tickets.issue({ identity, credentialId: 'k1' });
  now += AGENT_TICKET_TTL_MS;
  tickets.issue({ identity, credentialId: 'k1' });
  assert.equal(tickets.size, 1, 'the expired ticket was dropped');
  assert.equal(tickets.redeem(stale), null);
});

test('malformed or unknown tickets are null', () => {
  const tickets = new AgentTickets();
  for (const value of [null, '', 'atkt_short', `ctkt_${'a'.repeat(43)}`, `atkt_${'a'.repeat(43)}`]) assert.equal(tickets.redeem(value), null, String(value));
});

test('only loopback peers with no forwarding header are local callers', () => {
  for (const address of ['127.0.0.1', '127.45.3.9', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackAddress(address), address);
  for (const address of [undefined, '', '10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1', '::'])
    assert.ok(!isLoopbackAddress(address), String(address));
  const req = (remoteAddress: string, headers: Record<string, string> = {}) =>
    ({ headers, socket: { remoteAddress } }) as unknown as Parameters<typeof isLocalCaller>[0];
  assert.ok(isLocalCaller(req('127.0.0.1')));
  assert.ok(!isLocalCaller(req('192.0.2.2')));
  assert.ok(!isLocalCaller(req('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })), 'a reverse proxy on this machine relays outside callers');
  assert.ok(!isLocalCaller(req('127.0.0.1', { forwarded: 'for=203.0.113.7' })));
});
