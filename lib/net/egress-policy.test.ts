import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { classifyIp, ipLiteral } from './addresses';
import { egressFetch } from './egress-connect';
import { readSettings } from '../config/settings';
import { checkUrl, EgressRefusedError, internalPortsOf, refusalReason, resolveEgress, type EgressPolicy, type Lookup } from './egress-policy';

const deny: EgressPolicy = { privateNetwork: 'deny', internalPorts: new Set([5432, 9600]) };
const allow: EgressPolicy = { privateNetwork: 'allow', internalPorts: new Set([5432, 9600]) };

test('addresses are classified by range, IPv4 and IPv6 alike', () => {
  const cases: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private'],
    ['fc00::1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['ff02::1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700::1111', 'public'],
  ];
  for (const [ip, kind] of cases) assert.equal(classifyIp(ip), kind, ip);
});

test('IPv6 forms that carry an IPv4 address are that address', () => {
  for (const ip of ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::'])
    assert.equal(classifyIp(ip), 'loopback', ip);
  assert.equal(classifyIp('::ffff:169.254.169.254'), 'link-local');
  assert.equal(classifyIp('::ffff:a00:1'), 'private');
  assert.equal(classifyIp('::ffff:8.8.8.8'), 'public');
});

test('decimal, octal, hex and bracketed spellings reach the check as the address they mean', async () => {
  for (const spelling of [
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
  ]) {
    await assert.rejects(checkUrl(deny, spelling), EgressRefusedError, spelling);
  }
  assert.equal(ipLiteral('[::1]'), '0:0:0:0:0:0:0:1');
  await assert.rejects(checkUrl(allow, 'http://0xa9fea9fe/latest/meta-data'), /link-local/);
});

test("deny refuses every non-public target; allow permits private ones but never link-local, metadata or the product's ports", () => {
  assert.match(refusalReason(deny, '127.0.0.1', 8080)!, /PRIVATE_NETWORK=deny/);
  assert.match(refusalReason(deny, '10.0.0.5', 443)!, /private-network/);
  assert.equal(refusalReason(deny, '93.184.216.34', 443), null);
  assert.equal(refusalReason(allow, '127.0.0.1', 8080), null);
  assert.equal(refusalReason(allow, '10.0.0.5', 443), null);
  assert.match(refusalReason(allow, '169.254.169.254', 80)!, /whatever PRIVATE_NETWORK says/);
  assert.match(refusalReason(allow, '100.100.100.200', 80)!, /link-local/);
  assert.match(refusalReason(allow, 'fd00:ec2::254', 80)!, /link-local/);
  assert.match(refusalReason(allow, '127.0.0.1', 5432)!, /this service's own ports/);
  assert.match(refusalReason(allow, '0.0.0.0', 9600)!, /this service's own ports/);
  assert.equal(refusalReason(allow, '93.184.216.34', 5432), null, 'a public host on the same port number is somebody else');
});

test('a name is resolved once and refused when any of its addresses is refused', async () => {
  let calls = 0;
  const rebinding: Lookup = async () => {
    calls++;
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
  };
  await assert.rejects(
    resolveEgress(deny, 'rebind.example', 80, rebinding),
    /^Error: rebind\.example resolves to 127\.0\.0\.1, a loopback address, refused under PRIVATE_NETWORK=deny/,
  );
  assert.equal(calls, 1);
  const publicOnly: Lookup = async () => [{ address: '93.184.216.34', family: 4 }];
  assert.deepEqual(await resolveEgress(deny, 'example.test', 80, publicOnly), { address: '93.184.216.34', family: 4 });
  await assert.rejects(resolveEgress(deny, 'localhost', 80), /loopback/, 'the system resolver: localhost is loopback');
});

test("settings: PRIVATE_NETWORK defaults to deny and takes only deny or allow; the product's ports come from its environment", () => {
  assert.equal(readSettings({}).privateNetwork, 'deny');
  assert.equal(readSettings({ PRIVATE_NETWORK: 'Allow' }).privateNetwork, 'allow');
  assert.throws(() => readSettings({ PRIVATE_NETWORK: 'yes' }), /^SettingsError: PRIVATE_NETWORK must be one of "deny", "allow", got "yes"$/);
  const ports = internalPortsOf(
    readSettings({ PORT: '9501', WEB_PORT: '3001', POOL_PORT: '9601', DATABASE_URL: 'postgres://u:p@127.0.0.1:6000/db', INTERNAL_PORTS: '7000, 7001' }),
  );
  for (const port of [9501, 3001, 9601, 6000, 7000, 7001, 54329]) assert.ok(ports.has(port), String(port));
});

test('egressFetch connects only to checked addresses, redirects included', async () => {
  const server = http.createServer((req, res) => {
    if (req.url === '/hop') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    else res.end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.equal(await (await egressFetch(allow, `${base}/`)).text(), 'hello');
    const refused = await egressFetch(deny, `${base}/`).catch((e: Error) => e);
    assert.ok(refused instanceof Error && (refused.cause as Error) instanceof EgressRefusedError, String(refused));
    const redirected = await egressFetch(allow, `${base}/hop`).catch((e: Error) => e);
    assert.ok(redirected instanceof Error && /link-local/.test(String((redirected.cause as Error)?.message)), String(redirected));
  } finally {
    server.close();
  }
});
