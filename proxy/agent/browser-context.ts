// Where an agent session's tabs live: a browser context of its own, so that on a long-lived browser
// (an address provider, a browser of the user's own) it shares no cookies or storage with the
// browser's other users, and ending it closes every tab and popup it holds at once. Two cases keep
// the browser's default context, where the session's own-tabs rule (`scope` in session.ts) is the
// whole of its isolation: a session with a saved profile, and a browser that refuses contexts.
import { CdpError } from '../../lib/cdp/errors';
import type { CdpSocket } from '../../lib/cdp/socket';
import type { AgentEndpoint, ResolvedOptions } from './types';

/** A browser that takes longer than this to make a context is treated as one that refuses them. */
const CREATE_TIMEOUT_MS = 10_000;
const DISPOSE_TIMEOUT_MS = 5_000;

/**
 * Creates the session's context and refuses downloads in it; the context's id, or null for the
 * default context.
 */
export async function openOwnContext(cdp: CdpSocket, endpoint: AgentEndpoint, options: ResolvedOptions): Promise<string | null> {
  const browserContextId = await createContext(cdp, options);
  // Downloads would write to the provider's disk: refuse them, but hear of them (browsers of the
  // user's own keep their settings). The setting is per context: the default's does not reach ours.
  if (endpoint.kind === 'connect')
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'deny', eventsEnabled: true, browserContextId: browserContextId ?? undefined }).catch(() => {});
  return browserContextId;
}

async function createContext(cdp: CdpSocket, options: ResolvedOptions): Promise<string | null> {
  // The profile plugin (proxy/plugins/profile/) restores the profile's cookies and storage into the
  // default context when the browser opens, and saves them from there at the end: a context of
  // our own would start empty and save nothing.
  if (options.profile) return null;
  try {
    // disposeOnDetach: a connection that drops without closing the session (a killed CLI) still
    // takes the context, and every tab in it, with it.
    const { browserContextId } = await cdp.send('Target.createBrowserContext', { disposeOnDetach: true }, undefined, CREATE_TIMEOUT_MS);
    return browserContextId;
  } catch (error) {
    // Some providers allow no context but their own; the session then works in tabs of its own.
    if (error instanceof CdpError && (error.kind === 'answered' || error.kind === 'timeout')) return null;
    throw error;
  }
}

/**
 * Closes what the session opened: its context (the browser closes every tab and popup in it), or,
 * in the default context or when the browser will not dispose it, the tabs in `scope` one by one.
 */
export async function closeOwnTargets(cdp: CdpSocket, browserContextId: string | null, scope: Iterable<string>): Promise<void> {
  if (browserContextId) {
    const disposed = await cdp.send('Target.disposeBrowserContext', { browserContextId }, undefined, DISPOSE_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (disposed) return;
  }
  await Promise.all([...scope].map((targetId) => cdp.send('Target.closeTarget', { targetId }, undefined, DISPOSE_TIMEOUT_MS).catch(() => {})));
}
