// Talking to an address-based provider: the test (open the WebSocket with the provider's headers
// and get one CDP answer), the capability probe on the same connection, and the managed-pool
// check, which runs beside them. Everything is bounded by the router's connectionTimeoutMs (until
// the provider's 101) plus the probe's own budget.
import { ApiError } from '../api/errors';
import { resolveBrowserUrl, type ProviderHeaders } from './address';
import { checkFailure, connectCdp, type ProviderCdp } from './cdp-client';
import { ProviderCheckError } from './check-errors';
import { fetchPoolStatus, type PoolStatus } from './detect-managed';
import { assertProviderAddressAllowed, outboundAddress, type OutboundAddress } from './egress';
import { probeCapabilities, STEP_TIMEOUT_MS, type Capabilities } from './probe-capabilities';

export interface ProviderAddress {
  url: string;
  headers: ProviderHeaders;
}

export type TestOutcome = { ok: true; latencyMs: number } | { ok: false; reason: string };

const POOL_STATUS_TIMEOUT_MS = 3_000;
export const CALIBRATING_RETRY_AFTER_S = 5;

interface Greeted {
  connection: ProviderCdp;
  resolvedUrl: string;
  latencyMs: number;
}

/** Resolves an http(s) base, opens the WebSocket and asks Browser.getVersion; latency covers all of it. */
async function openAndGreet(address: OutboundAddress, handshakeTimeoutMs: number): Promise<Greeted> {
  const started = Date.now();
  const { policy } = address;
  const resolvedUrl = await resolveBrowserUrl(address.url, address.headers, handshakeTimeoutMs, policy);
  const left = Math.max(1, handshakeTimeoutMs - (Date.now() - started));
  // The budget is what is left of the router's timeout; the reason names the timeout itself.
  const connection = await connectCdp(resolvedUrl, address.headers, left, handshakeTimeoutMs, policy);
  try {
    const version = await connection.socket.send('Browser.getVersion', {}, undefined, STEP_TIMEOUT_MS).catch((error: unknown) => {
      throw checkFailure(error, connection.host);
    });
    if (typeof version.product !== 'string')
      throw new ProviderCheckError('the provider answered Browser.getVersion without a product: is this a CDP endpoint?');
  } catch (error) {
    connection.socket.close();
    throw error;
  }
  return { connection, resolvedUrl, latencyMs: Date.now() - started };
}

function refuseWhileCalibrating(pool: PoolStatus | null): void {
  if (pool?.calibrating) {
    throw new ApiError('provider_calibrating', 'the managed provider is still starting (calibrating); retry shortly', {
      'Retry-After': String(CALIBRATING_RETRY_AFTER_S),
    });
  }
}

/** Refuses what the egress policy refuses (400), and adds the pool's token when the address is the pool. */
async function guarded(address: ProviderAddress): Promise<OutboundAddress> {
  await assertProviderAddressAllowed(address.url);
  return outboundAddress(address);
}

const reasonOf = (error: unknown): string =>
  error instanceof ProviderCheckError ? error.message : `unexpected failure: ${(error as Error)?.message ?? String(error)}`;

/** POST …/test and …/test-url: a managed pool that is calibrating answers 503 instead. */
export async function testAddress(given: ProviderAddress, handshakeTimeoutMs: number): Promise<TestOutcome> {
  const address = await guarded(given);
  const [pool, greeted] = await Promise.all([
    fetchPoolStatus(address.url, address.headers, Math.min(POOL_STATUS_TIMEOUT_MS, handshakeTimeoutMs), address.policy),
    openAndGreet(address, handshakeTimeoutMs).catch((error: unknown) => ({ failed: reasonOf(error) })),
  ]);
  if ('connection' in greeted) greeted.connection.socket.close();
  refuseWhileCalibrating(pool);
  return 'connection' in greeted ? { ok: true, latencyMs: greeted.latencyMs } : { ok: false, reason: greeted.failed };
}

/**
 * The self-hosted gateway's `check`: the operator's own providers, from the operator's own file, so
 * no tenant egress policy applies (private and loopback addresses are the usual case there).
 */
export async function testOperatorAddress(address: ProviderAddress, handshakeTimeoutMs: number): Promise<TestOutcome> {
  const outbound: OutboundAddress = { url: address.url, headers: address.headers, policy: { privateNetwork: 'allow', internalPorts: new Set() } };
  try {
    const greeted = await openAndGreet(outbound, handshakeTimeoutMs);
    greeted.connection.socket.close();
    return { ok: true, latencyMs: greeted.latencyMs };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}

export interface ProbedAddress {
  /** The ws(s) address to store: an http(s) base is replaced by its browser's WebSocket address. */
  resolvedUrl: string;
  latencyMs: number;
  capabilities: Capabilities;
}

/** On add, reprobe and a new url: test, then probe. A failed test throws 502 provider_unreachable. */
export async function testAndProbe(given: ProviderAddress, handshakeTimeoutMs: number): Promise<ProbedAddress> {
  const address = await guarded(given);
  const started = Date.now();
  const [pool, greeted] = await Promise.all([
    fetchPoolStatus(address.url, address.headers, Math.min(POOL_STATUS_TIMEOUT_MS, handshakeTimeoutMs), address.policy),
    openAndGreet(address, handshakeTimeoutMs).catch((error: unknown) => ({ failed: reasonOf(error) })),
  ]);
  if (!('connection' in greeted)) {
    refuseWhileCalibrating(pool);
    throw new ApiError('provider_unreachable', `the provider failed its test: ${greeted.failed}`);
  }
  try {
    refuseWhileCalibrating(pool);
    const probed = await probeCapabilities(greeted.connection);
    return {
      resolvedUrl: greeted.resolvedUrl,
      latencyMs: greeted.latencyMs,
      capabilities: {
        providerKind: pool ? 'managed' : 'generic',
        browserCookies: probed.browserCookies,
        targetCreate: probed.targetCreate,
        targetGetTargets: probed.targetGetTargets,
        fetchInterception: probed.fetchInterception,
        pageScreencast: probed.pageScreencast,
        targetCreateLatencyMs: probed.targetCreateLatencyMs,
        advertisedMaxConcurrent: pool ? pool.capacity : null,
        probedAt: new Date(started).toISOString(),
        probeDurationMs: Date.now() - started,
        errors: probed.errors,
      },
    };
  } finally {
    greeted.connection.socket.close();
  }
}

export interface DetectedKind {
  detectedKind: 'managed' | 'generic' | null;
  advertisedMaxConcurrent: number | null;
}

/** POST /v1/providers/probe: a pool status makes it managed; a CDP answer generic; neither null. */
export async function detectKind(given: ProviderAddress, handshakeTimeoutMs: number): Promise<DetectedKind> {
  const address = await guarded(given);
  const [pool, greeted] = await Promise.all([
    fetchPoolStatus(address.url, address.headers, Math.min(POOL_STATUS_TIMEOUT_MS, handshakeTimeoutMs), address.policy),
    openAndGreet(address, handshakeTimeoutMs).catch(() => null),
  ]);
  greeted?.connection.socket.close();
  if (pool) return { detectedKind: 'managed', advertisedMaxConcurrent: pool.capacity };
  return { detectedKind: greeted ? 'generic' : null, advertisedMaxConcurrent: null };
}
