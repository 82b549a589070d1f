// What the browser tells an agent session (session.ts), wired to it: the tabs in its scope and
// their popups, each tab's navigations, loads and requests, and what the page did for `observe`
// (dialogs, failed requests, console output, exceptions, downloads).
import type { CdpSocket } from '../../lib/cdp/socket';
import type { PageSessions } from '../../lib/cdp/page-sessions';
import type { Observations } from './observations';
import type { Tab } from './tab';

/** The parts of a session its browser's events update. */
export interface SessionParts {
  /** The tabs it is attached to, each on a session of its own. */
  tabs: PageSessions<Tab>;
  /** The tabs it may see: the ones it opened and the popups they opened. */
  scope: Set<string>;
  observations: Observations;
  /** Called when one of its tabs closed or was detached (undefined: not one of its tabs). */
  tabClosed: (tab: Tab | undefined) => void;
}

/** Subscribes a session's parts to its browser's events; called before it asks for them (Target.setDiscoverTargets). */
export function followBrowser(cdp: CdpSocket, { tabs, scope, observations, tabClosed }: SessionParts): void {
  cdp.on('Target.targetCreated', ({ targetInfo }) => {
    if (targetInfo.type !== 'page' || !targetInfo.openerId || !scope.has(targetInfo.openerId)) return;
    scope.add(targetInfo.targetId);
    observations.popup(targetInfo.url, targetInfo.targetId);
  });
  cdp.on('Target.targetInfoChanged', ({ targetInfo }) => {
    const tab = tabs.get(targetInfo.targetId);
    if (tab) {
      tab.url = targetInfo.url;
      tab.title = targetInfo.title;
    }
  });
  cdp.on('Target.targetDestroyed', ({ targetId }) => {
    tabClosed(tabs.destroyed(targetId)?.state);
    scope.delete(targetId);
  });
  cdp.on('Target.detachedFromTarget', ({ sessionId }) => tabClosed(tabs.detached(sessionId)?.state));
  const tabOf = (sessionId: string | undefined) => tabs.ofPageSession(sessionId)?.state;
  cdp.on('Page.frameNavigated', ({ frame }, sid) => tabOf(sid)?.onFrameNavigated(frame));
  cdp.on('Page.frameStartedLoading', ({ frameId }, sid) => tabOf(sid)?.onLoading(frameId, true));
  // A click on a link or a submit button asks for the navigation before any loading starts.
  cdp.on('Page.frameRequestedNavigation', ({ frameId, url }, sid) => !/^javascript:/i.test(url) && tabOf(sid)?.onLoading(frameId, true));
  cdp.on('Page.frameStoppedLoading', ({ frameId }, sid) => tabOf(sid)?.onLoading(frameId, false));
  cdp.on('Page.loadEventFired', (_p, sid) => tabOf(sid)?.onLoad());
  cdp.on('Page.javascriptDialogOpening', ({ type, message }, sid) => {
    const tab = tabOf(sid);
    if (!tab) return;
    // Dialogs would block the page (and every tool) until answered: dismiss them, and say so.
    observations.dialog(type, message, tab.url);
    void tab.send('Page.handleJavaScriptDialog', { accept: type === 'alert' || type === 'beforeunload' }).catch(() => {});
  });
  cdp.on('Network.requestWillBeSent', ({ requestId, request, type }, sid) => tabOf(sid)?.onRequest(requestId, request.url, type));
  cdp.on('Network.loadingFinished', ({ requestId }, sid) => tabOf(sid)?.onRequestDone(requestId));
  cdp.on('Network.responseReceived', ({ response, type }, sid) => {
    const tab = tabOf(sid);
    if (tab && response.status >= 400)
      observations.failedRequest(response.url, `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, type);
  });
  cdp.on('Network.loadingFailed', ({ requestId, errorText, canceled, type }, sid) => {
    const tab = tabOf(sid);
    if (!tab) return;
    const url = tab.onRequestDone(requestId);
    if (!canceled && url) observations.failedRequest(url, errorText, type);
  });
  cdp.on('Runtime.consoleAPICalled', ({ type, args }, sid) => {
    if (tabOf(sid))
      observations.console(
        type,
        (args as { value?: unknown; description?: string }[]).map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? ''))).join(' '),
      );
  });
  cdp.on('Runtime.exceptionThrown', ({ exceptionDetails }, sid) => {
    if (tabOf(sid)) observations.console('exception', exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text);
  });
  cdp.on('Browser.downloadWillBegin', ({ url, suggestedFilename }) => observations.download(url, suggestedFilename));
}
