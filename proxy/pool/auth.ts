// POOL_TOKEN check: a bearer header or `?token=`, compared in constant time (on SHA-256 digests,
// so that lengths do not leak either). The pool always has a token: there is no open mode.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time equality of a presented secret (header, query) with the expected one. */
export function sameSecret(presented: string | string[] | null | undefined, expected: string): boolean {
  if (typeof presented !== 'string' || expected === '') return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

export function tokenCheck(token: string): (req: IncomingMessage, url: URL) => boolean {
  if (!token) throw new Error('the pool needs a token');
  return (req, url) => {
    const header = req.headers.authorization;
    const presented = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : url.searchParams.get('token');
    return sameSecret(presented, token);
  };
}
