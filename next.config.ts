import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The web build checks only the web app; `npm run typecheck` checks the whole repository.
  // The tests build with BUILD_SKIP_TYPECHECK=1 and then check the whole repository, this build's
  // route types included (scripts/lib/build.ts): Next's check of the app would repeat a part of it.
  typescript: { tsconfigPath: 'tsconfig.web.json', ignoreBuildErrors: process.env.BUILD_SKIP_TYPECHECK === '1' },
  // ws talks to provider browsers from route handlers (tests, probes) and undici makes their egress-checked
  // HTTP requests; they are loaded by Node, not bundled.
  serverExternalPackages: ['pino', 'pg', '@prisma/adapter-pg', 'nodemailer', 'ws', 'undici'],
};

export default config;
