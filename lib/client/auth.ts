'use client';
// Sign-up and sign-in from the browser. Sign-in goes through next-auth's credentials provider;
// its failures come back as codes (`CredentialsSignin`, or `too_many_attempts` thrown by authorize).
import { signIn, signOut } from 'next-auth/react';
import type { serializeUser } from '@/lib/users/get-me';
import { apiFetch, ApiClientError } from './api-fetch';

export type SignedUpUser = ReturnType<typeof serializeUser>;

export async function signInWithPassword(email: string, password: string): Promise<void> {
  const result = await signIn('credentials', { email, password, redirect: false });
  if (result?.ok && !result.error) return;
  if (result?.error === 'too_many_attempts') {
    throw new ApiClientError('too_many_attempts', 'too many sign-in attempts; wait 15 minutes and try again', 429);
  }
  if (result?.error === 'CredentialsSignin') throw new ApiClientError('invalid_credentials', 'the e-mail or password is not correct', 401);
  throw new ApiClientError('sign_in_failed', 'signing in failed; try again in a moment', result?.status ?? 0);
}

export async function signUpAndSignIn(input: { name: string; email: string; password: string }): Promise<SignedUpUser> {
  const { user } = await apiFetch<{ user: SignedUpUser }>('/api/sign-up', { method: 'POST', body: input });
  await signInWithPassword(input.email, input.password);
  return user;
}

/** Clears the session cookie, then leaves the dashboard with a full page load (drops all cached data). */
export async function signOutTo(path = '/sign-in'): Promise<void> {
  await signOut({ redirect: false });
  window.location.assign(path);
}

/** Asks for a reset link; the answer is the same whether or not an account has the address. */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiFetch<{ accepted: true }>('/api/password-reset', { method: 'POST', body: { email } });
}

export async function completePasswordReset(token: string, password: string): Promise<void> {
  await apiFetch<{ reset: true }>('/api/password-reset/complete', { method: 'POST', body: { token, password } });
}
