// POST /v1/screenshot, /v1/content, /v1/scrape — one browser action per call (docs/connect.md, Data API).
// The one wrapper around the three: authenticate (plain-text 401/429 like the connect path), read
// and validate the body, route through the router's engine (queue, cooldown, failover before the
// browser action, pinning), run the action in a fresh context while holding the engine lease, and
// map every failure to `{ success: false, error }`. Only a 200 counts toward monthly usage; an
// error answered after the key was accepted is counted as a failed call of the router (the
// overview shows both); a data-API call writes no session row and sends no webhook.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { settings } from '../../lib/config/settings';
import { log } from '../../lib/log';
import { egressPolicy, egressRefusal } from '../../lib/net/egress-policy';
import type { RouterKeyAuth } from '../auth/authenticate';
import type { RouterRuntime, RouterStore, RuntimeProvider } from '../config/router-store';
import { isEngineError, type Lease } from '../engine';
import type { Cluster } from '../cluster/cluster';
import { walkProviders, type Walked } from '../routing/attempts';
import { DATA_API_REFUSALS } from '../routing/refusals';
import { countCall, countFailedCall, type CallScope } from '../../lib/sessions/count-calls';
import { readBody } from '../http/body';
import { text } from '../http/respond';
import { contentAction, scrapeAction, screenshotAction, type ActionInput, type Reply } from './actions';
import { ConnectError, type BrowserConnections, type OpenedContext } from './browser-connections';
import { DataApiError, invalidRequest } from './errors';
import { DATA_API_ROUTES, type DataApiPath } from '../../lib/data-api/routes';
import type { PageRequest } from '../../lib/data-api/schemas';
import { browserMessage, contextOptions, visit } from './visit';

export interface DataApiDeps {
  routers: RouterStore;
  /** The router-key check shared with the connect endpoint and /v1/status. */
  keys: RouterKeyAuth;
  connections: BrowserConnections;
  /** Provider slots shared with the other proxies (as on the connect path). */
  cluster?: Cluster;
}

interface Endpoint<R extends PageRequest> {
  /** docs/connect.md: the response body cap of the endpoint. */
  capBytes: number;
  schema: z.ZodType<R>;
  action(input: ActionInput<R>): Promise<Reply>;
}

const MB = 1024 * 1024;
/** Request bodies are small JSON documents; anything bigger is refused before parsing. */
export const REQUEST_BODY_CAP = 1 * MB;
/** A provider that does not confirm a context close within this is not waited for further. */
const CONTEXT_CLOSE_WAIT_MS = 5_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each endpoint has its own request type
const actions: Record<DataApiPath, Endpoint<any>['action']> = {
  '/v1/screenshot': screenshotAction,
  '/v1/content': contentAction,
  '/v1/scrape': scrapeAction,
};

/** The endpoints of the route table (lib/data-api/routes.ts), each with its action: the dispatcher serves these and no others. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each endpoint has its own request type
export const endpoints: Record<string, Endpoint<any>> = Object.fromEntries(
  Object.entries(DATA_API_ROUTES).map(([path, route]) => [path, { ...route, action: actions[path as DataApiPath] }]),
);

class BudgetExceeded extends DataApiError {}

export async function handleDataApi(endpoint: Endpoint<PageRequest>, req: IncomingMessage, res: ServerResponse, url: URL, deps: DataApiDeps): Promise<void> {
  const startedAt = performance.now();
  const requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort(new DataApiError(499, 'the client went away'));
  });
  let budget: NodeJS.Timeout | undefined;
  let caller: CallScope | null = null;
  try {
    const auth = await deps.keys.check(req, url);
    if (!auth.ok) return text(res, auth.status, auth.message, auth.headers);
    const identity = auth.identity;
    const scope: CallScope = { workspaceId: identity.workspaceId, routerId: identity.routerId };
    caller = scope;
    const body = await readBody(req, { limit: REQUEST_BODY_CAP });
    if (body === null) throw new DataApiError(413, `the request body is over ${REQUEST_BODY_CAP / MB} MB`);
    const request = parse(endpoint, body.toString('utf8'));
    if (identity.suspended) throw new DataApiError(402, 'the workspace is suspended');
    const router = await deps.routers.get(identity.routerId);
    if (!router) throw new DataApiError(401, 'router key missing, wrong or revoked');
    if (router.providers.length === 0) throw new DataApiError(400, 'this router has no enabled providers; add one in the dashboard');

    // docs/connect.md: the whole call may take `timeout` plus the slack (20 s; the tests run it short).
    const slackMs = settings().dataApiBudgetSlackMs;
    const budgetMs = request.timeout + slackMs;
    budget = setTimeout(
      () => abort.abort(new BudgetExceeded(408, `the call did not finish within its budget of ${budgetMs} ms (timeout + ${slackMs / 1000} s)`)),
      budgetMs,
    );
    const reply = await untilAborted(perform(endpoint, request, router, deps, startedAt, abort.signal), abort.signal);
    if (reply.body.length > endpoint.capBytes) {
      throw new DataApiError(
        413,
        `the response would be ${reply.body.length} bytes, over this endpoint's cap of ${endpoint.capBytes / MB} MB; narrow the request (clip, selector, fewer formats)`,
      );
    }
    res.once('finish', () => {
      countCall(scope, requestId).catch((error: Error) =>
        log.error({ requestId, workspaceId: identity.workspaceId, err: error.message }, 'could not count a data-API call'),
      );
    });
    res.writeHead(200, { ...reply.headers, 'Content-Length': String(reply.body.length), 'Cache-Control': 'no-store' }).end(reply.body);
  } catch (error) {
    answerFailure(res, error, abort.signal, requestId, caller);
  } finally {
    clearTimeout(budget);
  }
}

/**
 * A failed call: nothing more for a client that went away; otherwise `{ success: false, error }`
 * with the failure's status (a 500 for the unexpected, logged), counted as a failed call of the
 * router once the key was accepted (`failedBy`).
 */
function answerFailure(res: ServerResponse, error: unknown, signal: AbortSignal, requestId: string, failedBy: CallScope | null): void {
  if (signal.aborted && signal.reason instanceof DataApiError && signal.reason.status === 499) return;
  const failure = error instanceof DataApiError ? error : isEngineError(error, 'aborted') && signal.reason instanceof DataApiError ? signal.reason : null;
  if (!failure) log.error({ requestId, err: (error as Error).message, stack: (error as Error).stack }, 'data-API call failed unexpectedly');
  const status = failure?.status ?? 500;
  const body: Record<string, unknown> = { success: false, error: failure?.message ?? `internal error (request ${requestId})` };
  if (failure?.details) body.details = failure.details;
  if (!res.headersSent)
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...failure?.headers }).end(JSON.stringify(body));
  if (failedBy)
    countFailedCall(failedBy).catch((e: Error) =>
      log.error({ requestId, workspaceId: failedBy.workspaceId, err: e.message }, 'could not count a failed data-API call'),
    );
}

function parse<R extends PageRequest>(endpoint: Endpoint<R>, raw: string): R {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalidRequest([{ field: 'body', message: 'is not valid JSON' }]);
  }
  const parsed = endpoint.schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    const message =
      issue.code === 'invalid_type' && issue.input === undefined
        ? 'required'
        : issue.code === 'unrecognized_keys'
          ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
          : issue.message;
    return { field: issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys].join('.') : field, message };
  });
  throw invalidRequest(details);
}

/**
 * Routing and the browser action. Failover happens only while getting a browser context (connect
 * and newContext); once the page is opened the provider is committed. The engine lease is held
 * until the context is closed, so `maxConcurrent` counts data-API calls like connect sessions.
 */
async function perform(
  endpoint: Endpoint<PageRequest>,
  request: PageRequest,
  router: RouterRuntime,
  deps: DataApiDeps,
  startedAt: number,
  signal: AbortSignal,
): Promise<Reply> {
  await assertPageUrlAllowed(request.url);
  const walked = await openContext(request, router, deps, signal);
  // The client went away or the budget ran out: handleDataApi answers from the signal's reason.
  if (!walked) throw signal.reason;
  const { reservation, value: opened, shared } = walked;
  const lease: Lease<RuntimeProvider> = reservation.succeed(opened.readyMs);
  // An abort (budget, client gone) closes the context, which ends whatever the page was doing.
  const closeContext = () => void opened.close();
  signal.addEventListener('abort', closeContext, { once: true });
  try {
    const page = await opened.context.newPage().catch((error: unknown) => {
      throw new DataApiError(500, `the provider could not open a page: ${browserMessage(error)}`);
    });
    const visited = await visit(page, request);
    return await endpoint.action({ request, visit: visited, provider: lease.provider, startedAt });
  } catch (error) {
    if (error instanceof DataApiError || signal.aborted) throw error;
    throw new DataApiError(500, `the browser action failed: ${browserMessage(error)}`);
  } finally {
    signal.removeEventListener('abort', closeContext);
    // The slot is free only once the context is gone and the database has the shared slot back,
    // and the answer waits for both: a client that sends its next call on receipt must find the
    // slot free (maxConcurrent 1, pinning).
    await bounded(opened.close(), CONTEXT_CLOSE_WAIT_MS);
    lease.release();
    await shared?.release();
  }
}

/**
 * A browser context from the router's providers through the routing walk (proxy/routing/attempts.ts);
 * null when the client went away or the budget ran out while it waited.
 */
function openContext(
  request: PageRequest,
  router: RouterRuntime,
  deps: DataApiDeps,
  signal: AbortSignal,
): Promise<Walked<RuntimeProvider, OpenedContext> | null> {
  return walkProviders<RuntimeProvider, OpenedContext>({
    signal,
    acquire: () => router.engine.acquire({ pin: request.provider, signal }),
    attempt: (provider) => deps.connections.openContext(router.id, provider, contextOptions(request), router.connectionTimeoutMs, signal),
    // At capacity is not a failure (as on the connect path): no cooldown; the next free provider,
    // or the queue. A refusal of the egress policy lasts until the provider's address changes.
    verdict: (error) =>
      !(error instanceof ConnectError)
        ? null
        : error.kind === 'full'
          ? { kind: 'full', reason: error.message }
          : { kind: 'failed', reason: error.message, untilReset: error.kind === 'policy', timedOut: error.kind === 'timeout' },
    refuse: (error) => {
      const answer = DATA_API_REFUSALS[error.code](error, { pinned: request.provider });
      return new DataApiError(answer.status, answer.message, answer.headers);
    },
    exhausted: (last, failures) => {
      throw exhausted(
        last.attempts.map((a) => `${a.slug}: ${a.reason}`),
        failures.every((f) => f.timedOut),
      );
    },
    shared: deps.cluster && {
      cluster: deps.cluster,
      engine: router.engine,
      settings: router.settings,
      unavailable: () => new DataApiError(503, 'routing is unavailable for a moment (the database did not answer); retry shortly'),
    },
    label: 'data-API provider',
    logContext: { routerId: router.id },
  });
}

/**
 * The page's address under the egress policy, before any provider is involved (a 400 naming the
 * field). On the local pool every request the page makes is checked again by the pool's egress
 * proxy, redirects included; a cloud provider's browser fetches from the vendor's network.
 */
async function assertPageUrlAllowed(url: string): Promise<void> {
  const refused = await egressRefusal(egressPolicy(), url);
  if (refused) throw invalidRequest([{ field: 'url', message: refused }]);
}

/** docs/connect.md: every provider failing to connect is a 503, a provider connection timing out a 408. */
function exhausted(attempts: string[], allTimedOut: boolean): DataApiError {
  const list = attempts.map((a) => `- ${a}`).join('\n');
  return allTimedOut
    ? new DataApiError(408, `no provider connection within the router's connection timeout:\n${list}`)
    : new DataApiError(503, `every eligible provider failed to connect:\n${list}`);
}

/** Waits for `promise` (never rejects) for at most `ms`. */
function bounded(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).then(() => clearTimeout(timer));
}

/** Resolves or rejects with `work`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
