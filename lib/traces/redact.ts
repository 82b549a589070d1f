// What a trace never stores: credentials in the headers and in the query strings of URLs the page
// sent or received (docs/traces.md, "Redaction"). Any member of the workspace reads a trace and its
// HAR, so a value that authenticates somebody is replaced by REDACTED before it is written; the
// name stays, so the viewer shows that something was there. A router may name more headers and
// parameters of its sites' own (its `traceRedactNames`): they come in as `extra`, one set for both.
import type { Headers } from './format';

export const REDACTED = '[redacted]';

/** Header names whose values are credentials (compared without case). */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'cookie2',
  'set-cookie2',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-refresh-token',
  'x-id-token',
  'x-session-token',
  'x-csrf-token',
  'x-xsrf-token',
  'x-amz-security-token',
  'x-goog-api-key',
  'x-goog-iap-jwt-assertion',
  'ocp-apim-subscription-key',
]);
/** Besides the list: a name that says it holds a token, secret, password, signature or API key. */
const CREDENTIAL_HEADER = /(^|-)(token|secret|password|signature|api-?key)$/i;

/** Query parameter names whose values are credentials (compared without case). */
export const REDACTED_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth',
  'key',
  'api_key',
  'apikey',
  'api-key',
  'sig',
  'signature',
  'code',
  'password',
  'passwd',
  'pwd',
  'secret',
  'client_secret',
  'session',
  'sessionid',
  'session_id',
  'jwt',
  'ticket',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
]);

/** No names besides the defaults. */
export const NO_EXTRA_NAMES: ReadonlySet<string> = new Set();

/** A router's extra names as `extra` takes them: lowercase, so they compare without case. */
export function extraRedactNames(names: readonly string[]): ReadonlySet<string> {
  return names.length === 0 ? NO_EXTRA_NAMES : new Set(names.map((name) => name.toLowerCase()));
}

/** `extra`: names of the router's own (lowercase, extraRedactNames). */
export function isCredentialHeader(name: string, extra: ReadonlySet<string> = NO_EXTRA_NAMES): boolean {
  const lower = name.toLowerCase();
  return REDACTED_HEADERS.has(lower) || CREDENTIAL_HEADER.test(lower) || extra.has(lower);
}

/** Header values of credentials, the defaults' and `extra`'s, replaced by REDACTED. */
export function redactHeaders(headers: unknown, extra: ReadonlySet<string> = NO_EXTRA_NAMES): Headers {
  const out: Headers = {};
  if (!headers || typeof headers !== 'object') return out;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) out[name] = isCredentialHeader(name, extra) ? REDACTED : String(value);
  return out;
}

/**
 * The URL with the values of credential parameters (the defaults' and `extra`'s) in its query, and
 * in a fragment of the same form (an OAuth implicit grant's `#access_token=…`), replaced by
 * REDACTED; the rest is written as it was (nothing re-encoded). A data: URL or a text without
 * parameters is returned as it is.
 */
export function redactUrl(url: string, extra: ReadonlySet<string> = NO_EXTRA_NAMES): string {
  if (url.startsWith('data:')) return url;
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const query = beforeHash.indexOf('?');
  const base = query < 0 ? beforeHash : `${beforeHash.slice(0, query + 1)}${redactParams(beforeHash.slice(query + 1), extra)}`;
  return hash < 0 ? base : `${base}#${redactParams(url.slice(hash + 1), extra)}`;
}

/** `a=1&token=x` with the credentials' values replaced. */
function redactParams(params: string, extra: ReadonlySet<string>): string {
  if (!params.includes('=')) return params;
  return params
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = safeDecode(pair.slice(0, eq)).toLowerCase();
      return REDACTED_QUERY_PARAMS.has(name) || extra.has(name) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join('&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
