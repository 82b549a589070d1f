// next-auth configuration: e-mail + password sign-in, JWT session cookies. The JWT carries the
// user id and the user's sessionVersion; bumping that version signs the user out everywhere.
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { db } from '../db';
import { log } from '../log';
import { allowAttempt } from '../rate-limit/buckets';
import { burnPasswordCheck, verifyPassword } from './password';
import { signInSchema } from '../users/schemas';

export const SIGN_IN_ATTEMPTS_PER_15_MIN = 10;

export const authOptions: NextAuthOptions = {
  secret: process.env.AUTH_SECRET,
  session: { strategy: 'jwt', maxAge: 30 * 24 * 3600 },
  pages: { signIn: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'E-mail and password',
      credentials: { email: { type: 'email' }, password: { type: 'password' } },
      async authorize(credentials, request) {
        const parsed = signInSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        const ip = String(request?.headers?.['x-forwarded-for'] ?? '').split(',')[0]?.trim() || 'local';
        if (!(await allowAttempt(`sign-in:${email}`, SIGN_IN_ATTEMPTS_PER_15_MIN, 15 * 60_000)) ||
            !(await allowAttempt(`sign-in-ip:${ip}`, SIGN_IN_ATTEMPTS_PER_15_MIN * 5, 15 * 60_000))) {
          log.warn({ event: 'sign-in-throttled' }, 'sign-in throttled');
          throw new Error('too_many_attempts');
        }
        const user = await db.user.findUnique({ where: { email } });
        if (!user) {
          await burnPasswordCheck(password);
          return null;
        }
        if (!(await verifyPassword(password, user.passwordHash))) return null;
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
