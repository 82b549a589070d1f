// The dashboard's one way to call the server. Every response is the API envelope
// (`{ ok: true, data }` / `{ ok: false, error: { code, message, details? } }`); this turns a failure
// into an ApiClientError with the error's code and field details, so components branch on `code`
// and place errors on fields from `details`, never from message text.
// URLs are relative: cookie-authenticated mutations are checked same-origin by the server.

/** One field's problem in a `validation_error`: `path` is dotted (`maxConcurrent`, `headers.0.name`). */
export interface ApiFieldIssue {
  path: string;
  message: string;
}

export class ApiClientError extends Error {
  constructor(
    /** The API's error code (`forbidden`, `limit_reached`…), or `network_error` / `bad_response`. */
    readonly code: string,
    message: string,
    readonly status: number,
    /** The fields a `validation_error` is about; empty when it is about the request as a whole. */
    readonly details: readonly ApiFieldIssue[] = [],
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Pins the call to this workspace (X-Workspace-Id) rather than the session's active one. */
  workspaceId?: string | null;
  /** Pins router-scoped calls (providers, router keys, chat links) to this router (X-Router-Id). */
  routerId?: string | null;
}

export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const response = await send(path, options);
  const payload = await response.json().catch(() => null);
  if (payload && typeof payload === 'object' && 'ok' in payload && payload.ok === true) return (payload as { data: T }).data;
  throw errorOf(payload, response.status);
}

/**
 * A file the server sends as it is, without the envelope (a profile's export): its bytes and the
 * name its Content-Disposition gives. A failure still comes as the envelope, thrown as for apiFetch.
 */
export async function apiFetchFile(path: string, options: ApiFetchOptions = {}): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await send(path, options);
  if (!response.ok) throw errorOf(await response.json().catch(() => null), response.status);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
  return { blob: await response.blob(), fileName };
}

async function send(path: string, { method = 'GET', body, signal, workspaceId, routerId }: ApiFetchOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (workspaceId) headers['X-Workspace-Id'] = workspaceId;
  if (routerId) headers['X-Router-Id'] = routerId;
  try {
    return await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      cache: 'no-store',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiClientError('network_error', 'could not reach the server; check your connection and try again', 0);
  }
}

/** The ApiClientError of a failed answer's envelope (or of an answer that is not one). */
function errorOf(payload: unknown, status: number): ApiClientError {
  const error = payload && typeof payload === 'object' && 'ok' in payload ? (payload as { error?: unknown }).error : undefined;
  // Billing endpoints send `error` as a plain string (docs/api.md, Conventions).
  if (typeof error === 'string') return new ApiClientError(error, error.replace(/_/g, ' '), status);
  if (error && typeof error === 'object') {
    const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
    return new ApiClientError(String(code ?? 'unknown_error'), String(message ?? 'the request failed'), status, fieldIssues(details));
  }
  return new ApiClientError('bad_response', `unexpected answer from the server (HTTP ${status})`, status);
}

function fieldIssues(details: unknown): ApiFieldIssue[] {
  if (!Array.isArray(details)) return [];
  return details.filter((d): d is ApiFieldIssue => typeof d?.path === 'string' && typeof d?.message === 'string');
}

export function isApiError(error: unknown, code?: string): error is ApiClientError {
  return error instanceof ApiClientError && (code === undefined || error.code === code);
}

/** A sentence for the user: the server's message, capitalised. */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : 'something went wrong';
  return message.charAt(0).toUpperCase() + message.slice(1);
}
