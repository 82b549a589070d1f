// Cookie-authenticated mutations must come from the dashboard's own origin (CSRF defence on top
// of the SameSite=Lax session cookie).
import type { NextRequest } from 'next/server';

export function isSameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get('origin');
  if (!origin) return req.headers.get('sec-fetch-site') === 'same-origin';
  const allowed = new Set<string>();
  if (process.env.PUBLIC_WEB_URL) allowed.add(new URL(process.env.PUBLIC_WEB_URL).origin);
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  if (host) {
    const proto = req.headers.get('x-forwarded-proto') ?? req.nextUrl.protocol.replace(':', '');
    allowed.add(`${proto}://${host}`);
  }
  return allowed.has(origin);
}
