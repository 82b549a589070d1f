// Webhook URLs carry the receiver's secret (deliveries are not signed), so responses show them
// with credentials masked: the query parameters spec 1 names (token, apiKey, key, secret,
// password), their spelling variants (api_key, ACCESS_TOKEN, client-secret…), and a userinfo password.

export const MASK = '***';

const SECRET_NAMES = new Set(['token', 'apikey', 'key', 'secret', 'password']);
const SECRET_SUFFIXES = ['token', 'apikey', 'secret', 'password'];

export function isSecretParam(name: string): boolean {
  const n = name.toLowerCase().replace(/[-_.\s]/g, '');
  return SECRET_NAMES.has(n) || SECRET_SUFFIXES.some((suffix) => n.endsWith(suffix));
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The URL as shown in responses. Everything but the masked values stays as written. */
export function maskUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = MASK;
  if (url.search.length > 1) {
    const parts = url.search.slice(1).split('&').map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return isSecretParam(decodeName(name)) ? `${name}=${MASK}` : part;
    });
    url.search = `?${parts.join('&')}`;
  }
  return url.toString();
}

/** http(s) only; anything else (or a string that is no URL) is null. */
export function parseWebhookUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
