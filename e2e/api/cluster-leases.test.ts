// The routing state the proxies share in PostgreSQL (proxy/cluster/): provider leases under
// concurrency, the shared cooldown, expiry of a silent proxy's leases and the settling of its
// sessions. Against the test stack's database, with the statements the proxies run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { db } from '../../lib/db';
import { blobs } from '../../lib/blobs';
import { settings } from '../../lib/config/settings';
import { Cluster } from '../../proxy/cluster/cluster';
import {
  failLease,
  PROVIDER_COOLDOWN_CHANNEL,
  PROVIDER_FREED_CHANNEL,
  reclaimLeases,
  releaseLease,
  runningCooldowns,
  takeLease,
} from '../../proxy/cluster/leases';
import { PROXY_STOPPED } from '../../lib/sessions/session-writer';
import { newUser } from '../support/api';
import { eventually } from '../support/connect';
import { uniqueSlug } from '../support/providers';
import { seedProvider, seedProxyInstance, seedSession } from '../support/seed';

async function provider(maxConcurrent: number | null) {
  const user = await newUser('lease');
  const row = await seedProvider(user.workspaceId, user.routerId, { slug: uniqueSlug('p'), url: 'ws://127.0.0.1:9/devtools/browser/x', maxConcurrent });
  return { user, id: row.id };
}

/**
 * Every proxy on the database sweeps, the stack's own too: whichever claims a dead run first
 * settles it, and a claim that stalls is taken over one lease time later. So a dead run is
 * settled within 1.25 lease times of the slowest sweeper (the stack's proxy, LEASE_TTL_MS).
 */
const SETTLED_WITHIN_MS = 1.25 * settings().leaseTtlMs + 5_000;

const active = async (providerId: string) => (await db.providerState.findUnique({ where: { providerId } }))?.active ?? 0;

/** A LISTEN connection of the test's own, collecting payloads per channel. */
async function listenTo(...channels: string[]) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const heard: { channel: string; payload: string }[] = [];
  client.on('notification', (m) => heard.push({ channel: m.channel, payload: m.payload ?? '' }));
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
  return { heard, close: () => client.end() };
}

test('a limit holds across proxies: 60 concurrent takes from three runs at limit 3 admit exactly 3', async () => {
  const { id } = await provider(3);
  const runs = ['a', 'b', 'c'].map((r) => `leases-${r}-${randomUUID()}`);
  // Separate connections, so the statements really interleave in the server.
  const clients = await Promise.all(
    runs.map(async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      return c;
    }),
  );
  try {
    const granted = await Promise.all(Array.from({ length: 60 }, (_, i) => takeLease({ id, limit: 3 }, runs[i % 3]!, 20_000)));
    assert.equal(granted.filter(Boolean).length, 3);
    assert.equal(await active(id), 3);
    assert.equal(await db.providerLease.count({ where: { providerId: id, releasedAt: null } }), 3);

    const listener = await listenTo(PROVIDER_FREED_CHANNEL);
    try {
      const first = granted.find(Boolean)!;
      await releaseLease(first, true);
      await releaseLease(first, true); // idempotent: counted once
      assert.equal(await active(id), 2);
      await eventually(() => listener.heard.some((h) => h.payload === id), 5_000, 'the freed slot announced');
      assert.equal(listener.heard.filter((h) => h.payload === id).length, 1);
      assert.ok(await takeLease({ id, limit: 3 }, runs[0]!, 20_000), 'the freed slot can be taken');
      assert.equal(await takeLease({ id, limit: 3 }, runs[1]!, 20_000), null);
    } finally {
      await listener.close();
    }
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
});

test('an unlimited provider leases without a limit, and a lowered limit admits nobody until sessions end', async () => {
  const { id } = await provider(null);
  const leases = await Promise.all(Array.from({ length: 10 }, () => takeLease({ id, limit: null }, 'unlimited', 20_000)));
  assert.equal(leases.filter(Boolean).length, 10);
  assert.equal(await takeLease({ id, limit: 4 }, 'unlimited', 20_000), null, '10 held, limit now 4');
  for (const lease of leases.slice(0, 7)) await releaseLease(lease!, false);
  assert.ok(await takeLease({ id, limit: 4 }, 'unlimited', 20_000));
});

test("cooldown is decided from every proxy's attempts, once, and told to all", async () => {
  const { id } = await provider(null);
  const settings = { cooldownDefaultMs: 5_000, cooldownFailureThreshold: 0.5, cooldownMinRequestVolume: 4 };
  const listener = await listenTo(PROVIDER_COOLDOWN_CHANNEL);
  try {
    // Four attempts spread over two proxies: one success, then failures.
    const [ok, f1, f2, f3] = await Promise.all(['p1', 'p2', 'p1', 'p2'].map((run) => takeLease({ id, limit: null }, run, 20_000)));
    assert.equal(await failLease(f1!, id, settings, false), null, '1 of 4 failed');
    assert.equal(await failLease(f2!, id, settings, false), null, '2 of 4 is not above one half');
    const started = await failLease(f3!, id, settings, false);
    assert.deepEqual(started, { providerId: id, remainingMs: 5_000 }, '3 of 4 starts it');
    await eventually(() => listener.heard.some((h) => h.payload === `${id} 5000`), 5_000, 'the cooldown announced');
    const [running] = await runningCooldowns([id]);
    assert.equal(running?.providerId, id);
    assert.ok(running!.remainingMs > 3_000 && running!.remainingMs <= 5_000);
    // An attempt that was in flight when the cooldown started fails later: it neither extends nor
    // restarts it, and it no longer counts.
    const late = await takeLease({ id, limit: null }, 'p1', 20_000);
    await db.providerLease.update({ where: { id: late! }, data: { takenAt: new Date(Date.now() - 10_000) } });
    assert.equal(await failLease(late!, id, settings, false), null);
    await releaseLease(ok!, false);
    assert.equal(listener.heard.filter((h) => h.payload.startsWith(id)).length, 1);
  } finally {
    await listener.close();
  }
});

test('leases nobody renews expire and are reclaimed; a live run renews its own', async () => {
  const { id } = await provider(2);
  const listener = await listenTo(PROVIDER_FREED_CHANNEL);
  const cluster = await Cluster.join({ name: `alive-${randomUUID()}`, ttlMs: 1_200, recordingStore: blobs(), traceStore: blobs() });
  try {
    const silent = await takeLease({ id, limit: 3 }, `silent-${randomUUID()}`, 1_200);
    const held = await cluster.take({ id, slug: 'p', priority: 100, weight: 100, maxConcurrent: 3, advertisedMaxConcurrent: null });
    // A lease of the live run that it no longer holds (as after a release the database never got):
    // its heartbeat does not keep it.
    const lost = await takeLease({ id, limit: 3 }, cluster.runId, 1_200);
    assert.ok(silent && held && lost);
    const t0 = Date.now();
    await eventually(async () => (await db.providerLease.findUnique({ where: { id: silent } }))?.releasedAt, 10_000, 'the silent lease reclaimed');
    await eventually(async () => (await db.providerLease.findUnique({ where: { id: lost } }))?.releasedAt, 10_000, 'the lost lease reclaimed');
    assert.ok(Date.now() - t0 >= 900, 'not before it expired');
    await eventually(() => listener.heard.some((h) => h.payload === id), 5_000, 'the reclaimed slot announced');
    assert.equal(await active(id), 1);
    // Three lease times later the live run's lease still holds: its heartbeat renews it.
    await eventually(async () => Date.now() - t0 > 3_600 || null, 10_000, 'time passing');
    assert.equal((await db.providerLease.findUnique({ where: { id: held!.leaseId } }))?.releasedAt, null);
    held!.release();
    await eventually(async () => (await active(id)) === 0 || null, 5_000, 'released');
  } finally {
    await cluster.stop();
    await listener.close();
  }
});

test('a proxy run that stops heartbeating is settled by another: sessions errored, slots freed', async () => {
  const { user, id } = await provider(3);
  const deadRun = (
    await seedProxyInstance({ name: `dead-${randomUUID()}`, heartbeatAt: new Date(Date.now() - 60_000), expiresAt: new Date(Date.now() - 40_000) })
  ).id;
  // A live run with a long lease time, silent for longer than the sweeping proxy's own: not dead.
  const slowRun = (
    await seedProxyInstance({ name: `slow-${randomUUID()}`, heartbeatAt: new Date(Date.now() - 10_000), expiresAt: new Date(Date.now() + 60_000) })
  ).id;
  const session = await seedSession(user.workspaceId, user.routerId, {
    providerId: id,
    providerSlug: 'p',
    providerName: 'p',
    state: 'active',
    proxyInstanceId: deadRun,
    startedAt: new Date(Date.now() - 5_000),
  });
  // Its lease has not expired yet: the run's row is what shows it is gone.
  const lease = await takeLease({ id, limit: 3 }, deadRun, 600_000);
  const survivor = await Cluster.join({ name: `survivor-${randomUUID()}`, ttlMs: 1_200, recordingStore: blobs(), traceStore: blobs() });
  try {
    // A settle errors the run's sessions first, frees its slots, and removes the run's row last:
    // wait for the whole of it.
    const settled = await eventually(
      async () => {
        const row = await db.sessionLog.findUnique({ where: { id: session.id } });
        const released = (await db.providerLease.findUnique({ where: { id: lease! } }))?.releasedAt;
        const gone = (await db.proxyInstance.count({ where: { id: deadRun } })) === 0;
        return row?.state === 'errored' && released && gone ? row : null;
      },
      SETTLED_WITHIN_MS,
      "the dead run's session settled, its lease released and its row removed",
    );
    assert.equal(settled.errorReason, PROXY_STOPPED);
    assert.equal(await active(id), 0);
    assert.equal(await db.proxyInstance.count({ where: { id: slowRun } }), 1, 'judged by its own lease time');
    await db.proxyInstance.delete({ where: { id: slowRun } });
  } finally {
    await survivor.stop();
  }
});

test('a dead run stays claimed, not removed, until it is settled: a sweeper stopped part-way loses nothing', async () => {
  const { user, id } = await provider(3);
  // Alive while the test sets up: every proxy's sweeper (the stack's too) would settle a dead run
  // before the lock below is taken.
  const deadRun = (await seedProxyInstance({ name: `held-${randomUUID()}`, heartbeatAt: new Date(), expiresAt: new Date(Date.now() + 600_000) })).id;
  const session = await seedSession(user.workspaceId, user.routerId, {
    providerId: id,
    providerSlug: 'p',
    providerName: 'p',
    state: 'active',
    proxyInstanceId: deadRun,
  });
  const lease = await takeLease({ id, limit: 3 }, deadRun, 600_000);
  // The session's row locked in a transaction of the test's own: whichever proxy sweeps first
  // stops inside the settle, as a sweeper that dies there would leave the run.
  const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('SELECT 1 FROM "SessionLog" WHERE "id" = $1 FOR UPDATE', [session.id]);
  // Now the run dies: silent for a minute, its claim long lapsed.
  await db.proxyInstance.update({ where: { id: deadRun }, data: { heartbeatAt: new Date(Date.now() - 60_000), expiresAt: new Date(Date.now() - 40_000) } });
  const sweeper = await Cluster.join({ name: `sweeper-${randomUUID()}`, ttlMs: 1_200, recordingStore: blobs(), traceStore: blobs() });
  try {
    const claimed = await eventually(
      async () => {
        const row = await db.proxyInstance.findUnique({ where: { id: deadRun } });
        assert.ok(row, 'the row is there until the run is settled');
        return row.expiresAt.getTime() > Date.now() ? row : null;
      },
      SETTLED_WITHIN_MS,
      'a sweep claiming the dead run',
    );
    assert.ok(claimed);
    assert.equal((await db.sessionLog.findUnique({ where: { id: session.id } }))?.state, 'active', 'the settle is held');
    await locker.query('ROLLBACK');
    await eventually(
      async () => {
        const row = await db.sessionLog.findUnique({ where: { id: session.id } });
        const released = (await db.providerLease.findUnique({ where: { id: lease! } }))?.releasedAt;
        const gone = (await db.proxyInstance.count({ where: { id: deadRun } })) === 0;
        return row?.state === 'errored' && released && gone;
      },
      SETTLED_WITHIN_MS,
      'the run settled, its slot freed and its row removed',
    );
  } finally {
    await locker.end();
    await sweeper.stop();
  }
});

test('a restart under the same name settles its previous run at once', async () => {
  const { user, id } = await provider(3);
  const name = `restart-${randomUUID()}`;
  const first = await Cluster.join({ name, ttlMs: 60_000, recordingStore: blobs(), traceStore: blobs() });
  const session = await seedSession(user.workspaceId, user.routerId, {
    providerId: id,
    providerSlug: 'p',
    providerName: 'p',
    state: 'active',
    proxyInstanceId: first.runId,
  });
  const held = await first.take({ id, slug: 'p', priority: 100, weight: 100, maxConcurrent: 3, advertisedMaxConcurrent: null });
  assert.ok(held);
  // The first run is never stopped (a crash); the next one under its name comes up.
  const second = await Cluster.join({ name, ttlMs: 60_000, recordingStore: blobs(), traceStore: blobs() });
  try {
    assert.notEqual(second.runId, first.runId);
    const row = await db.sessionLog.findUnique({ where: { id: session.id } });
    assert.equal(row?.state, 'errored');
    assert.equal(await active(id), 0);
    assert.equal(await reclaimLeases(first.runId).then((freed) => freed.length), 0, 'nothing left to free');
  } finally {
    await second.stop();
    clearTimeout((first as unknown as { timer: NodeJS.Timeout }).timer);
  }
});
