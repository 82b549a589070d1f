// One structured logger. Secrets are redacted by key wherever they appear in a logged object. It
// writes to stdout, or to stderr with LOG_DESTINATION=stderr: the gateway command's launcher
// (proxy/cli/gateway.mjs) sets that, since a command's stdout is its output (for `gateway mcp`,
// JSON-RPC and nothing else).
import pino from 'pino';

export const log = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: process.env.SERVICE_NAME ?? 'web' },
  redact: {
    paths: [
      'authorization', '*.authorization', 'headers.authorization', 'headers.cookie',
      'token', '*.token', 'apiKey', '*.apiKey', 'password', '*.password', 'secret', '*.secret',
      'plaintextKey', '*.plaintextKey', 'plaintextToken', '*.plaintextToken', 'credentials', '*.credentials',
    ],
    censor: '[redacted]',
  },
}, pino.destination(process.env.LOG_DESTINATION === 'stderr' ? 2 : 1));

export type Logger = typeof log;
