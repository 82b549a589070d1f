// The client address failed attempts are counted for (failure-throttle.ts), for the hosted proxy
// and the self-hosted gateway alike. Free of the database, so the gateway command can load it.
import type { IncomingMessage } from 'node:http';
import net from 'node:net';

/**
 * The address failures are counted for. Without a trusted proxy: the socket's. With one: the
 * right-most X-Forwarded-For entry, which the trusted proxy appended (it is the peer that proxy
 * saw); a missing or unreadable entry falls back to the socket (the proxy itself).
 */
export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string {
  const socketAddress = normalize(req.socket.remoteAddress) || 'unknown';
  if (!trustProxy) return socketAddress;
  const header = req.headers['x-forwarded-for'];
  const last = normalize((Array.isArray(header) ? header.join(',') : header)?.split(',').at(-1));
  return last && net.isIP(last) ? last : socketAddress;
}

function normalize(address: string | undefined): string {
  const trimmed = (address ?? '')
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  // An IPv4 client on a dual-stack socket: count it under its IPv4 address.
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/.test(trimmed) ? trimmed.slice(7) : trimmed;
}
