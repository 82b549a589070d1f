// One structured logger. Secrets are redacted by key wherever they appear in a logged object.
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
});

export type Logger = typeof log;
