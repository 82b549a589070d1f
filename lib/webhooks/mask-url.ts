// Webhook URLs carry the receiver's secret (deliveries are not signed), so responses show them
// masked: every query value, whatever its parameter is called (receivers name their secret
// anything: sig, s, hmac, auth…), a parameter without a value as a whole (`?<token>`), and a
// userinfo (refused on input, masked should an older row hold one). Names and the path stay as written.

export const MASK = '***';

/**
 * The URL as shown in responses; safe to apply again to its own output. `path: true` masks every
 * path segment too (the self-hosted gateway's lists: a receiver such as /services/T000/B000/XXXX
 * keeps its secret there).
 */
export function maskUrl(raw: string, options: { path?: boolean } = {}): string {
  const url = new URL(raw);
  if (url.username) url.username = MASK;
  if (url.password) url.password = MASK;
  if (options.path && url.pathname !== '/')
    url.pathname = url.pathname
      .split('/')
      .map((segment) => (segment ? MASK : segment))
      .join('/');
  if (url.search.length > 1) {
    const parts = url.search
      .slice(1)
      .split('&')
      .map((part) => {
        if (part === '') return part;
        const eq = part.indexOf('=');
        return eq < 0 ? MASK : `${part.slice(0, eq)}=${MASK}`;
      });
    url.search = `?${parts.join('&')}`;
  }
  return url.toString();
}

/** The stored display form, masked again by today's rule (rows written under an older one named fewer parameters). */
export function displayUrl(stored: string): string {
  try {
    return maskUrl(stored);
  } catch {
    return MASK;
  }
}

/** A webhook URL may not carry `user:password@`: undici cannot send it, and the query is where a secret goes. */
export const hasUserinfo = (url: URL) => url.username !== '' || url.password !== '';

/** http(s) only; anything else (or a string that is no URL) is null. */
export function parseWebhookUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
