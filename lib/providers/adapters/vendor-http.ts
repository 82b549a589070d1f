// One JSON request to a vendor's REST API, with a deadline, mapped to VendorError: no answer or a
// 5xx/429 is `unreachable`, the statuses the vendor uses for a bad key are `rejected_key`, any other
// error status is `failed`. Messages never carry the key.
import { VendorError } from './types';

export interface VendorRequest {
  vendor: string;
  baseUrl: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  /** Statuses that mean "this key is not valid" (default 401 and 403). */
  rejectedStatuses?: number[];
}

export async function vendorRequest<T = unknown>(request: VendorRequest): Promise<{ status: number; body: T | null }> {
  const url = `${request.baseUrl.replace(/\/+$/, '')}${request.path}`;
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const name = (error as Error).name;
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    throw new VendorError(
      'unreachable',
      timedOut ? `${request.vendor} did not answer within ${request.timeoutMs} ms` : `${request.vendor} could not be reached (${describeCause(error)})`,
    );
  }
  const text = await response.text().catch(() => '');
  let body: T | null = null;
  try {
    body = text ? (JSON.parse(text) as T) : null;
  } catch {
    body = null;
  }
  if (response.ok) return { status: response.status, body };
  if ((request.rejectedStatuses ?? [401, 403]).includes(response.status)) {
    throw new VendorError('rejected_key', `${request.vendor} rejected the API key (HTTP ${response.status})`, response.status);
  }
  if (response.status >= 500 || response.status === 429) {
    throw new VendorError('unreachable', `${request.vendor} is unavailable (HTTP ${response.status})`, response.status);
  }
  throw new VendorError('failed', `${request.vendor} refused the request (HTTP ${response.status}${vendorMessage(body)})`, response.status);
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** The vendor's own short explanation, when its error body has one. */
function vendorMessage(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const record = body as Record<string, unknown>;
  const text = [record.message, record.detail, record.error].find((value) => typeof value === 'string') as string | undefined;
  return text ? `: ${text.slice(0, 200)}` : '';
}
