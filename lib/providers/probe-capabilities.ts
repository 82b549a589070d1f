// The capability probe: real CDP commands on an open browser connection, each step with its own
// deadline inside one overall budget. A step that fails is recorded, never fatal; whatever the
// probe opened (a page target) is closed again.
import type { CdpSocket } from '../cdp/socket';
import { checkFailure, type ProviderCdp } from './cdp-client';

/**
 * `supported`: the step worked. `unsupported`: the provider answered with an error or nothing in
 * time. `unknown`: not tried, because a step it needs failed or the probe ran out of time.
 */
export type CapabilityValue = 'supported' | 'unsupported' | 'unknown';

export interface Capabilities {
  providerKind: 'managed' | 'generic';
  browserCookies: CapabilityValue;
  targetCreate: CapabilityValue;
  targetGetTargets: CapabilityValue;
  fetchInterception: CapabilityValue;
  pageScreencast: CapabilityValue;
  targetCreateLatencyMs: number | null;
  advertisedMaxConcurrent: number | null;
  probedAt: string | null;
  probeDurationMs: number | null;
  errors: string[];
}

export const STEP_TIMEOUT_MS = 5_000;
export const PROBE_BUDGET_MS = 20_000;
const SCREENCAST_FRAME_WAIT_MS = 1_000;
const CLEANUP_TIMEOUT_MS = 2_000;

/** Key-based providers are never probed: probing would start a paid vendor browser. */
export function unprobedCapabilities(): Capabilities {
  return {
    providerKind: 'generic',
    browserCookies: 'unknown',
    targetCreate: 'unknown',
    targetGetTargets: 'unknown',
    fetchInterception: 'unknown',
    pageScreencast: 'unknown',
    targetCreateLatencyMs: null,
    advertisedMaxConcurrent: null,
    probedAt: null,
    probeDurationMs: null,
    errors: [],
  };
}

type Step = <T>(name: string, run: (timeoutMs: number) => Promise<T>) => Promise<T | null>;
const verdict = (ok: boolean | null): CapabilityValue => (ok ? 'supported' : 'unsupported');

/** Steps that share one deadline: each gets min(step timeout, time left); a failure is recorded and gives null. */
function stepsWithin(budgetMs: number, errors: string[], host: string): Step {
  const deadline = Date.now() + budgetMs;
  return async (name, run) => {
    const left = deadline - Date.now();
    if (left <= 0) {
      errors.push(`${name}: not tried, the probe ran out of time`);
      return null;
    }
    try {
      return await run(Math.min(STEP_TIMEOUT_MS, left));
    } catch (error) {
      errors.push(`${name}: ${checkFailure(error, host).message}`);
      return null;
    }
  };
}

export async function probeCapabilities({ socket: connection, host }: ProviderCdp, budgetMs = PROBE_BUDGET_MS) {
  const errors: string[] = [];
  const step = stepsWithin(budgetMs, errors, host);
  const targets = await step('targetGetTargets', async (timeoutMs) => {
    const result = await connection.send('Target.getTargets', {}, undefined, timeoutMs);
    if (!Array.isArray(result.targetInfos)) throw new Error('no targetInfos in the answer');
    return true;
  });
  const cookies = await step('browserCookies', async (timeoutMs) => {
    const result = await connection.send('Storage.getCookies', {}, undefined, timeoutMs);
    if (!Array.isArray(result.cookies)) throw new Error('no cookies array in the answer');
    return true;
  });
  const page = await probePage(connection, step, errors, host);
  return { browserCookies: verdict(cookies), targetGetTargets: verdict(targets), ...page, errors };
}

/** On a page of its own (closed again, even when the budget is spent): creating it, Fetch interception, screencast. */
async function probePage(connection: CdpSocket, step: Step, errors: string[], host: string) {
  const created = await step('targetCreate', async (timeoutMs) => {
    const started = Date.now();
    const result = await connection.send('Target.createTarget', { url: 'about:blank' }, undefined, timeoutMs);
    if (typeof result.targetId !== 'string') throw new Error('no targetId in the answer');
    return { targetId: result.targetId, latencyMs: Date.now() - started };
  });
  const page = {
    targetCreate: verdict(created !== null),
    targetCreateLatencyMs: created?.latencyMs ?? null,
    fetchInterception: 'unknown' as CapabilityValue,
    pageScreencast: 'unknown' as CapabilityValue,
  };
  if (!created) return page;
  const { targetId } = created;
  const sessionId = await step('attachToTarget', async (timeoutMs) => {
    const result = await connection.send('Target.attachToTarget', { targetId, flatten: true }, undefined, timeoutMs);
    if (typeof result.sessionId !== 'string') throw new Error('no sessionId in the answer');
    return result.sessionId;
  });
  if (sessionId) {
    page.fetchInterception = verdict(
      await step('fetchInterception', async (timeoutMs) => {
        await connection.send('Fetch.enable', {}, sessionId, timeoutMs);
        await connection.send('Fetch.disable', {}, sessionId, timeoutMs);
        return true;
      }),
    );
    page.pageScreencast = verdict(
      await step('pageScreencast', async (timeoutMs) => {
        const frame = connection.waitForEvent('Page.screencastFrame', { sessionId, timeoutMs: Math.min(SCREENCAST_FRAME_WAIT_MS, timeoutMs) });
        await connection.send('Page.startScreencast', { format: 'jpeg', quality: 10, maxWidth: 320, maxHeight: 240, everyNthFrame: 1 }, sessionId, timeoutMs);
        // A frame proves it; an accepted start is enough (a blank page may not paint in time).
        const params = await frame;
        if (params && typeof params.sessionId === 'number') {
          await connection.send('Page.screencastFrameAck', { sessionId: params.sessionId }, sessionId, timeoutMs).catch(() => {});
        }
        await connection.send('Page.stopScreencast', {}, sessionId, timeoutMs).catch(() => {});
        return true;
      }),
    );
  }
  await closeOpened(connection, targetId).catch((error: unknown) => errors.push(`cleanup: ${checkFailure(error, host).message}`));
  return page;
}

/**
 * Closes the page the probe opened and waits until it is gone: closeTarget answers before the tab
 * leaves the browser's list, and a user listing their pages right after must not see it.
 */
async function closeOpened(connection: CdpSocket, targetId: string): Promise<void> {
  const timeoutMs = CLEANUP_TIMEOUT_MS;
  const discovering = await connection.send('Target.setDiscoverTargets', { discover: true }, undefined, timeoutMs).then(
    () => true,
    () => false,
  );
  const gone = discovering ? connection.waitForEvent('Target.targetDestroyed', { timeoutMs, match: (event) => event.targetId === targetId }) : null;
  await connection.send('Target.closeTarget', { targetId }, undefined, timeoutMs);
  await gone;
}
