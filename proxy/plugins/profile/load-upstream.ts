// Loading a profile's state into a freshly dialled browser, before the client's `101`: over the
// upstream socket itself, within a time limit, and only done when the helper tabs it opened are
// really gone (target discovery shows it), so the client finds none of them. The hosted proxy
// (index.ts) and the self-hosted gateway (proxy/gateway/profiles.ts) both load this way.
import type { Upstream } from '../../websocket/dial';
import { loadIntoBrowser, type LoadInput, type LoadReport } from './browser-state';
import { within } from '../../../lib/cdp/errors';
import { UpstreamCdp } from './cdp';

const LOAD_LIMIT_MS = 20_000;

/** Returns the bytes the relay lane starts with, and what was loaded. */
export async function loadThroughUpstream(upstream: Upstream, input: Omit<LoadInput, 'onHelper'>): Promise<{ head: Buffer; report: LoadReport }> {
  const cdp = new UpstreamCdp(upstream.socket, upstream.head);
  const helpers = new Set<string>();
  try {
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    const destroyed = new Set<string>();
    cdp.onEvent((event) => {
      if (event.method === 'Target.targetDestroyed') destroyed.add(String(event.params.targetId));
    });
    const report = await within(
      loadIntoBrowser(cdp, { ...input, onHelper: ({ targetId }) => targetId && helpers.add(targetId) }),
      LOAD_LIMIT_MS,
      'loading the profile',
    );
    await within(
      waitFor(() => [...helpers].every((id) => destroyed.has(id)), cdp),
      5_000,
      'closing the helper tabs',
    );
    await cdp.send('Target.setDiscoverTargets', { discover: false });
    return { head: cdp.release(), report };
  } catch (error) {
    cdp.release();
    throw error;
  }
}

/** Resolves once `done()` holds, checked after every event. */
function waitFor(done: () => boolean, cdp: UpstreamCdp): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = cdp.onEvent(() => {
      if (!done()) return;
      off();
      resolve();
    });
  });
}
