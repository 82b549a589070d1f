// A new session cookie for the caller after their session version moved (a password change): the
// other sessions stop at their next request, this one goes on. It is next-auth's own JWT, made
// with its encoder and named as next-auth names it, so next-auth reads it as one of its own.
import type { NextRequest } from 'next/server';
import { encode, getToken } from 'next-auth/jwt';
import { SESSION_MAX_AGE_S } from './next-auth';
import { authSecret } from './secret';

/** next-auth's cookie name: `__Secure-` prefixed when the dashboard is served over HTTPS (NEXTAUTH_URL). */
function sessionCookieName(): { name: string; secure: boolean } {
  const secure = process.env.NEXTAUTH_URL?.startsWith('https://') ?? false;
  return { name: `${secure ? '__Secure-' : ''}next-auth.session-token`, secure };
}

/** The Set-Cookie value carrying the caller's session at `sessionVersion`, or null without a cookie session. */
export async function renewedSessionCookie(req: NextRequest, sessionVersion: number): Promise<string | null> {
  const secret = authSecret();
  const current = await getToken({ req, secret });
  if (!current?.sub || !secret) return null;
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = current;
  const value = await encode({ token: { ...claims, sv: sessionVersion }, secret, maxAge: SESSION_MAX_AGE_S });
  const { name, secure } = sessionCookieName();
  const expires = new Date(Date.now() + SESSION_MAX_AGE_S * 1000).toUTCString();
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
