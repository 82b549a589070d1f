// The client's address for throttles. scripts/web-server.ts sets X-Forwarded-For from the socket
// unless TRUST_PROXY=1, in which case the right-most entry is the one our own proxy added.
export function clientIp(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() || 'unknown';
}
