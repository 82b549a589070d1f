// Test client for the web process: bearer and cookie sessions over real HTTP, and factories
// that create users through the same code as `npm run seed`.
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { Agent, fetch as undiciFetch } from 'undici';

export const WEB = process.env.TEST_WEB_URL ?? 'http://localhost:3000';
export const MAIL = process.env.TEST_MAIL_URL ?? '';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export type Auth = { token: string } | { cookie: string; origin?: string } | undefined;

/** `localAddress`: send from that loopback address (per-address limits of one test stay its own). */
export async function call<T = any>(
  method: string,
  path: string,
  options: { auth?: Auth; body?: unknown; headers?: Record<string, string>; rawBody?: string; base?: string; localAddress?: string } = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth && 'token' in options.auth) headers.authorization = `Bearer ${options.auth.token}`;
  if (options.auth && 'cookie' in options.auth) {
    headers.cookie = options.auth.cookie;
    if (method !== 'GET') headers.origin = options.auth.origin ?? new URL(WEB).origin;
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const init = { method, headers, body, redirect: 'manual' } as const;
  const dispatcher = options.localAddress ? new Agent({ localAddress: options.localAddress }) : undefined;
  const response = dispatcher
    ? await undiciFetch(`${options.base ?? WEB}${path}`, { ...init, dispatcher })
    : await fetch(`${options.base ?? WEB}${path}`, init);
  const text = await response.text();
  await dispatcher?.close();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed as T, headers: response.headers as Headers };
}

export const uniqueEmail = (tag = 'user') => `${tag}-${randomBytes(5).toString('hex')}@example.test`;
export const PASSWORD = 'correct horse battery staple';

export interface TestUser {
  email: string;
  password: string;
  userId: string;
  workspaceId: string;
  routerId: string;
  token: string;
}

/** A verified user with a workspace, default router and access token (as `npm run seed`). */
// Every test user has PASSWORD: hashed once per process (scrypt costs ~90 ms of CPU each time).
let passwordHash: Promise<string> | undefined;

export async function newUser(tag = 'user'): Promise<TestUser> {
  const { seedUser } = await import('../../lib/users/seed-user');
  passwordHash ??= import('../../lib/auth/password').then(({ hashPassword }) => hashPassword(PASSWORD));
  const email = uniqueEmail(tag);
  const seeded = await seedUser({ email, password: PASSWORD, name: `${tag} tester`, passwordHash: await passwordHash });
  return { email, password: PASSWORD, userId: seeded.userId, workspaceId: seeded.workspaceId, routerId: seeded.routerId!, token: seeded.accessToken };
}

/** Signs in through next-auth's credentials flow (at `web`, the test stack's by default) and returns the session cookie. */
export async function signIn(email: string, password = PASSWORD, web = WEB): Promise<{ cookie: string }> {
  const csrf = await fetch(`${web}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const response = await fetch(`${web}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
    redirect: 'manual',
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`sign-in failed for ${email} (status ${response.status})`);
  return { cookie: session.split(';')[0]! };
}

// Memberships come from seedMember (seed.ts); addMember is its older name.
export { seedMember as addMember } from './seed';

export function expectError(res: Res, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.ok, false);
  assert.equal(res.body?.error?.code, code);
  assert.equal(typeof res.body?.error?.message, 'string');
  assert.ok(res.body.error.message.length > 0);
}

export function expectOk<T = any>(res: Res, status = 200): T {
  assert.equal(res.status, status, `expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.ok, true);
  return res.body.data as T;
}

/** Polls the SMTP catcher until a message to `to` matching `subject` arrives (deadline 10 s). */
export async function waitForMail(to: string, subject: RegExp, after = 0): Promise<{ subject: string; text: string; html: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = (await (await fetch(`${MAIL}/messages?to=${encodeURIComponent(to)}`)).json()) as {
      subject: string;
      text: string;
      html: string;
      receivedAt: number;
    }[];
    const found = list.filter((m) => subject.test(m.subject) && m.receivedAt >= after).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://\\S+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S*`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[0];
}
