import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The web build checks only the web app; `npm run typecheck` checks the whole repository.
  typescript: { tsconfigPath: 'tsconfig.web.json' },
  serverExternalPackages: ['pino', 'pg', '@prisma/adapter-pg', 'nodemailer'],
};

export default config;
