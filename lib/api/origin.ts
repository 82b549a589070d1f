// Cookie-authenticated mutations must come from the dashboard's own origin (CSRF defence on top
// of the SameSite=Lax session cookie).
import type { NextRequest } from 'next/server';
import { settings } from '../config/settings';

export function isSameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get('origin');
  if (!origin) return req.headers.get('sec-fetch-site') === 'same-origin';
  const allowed = new Set<string>();
  const configured = settings().publicWebUrl;
  if (configured) allowed.add(new URL(configured).origin);
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  if (host) {
    const proto = req.headers.get('x-forwarded-proto') ?? req.nextUrl.protocol.replace(':', '');
    allowed.add(`${proto}://${host}`);
  }
  return allowed.has(origin);
}
