// Shared steps of the browser tests: unique addresses, new signed-in accounts, reading
// mail from the SMTP catcher (polled with a deadline, never a fixed sleep).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';

export const webUrl = (process.env.TEST_WEB_URL ?? '').replace(/\/$/, '');
const mailUrl = process.env.TEST_MAIL_URL ?? '';
export const PASSWORD = 'correct horse battery staple';

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@test.local`;
}

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

export async function mailTo(request: APIRequestContext, address: string): Promise<CaughtMail[]> {
  const response = await request.get(`${mailUrl}/messages?to=${encodeURIComponent(address)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as CaughtMail[];
}

/** Waits until `count` messages whose subject matches have reached `address`; returns the newest. */
export async function waitForMail(request: APIRequestContext, address: string, subject: RegExp, count = 1): Promise<CaughtMail> {
  let found: CaughtMail[] = [];
  await expect
    .poll(
      async () => {
        found = (await mailTo(request, address)).filter((m) => subject.test(m.subject));
        return found.length;
      },
      { message: `mail to ${address} matching ${subject}`, timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found.sort((a, b) => a.receivedAt - b.receivedAt).at(-1)!;
}

/** The link in a mail's text that starts with the web app's URL and `path`. */
export function linkIn(mail: CaughtMail, path: string): string {
  const escaped = `${webUrl}${path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S+`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}

export const workspaceNameOf = (name: string) => `${name.split(' ')[0]}'s workspace`;

/**
 * A new account, signed in on `page`'s context, and `landOn` opened (by default the new workspace's
 * overview; `null`: none). Made the way the sign-up form makes it (POST /api/sign-up, then next-auth's credentials
 * sign-in) but without loading the form: a page load costs Chromium about 0.8 CPU-seconds here, and
 * the form itself is tested in sign-up-and-verify.spec.ts.
 */
export async function signUp(page: Page, user: { name: string; email: string; password?: string }, landOn: string | null = '/overview'): Promise<void> {
  const password = user.password ?? PASSWORD;
  const created = await page.request.post(`${webUrl}/api/sign-up`, { headers: { Origin: webUrl }, data: { name: user.name, email: user.email, password } });
  expect(created.status(), await created.text()).toBe(201);
  const { csrfToken } = (await (await page.request.get(`${webUrl}/api/auth/csrf`)).json()) as { csrfToken: string };
  const signedIn = await page.request.post(`${webUrl}/api/auth/callback/credentials`, {
    form: { csrfToken, email: user.email, password, json: 'true' },
    maxRedirects: 0,
  });
  expect(signedIn.ok(), `credentials sign-in: HTTP ${signedIn.status()}`).toBe(true);
  expect((await page.context().cookies(webUrl)).map((c) => c.name)).toContain('next-auth.session-token');
  if (landOn === null) return;
  await page.goto(landOn);
  if (landOn === '/overview') await expect(page.getByRole('heading', { level: 1 })).toHaveText(workspaceNameOf(user.name));
}

/** Signs up through the form and lands on the overview of the new workspace. */
export async function signUpThroughForm(page: Page, user: { name: string; email: string; password?: string }): Promise<void> {
  await page.goto('/sign-up');
  await fillSignUp(page, user);
  await page.waitForURL('**/overview');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(workspaceNameOf(user.name));
}

export async function fillSignUp(page: Page, user: { name: string; email: string; password?: string }): Promise<void> {
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Work e-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The instance operator of the test stack: its ADMIN_EMAILS address, which counts once verified. */
export const OPERATOR_EMAIL = 'operator@test.local';

/**
 * Signs in as the operator, creating and verifying the account first when no spec has yet. Spec
 * files run in parallel, so two may create it at once: the loser's sign-up is refused (409, or a
 * 500 from the unique index when both passed the check together) and the account then exists
 * either way. Every verification link the address got is used: a spent one is refused, harmlessly.
 */
export async function signInAsOperator(page: Page): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const response = await page.request.post(`${webUrl}/api/sign-up`, {
      headers: { Origin: webUrl },
      data: { name: 'Otto Operator', email: OPERATOR_EMAIL, password: PASSWORD },
    });
    if (response.status() === 201 || response.status() === 409) break;
    if (attempt >= 2) throw new Error(`could not create the operator: HTTP ${response.status()} ${await response.text()}`);
  }
  await page.goto('/sign-in');
  await signIn(page, OPERATOR_EMAIL);
  await page.waitForURL('**/overview');
  // Verified by this spec or by the one that created the account: the links the address got are
  // tried until /v1/me says operator (a spent link is refused, harmlessly).
  await expect
    .poll(
      async () => {
        const me = (await (await page.request.get(`${webUrl}/v1/me`)).json()) as { data?: { isAdmin: boolean } };
        if (me.data?.isAdmin) return true;
        for (const mail of (await mailTo(page.request, OPERATOR_EMAIL)).filter((m) => m.subject === 'Confirm your e-mail address')) {
          const token = new URL(linkIn(mail, '/verify-email?token=')).searchParams.get('token');
          await page.request.post(`${webUrl}/api/verify-email`, { headers: { Origin: webUrl }, data: { token } });
        }
        return false;
      },
      { message: 'the operator account verified', timeout: 20_000 },
    )
    .toBe(true);
  await page.goto('/overview');
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: webUrl, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

/**
 * The owner (signed in on `ownerPage`) invites `email` with `role`; the invitee opens the link
 * from the e-mail in a fresh browser, creates an account from it and accepts.
 */
export async function inviteAndJoin(
  ownerPage: Page,
  browser: Browser,
  request: APIRequestContext,
  invitee: { name: string; email: string; role: 'admin' | 'member' },
) {
  await ownerPage.goto('/members');
  const form = ownerPage.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('E-mail address').fill(invitee.email);
  await form.getByLabel('Role').selectOption(invitee.role);
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(ownerPage.getByRole('table', { name: 'Pending invitations' })).toContainText(invitee.email);

  const mail = await waitForMail(request, invitee.email, /invited you to/);
  const link = linkIn(mail, '/invite/');
  const page = await newPage(browser);
  await page.goto(link);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL('**/sign-up?**');
  await expect(page.getByLabel('Work e-mail')).toHaveValue(invitee.email);
  await fillSignUp(page, invitee);
  await page.waitForURL(`**/invite/**`);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.waitForURL('**/overview');
  return { page, link };
}

/** For looking at the pages: set TEST_SCREENSHOTS=1 to save full-page screenshots. */
export async function snap(page: Page, name: string): Promise<void> {
  if (!process.env.TEST_SCREENSHOTS) return;
  mkdirSync('test-results/screens', { recursive: true });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}
