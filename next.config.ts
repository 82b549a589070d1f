import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The web build checks only the web app; `npm run typecheck` checks the whole repository.
  typescript: { tsconfigPath: 'tsconfig.web.json' },
  // ws talks to provider browsers from route handlers (tests, probes) and undici makes their egress-checked
  // HTTP requests; they are loaded by Node, not bundled.
  serverExternalPackages: ['pino', 'pg', '@prisma/adapter-pg', 'nodemailer', 'ws', 'undici'],
};

export default config;
