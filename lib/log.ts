// One structured logger. Secrets are redacted by key wherever they appear in a logged object. It
// writes to stdout, or to stderr with LOG_DESTINATION=stderr: the gateway command's launcher
// (proxy/cli/gateway.mjs) sets that, since a command's stdout is its output (for `gateway mcp`,
// JSON-RPC and nothing else). `time` is ISO 8601 in the local zone with its offset (TZ sets the
// zone), so a line reads the same to people and parses the same everywhere.
import pino from 'pino';
import { readLenient } from './config/define';
import { SERVICE_SETTINGS } from './config/service';

/**
 * An unknown LOG_LEVEL is `info` here (pino would throw at import, taking every command down with
 * it); the processes' start refuses it with the other bad settings, `gateway serve` too.
 */
const level = readLenient(SERVICE_SETTINGS.logLevel, process.env);

/** `2026-11-24T18:20:01.123+01:00`: the local time and its offset from UTC. */
export function localIsoTime(date = new Date()): string {
  const offset = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, -1);
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export const log = pino(
  {
    level,
    base: { service: process.env.SERVICE_NAME ?? 'web' },
    timestamp: () => `,"time":"${localIsoTime()}"`,
    redact: {
      paths: [
        'authorization',
        '*.authorization',
        'headers.authorization',
        'headers.cookie',
        'token',
        '*.token',
        'apiKey',
        '*.apiKey',
        'password',
        '*.password',
        'secret',
        '*.secret',
        'plaintextKey',
        '*.plaintextKey',
        'plaintextToken',
        '*.plaintextToken',
        'credentials',
        '*.credentials',
      ],
      censor: '[redacted]',
    },
  },
  pino.destination(readLenient(SERVICE_SETTINGS.logDestination, process.env) === 'stderr' ? 2 : 1),
);

export type Logger = typeof log;
