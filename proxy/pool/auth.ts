// POOL_TOKEN check: a bearer header or `?token=`, compared in constant time (on SHA-256 digests,
// so that lengths do not leak either).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function tokenCheck(token: string | undefined): (req: IncomingMessage, url: URL) => boolean {
  if (!token) return () => true;
  const expected = digest(token);
  return (req, url) => {
    const header = req.headers.authorization;
    const presented = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : url.searchParams.get('token');
    return presented !== null && presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}
