// Bearer secrets (account tokens, router keys, chat links, e-mail links): prefix + 32 random bytes.
// Only the SHA-256 is stored; comparisons are constant-time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface NewSecret {
  plaintext: string;
  hash: string;
  prefix: string; // shown in lists so a user can tell secrets apart
}

export function newSecret(prefix: string): NewSecret {
  const plaintext = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { plaintext, hash: hashSecret(plaintext), prefix: plaintext.slice(0, prefix.length + 6) };
}

export function hashSecret(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
