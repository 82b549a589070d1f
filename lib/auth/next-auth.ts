// next-auth configuration: e-mail + password sign-in, JWT session cookies. The JWT carries the
// user id and the user's sessionVersion; bumping that version signs the user out everywhere.
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { db } from '../db';
import { log } from '../log';
import { hitBucket, readBucket, windowStartOf } from '../rate-limit/buckets';
import { burnPasswordCheck, verifyPassword } from './password';
import { signInSchema } from '../users/schemas';
import { SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_WINDOW_MS, signInFailuresFrom, signInFailuresOf } from './sign-in-throttle';
import { settings } from '../config/settings';
import { authSecret } from './secret';

export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

export const authOptions: NextAuthOptions = {
  secret: authSecret(),
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'E-mail and password',
      credentials: { email: { type: 'email' }, password: { type: 'password' } },
      async authorize(credentials, request) {
        const parsed = signInSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        // scripts/web-server.ts sets this header from the socket unless TRUST_PROXY=1.
        const ip =
          String(request?.headers?.['x-forwarded-for'] ?? '')
            .split(',')
            .at(-1)
            ?.trim() || 'unknown';
        const window = windowStartOf(Date.now(), SIGN_IN_WINDOW_MS);
        const keys = [signInFailuresOf(email), signInFailuresFrom(ip)];
        const [byEmail, byIp] = await Promise.all(keys.map((key) => readBucket(key, window)));
        if (byEmail! >= SIGN_IN_FAILURES_PER_EMAIL || byIp! >= settings().signInFailuresPerIp) {
          log.warn({ event: 'sign-in-throttled' }, 'sign-in throttled');
          throw new Error('too_many_attempts');
        }
        const user = await db.user.findUnique({ where: { email } });
        const ok = user ? await verifyPassword(password, user.passwordHash) : (await burnPasswordCheck(password), false);
        if (!user || !ok) {
          await Promise.all(keys.map((key) => hitBucket(key, window)));
          return null;
        }
        return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
      }
      return token;
    },
    async session({ session, token }) {
      return { ...session, userId: token.sub };
    },
  },
};
