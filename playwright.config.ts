// End-to-end tests in the system Chromium against the real stack, which scripts/test.ts starts
// (embedded PostgreSQL, the production web build, a real SMTP catcher) before running these.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e/browser',
  workers: 2,
  retries: 0,
  fullyParallel: true,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json']],
  outputDir: 'test-results',
  use: {
    baseURL: process.env.TEST_WEB_URL,
    screenshot: 'only-on-failure',
    // Off: recording a trace of every test took a third of the browser phase. `npm test -- --trace` keeps one per failed test.
    trace: 'off',
    viewport: { width: 1440, height: 900 },
    // As a user who asks for less motion (app/globals.css): the same pages, without animations to paint.
    reducedMotion: 'reduce',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
