// The capabilities of the local browser pool, probed as any provider is on add (a real browser,
// real CDP commands: lib/providers/probe-capabilities.ts), once per install rather than once per
// router. A router's local-pool provider is added inside the sign-up's transaction, which cannot
// wait for a browser to start: it takes the latest probe, and when there is none yet it is written
// unprobed and filled in by the next probe, which the web process keeps running (every 10 minutes,
// every 10 s until the pool first answers) and which `npm run seed` awaits before it exits.
import { db } from '../db';
import { log } from '../log';
import { testAndProbe } from './check-provider';
import { localPoolAddress, LOCAL_POOL_SLUG } from './local-pool-address';
import type { Capabilities } from './probe-capabilities';

const FRESH_MS = 10 * 60_000;
const RETRY_MS = 10_000;
const PROBE_TIMEOUT_MS = 15_000;

// Shared by the module graphs of one process (the web server's and Next's bundle of lib/).
const state = ((
  globalThis as { __localPoolProbe?: { latest: { capabilities: Capabilities; at: number } | null; running: Promise<Capabilities | null> | null } }
).__localPoolProbe ??= { latest: null, running: null });

/** The latest probe while it is fresh (null when there is none, or the install has no local pool). */
export function latestLocalPoolProbe(): Capabilities | null {
  return state.latest && Date.now() - state.latest.at < FRESH_MS ? state.latest.capabilities : null;
}

/** Probes the local pool now (one probe at a time) and fills in the local-pool providers written without one. */
export function probeLocalPool(): Promise<Capabilities | null> {
  const address = localPoolAddress();
  if (!address) return Promise.resolve(null);
  state.running ??= testAndProbe(address, PROBE_TIMEOUT_MS)
    .then(async ({ capabilities }) => {
      state.latest = { capabilities, at: Date.now() };
      await fillUnprobed(capabilities);
      return capabilities;
    })
    .catch((error: Error) => {
      log.info({ err: error.message }, 'the local pool could not be probed yet');
      return null;
    })
    .finally(() => {
      state.running = null;
    });
  return state.running;
}

/** Local-pool providers written before any probe had answered get this one's capabilities. */
async function fillUnprobed(capabilities: Capabilities): Promise<void> {
  const rows = await db.$queryRaw<{ id: string; capabilities: { advertisedMaxConcurrent?: number | null } }[]>`
    SELECT "id", "capabilities" FROM "Provider"
    WHERE "slug" = ${LOCAL_POOL_SLUG} AND "capabilities"->>'providerKind' = 'managed' AND "capabilities"->>'probedAt' IS NULL`;
  for (const row of rows) {
    // The capacity the row was written with (the pool's status then) stays unless the probe knows one.
    const advertisedMaxConcurrent = capabilities.advertisedMaxConcurrent ?? row.capabilities.advertisedMaxConcurrent ?? null;
    await db.provider.update({ where: { id: row.id }, data: { capabilities: { ...capabilities, advertisedMaxConcurrent } as object } });
  }
}

/** The web process's loop: probe at start (again every 10 s until the pool answers), then every 10 minutes. */
export function keepLocalPoolProbed(): () => void {
  if (!localPoolAddress()) return () => {};
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = async () => {
    const probed = await probeLocalPool();
    if (!stopped) timer = setTimeout(() => void run(), probed ? FRESH_MS : RETRY_MS).unref();
  };
  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
