// Helper pages: tabs the plugin opens in the browser's default context to reach an origin's
// storage. Each tab answers every request it makes itself (CDP Fetch: a blank `<html></html>`),
// so putting a page on https://shop.example/ costs no network traffic and the real site never
// sees it; JavaScript in that document then reads or writes the origin's localStorage and
// IndexedDB. A few tabs work through the origins in parallel.
import { CdpError, within } from '../../../lib/cdp/errors';
import type { Cdp } from './cdp';

const BLANK = Buffer.from('<!doctype html><html><head></head><body></body></html>').toString('base64');

export interface HelperOptions {
  /** Tabs working at once (fewer when there are fewer origins). */
  parallel: number;
  /**
   * The run's end (a performance.now() instant): an origin still under way then is given up. There
   * is no deadline per origin: on a loaded machine a tab's first page (a new renderer) may take
   * seconds, and an origin that is progressing is not abandoned while the run has time.
   */
  endAt: number;
  /** No origin is started after this instant (the rest are reported "out of time"); default endAt. */
  startBy?: number;
  /** Every tab's targetId and sessionId as soon as they are known (the plugin hides them from the client). */
  onHelper?: (ids: { targetId?: string; sessionId?: string }) => void;
}

export interface HelperRun<T> {
  results: Map<string, T>;
  /** Origins that failed or ran out of time, with why. */
  failed: Map<string, string>;
  /** Target ids of the tabs, closed already (the caller may wait for their destruction). */
  targets: string[];
}

/** Runs `script(origin)` (an expression) in a blank document of every origin; its value is the result. */
export async function runOnOrigins<T>(cdp: Cdp, origins: readonly string[], script: (origin: string) => string, options: HelperOptions): Promise<HelperRun<T>> {
  const queue = [...origins];
  const startBy = Math.min(options.startBy ?? options.endAt, options.endAt);
  const results = new Map<string, T>();
  const failed = new Map<string, string>();
  const targets: string[] = [];
  const tabs = Math.min(options.parallel, queue.length);
  await Promise.all(
    Array.from({ length: tabs }, async () => {
      let tab: Tab;
      try {
        tab = await openTab(cdp, options);
      } catch (error) {
        // No tab: leave the origins to the other tabs (if every tab fails, they end up failed below).
        failed.set(`tab:${targets.length}`, (error as Error).message);
        return;
      }
      targets.push(tab.targetId);
      try {
        for (let origin = queue.shift(); origin !== undefined; origin = queue.shift()) {
          const now = performance.now();
          if (now >= startBy) {
            failed.set(origin, 'out of time');
            continue;
          }
          try {
            results.set(origin, await within(tab.run<T>(origin, script(origin), options.endAt), options.endAt - now, `origin ${origin}`));
          } catch (error) {
            failed.set(origin, (error as Error).message);
            if (tab.broken) break;
          }
        }
      } finally {
        tab.close();
      }
    }),
  );
  for (const key of [...failed.keys()]) if (key.startsWith('tab:')) failed.delete(key);
  for (const origin of queue) failed.set(origin, 'no helper tab could be opened');
  return { results, failed, targets };
}

interface Tab {
  targetId: string;
  broken: boolean;
  /** The expression's value in a blank document of `origin`; tries until `endAt` while the document is not there yet. */
  run<T>(origin: string, expression: string, endAt: number): Promise<T>;
  close(): void;
}

async function openTab(cdp: Cdp, options: HelperOptions): Promise<Tab> {
  // In the background: a helper tab must not become the browser's foreground tab, which would
  // defer the loading of the tab the browser started with (and so change what a client finds).
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank', background: true });
  options.onHelper?.({ targetId });
  let sessionId: string | undefined;
  const off = answerWithBlank(cdp, () => sessionId);
  const close = () => {
    off();
    cdp.send('Target.closeTarget', { targetId }).catch(() => {});
  };
  try {
    ({ sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true }));
    options.onHelper?.({ sessionId });
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }, sessionId);
    // A client's auto-attach with waitForDebuggerOnStart may hold a new tab paused until resumed.
    await cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
  } catch (error) {
    close();
    throw error;
  }
  const tab: Tab = {
    targetId,
    broken: false,
    async run<T>(origin: string, expression: string, endAt: number): Promise<T> {
      try {
        return await evaluateOnOrigin<T>(cdp, sessionId, origin, expression, endAt);
      } catch (error) {
        // A page's own failure (an answer, or its time up) leaves the tab usable for the next origin.
        if (!(error instanceof CdpError) || error.kind === 'closed') tab.broken = true;
        throw error;
      }
    },
    close,
  };
  return tab;
}

/** Answers every request the tab's session makes (once it is known) with the blank page; returns the unsubscribe. */
function answerWithBlank(cdp: Cdp, session: () => string | undefined): () => void {
  return cdp.onEvent((event) => {
    const sessionId = session();
    if (event.method !== 'Fetch.requestPaused' || event.sessionId !== sessionId || !sessionId) return;
    const requestId = String(event.params.requestId);
    cdp
      .send(
        'Fetch.fulfillRequest',
        {
          requestId,
          responseCode: 200,
          responseHeaders: [
            { name: 'Content-Type', value: 'text/html; charset=utf-8' },
            { name: 'Cache-Control', value: 'no-store' },
          ],
          body: BLANK,
        },
        sessionId,
      )
      .catch(() => {});
  });
}

/** Puts the tab on a blank page of `origin` and evaluates the expression there; tries until `endAt` while the document is not there yet. */
async function evaluateOnOrigin<T>(cdp: Cdp, sessionId: string | undefined, origin: string, expression: string, endAt: number): Promise<T> {
  const nav = await cdp.send('Page.navigate', { url: `${origin}/` }, sessionId);
  if (nav.errorText)
    throw new CdpError('answered', `could not open a blank page on ${origin}: ${nav.errorText}`, { method: 'Page.navigate', detail: nav.errorText });
  // The navigation has committed; the script checks that it runs on the origin's document.
  const guarded = `(async () => { if (location.origin !== ${JSON.stringify(origin)}) throw new Error('not on ' + ${JSON.stringify(origin)} + ' yet'); return await (${expression}); })()`;
  for (;;) {
    const answer = await cdp.send('Runtime.evaluate', { expression: guarded, awaitPromise: true, returnByValue: true }, sessionId);
    if (!answer.exceptionDetails) return answer.result.value as T;
    const message = answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? 'script failed';
    // "not on <origin> yet": the committed document is not the one evaluated in; asked again.
    if (!message.includes('yet') || performance.now() >= endAt)
      throw new CdpError('answered', message.split('\n')[0]!, { method: 'Runtime.evaluate', detail: message });
    await new Promise((r) => setTimeout(r, 10));
  }
}
