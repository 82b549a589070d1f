// A pool browser in its slot: slot n runs as uid uidBase + n (sandbox.ts), its profile directory
// handed to that uid, the browser confined and behind the egress proxy, and its DevTools port
// refused to every page while it runs. The pool (pool.ts) hands out the slots.
import { mkdir } from 'node:fs/promises';
import type { EgressPolicy } from '../../lib/net/egress-policy';
import { launchChromium, type Browser } from './browser';
import type { PoolConfig } from './config';
import type { EgressProxy } from './egress-proxy';
import { chownTree, type Isolation } from './sandbox';

/** What a slot's browser is launched with: the pool's settings, isolation, egress proxy and policy. */
export interface SlotLaunchContext {
  config: PoolConfig;
  isolation: Isolation;
  egress: EgressProxy;
  policy: EgressPolicy;
}

/**
 * Launches a browser for `userDataDir` in `slot`: the directory is handed to the slot's uid, the
 * browser starts confined and behind the egress proxy, and its DevTools port is refused to every
 * page (no page reaches another browser's DevTools) until it has stopped.
 */
export async function launchInSlot(context: SlotLaunchContext, userDataDir: string, slot: number, signal?: AbortSignal): Promise<Browser> {
  const { config, isolation, policy } = context;
  const uid = isolation.uidBase !== undefined ? isolation.uidBase + slot : undefined;
  await mkdir(userDataDir, { recursive: true, mode: 0o700 });
  if (uid !== undefined) await chownTree(userDataDir, uid);
  const browser = await launchChromium({
    executable: config.chromiumPath,
    userDataDir,
    timeoutMs: config.launchTimeoutMs,
    signal,
    isolation,
    uid,
    proxyUrl: context.egress.url,
  });
  const port = browser.devtoolsPort;
  const added = !policy.internalPorts.has(port);
  if (added) policy.internalPorts.add(port);
  let stopped: Promise<void> | undefined;
  return {
    ...browser,
    stop: (graceMs) =>
      (stopped ??= browser.stop(graceMs).finally(() => {
        if (added) policy.internalPorts.delete(port);
      })),
  };
}
