// The sign-in throttle's figures, shared by next-auth's sign-in and by the Account page's
// password change (a wrong current password counts as a failed sign-in of the address).
// Failures only: nobody can lock an account out by signing in, only by guessing.

/** Failed sign-ins allowed per e-mail and per client address in one window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** The bucket keys (lib/rate-limit/buckets.ts). */
export const signInFailuresOf = (email: string) => `sign-in-fail:${email}`;
export const signInFailuresFrom = (ip: string) => `sign-in-fail-ip:${ip}`;
