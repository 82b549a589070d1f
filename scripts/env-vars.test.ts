// Every environment variable the product's code reads is in the README's configuration table, so
// an operator can find every knob in one place. Test-only and system variables are listed below,
// each with the reason it is not a setting.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SETTINGS } from '../lib/config/settings';
import { POOL_SETTINGS } from '../proxy/pool/config';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Read by the code, deliberately not in the table. */
const NOT_SETTINGS: Record<string, string> = {
  PATH: "the system's; handed to the pool's browsers and bubblewrap",
  HOME: "the system's; handed to the pool's browsers",
  SERVICE_NAME: 'set by npm start for each process it starts; names the process in log lines',
  PRISMA_SCHEMA_ENGINE_BINARY: "Prisma's own; scripts/generate-prisma.ts points it at any file so `prisma generate` runs offline at install",
  TEST_VERBOSE: 'the test runner (README, "Tests"): show the servers\' logs',
  TEST_WEB_URL: 'set by the test runner for the browser tests (playwright.config.ts)',
  TEST_CONCURRENCY: 'the test runner (README, "Tests"): integration files at once',
  TEST_CPU_FILE: "set by the test runner for each test file: where the file's process writes the CPU it used (scripts/lib/cpu-report.mjs)",
  BUILD_SKIP_TYPECHECK: "set by the test runner's build (scripts/lib/build.ts), which type-checks the whole tree itself after it",
  DISPLAY: "the system's; `gateway mcp` starts its Chromium headless on Linux when neither it nor WAYLAND_DISPLAY is set",
  WAYLAND_DISPLAY: "the system's; see DISPLAY",
  NEXTAUTH_URL:
    "next-auth's own, set by npm start to PUBLIC_WEB_URL; a renewed session cookie (password change) is named from its scheme as next-auth names it",
};

/** Named in the README, read by a library rather than our code: the AWS SDK's own credentials. */
const SDK_READS = new Set(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', 'TZ']);

/** Product code: everything but tests, test support and benchmarks. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return name === 'node_modules' || name === 'generated' ? [] : sourceFiles(relative);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) ? [relative] : [];
  });
}

/** Names read as `process.env.X`, `process.env['X']`, or `env.X` of an environment object passed around. */
export function envNamesIn(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b|\benv\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\]/g)) names.add((match[1] ?? match[2])!);
  for (const match of source.matchAll(/\{([^{}]+)\}\s*=\s*process\.env\b/g)) {
    for (const name of match[1]!.matchAll(/\b([A-Z][A-Z0-9_]+)\b/g)) names.add(name[1]!);
  }
  return [...names];
}

/** The variables named in the first column of the README's "Configuration" table. */
export function configurationTable(readme: string): Set<string> {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration'));
  assert.ok(section, 'README.md has a "## Configuration" section');
  const names = new Set<string>();
  for (const row of section.split('\n').filter((line) => line.startsWith('|'))) {
    const first = row.split('|')[1] ?? '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

test('the scan finds the ways the code reads the environment', () => {
  assert.deepEqual(
    envNamesIn("process.env.PORT; process.env['WEB_PORT']; env?.HOST; const { A_B, CD } = process.env; env.lowercase; process.env[NAME]").sort(),
    ['A_B', 'CD', 'HOST', 'PORT', 'WEB_PORT'],
  );
  assert.deepEqual([...configurationTable('## Configuration\n\n| variable | default |\n|---|---|\n| `AB` / `B_C` | 1 |\n\n## Next\n| `D` |')], ['AB', 'B_C']);
});

test('every environment variable the code reads is in the README configuration table', () => {
  const files = ['app', 'components', 'lib', 'proxy', 'scripts'].flatMap(sourceFiles).concat(readdirSync(ROOT).filter((name) => /\.(ts|mjs)$/.test(name)));
  const readBy = new Map<string, string[]>();
  for (const file of files) {
    for (const name of envNamesIn(readFileSync(path.join(ROOT, file), 'utf8'))) readBy.set(name, [...(readBy.get(name) ?? []), file]);
  }
  // The service's settings are rows of lib/config/, read through settings(); the pool's, of its config.
  for (const { env } of Object.values(SETTINGS)) readBy.set(env, [...(readBy.get(env) ?? []), 'lib/config/settings.ts']);
  for (const { env } of Object.values(POOL_SETTINGS)) readBy.set(env, [...(readBy.get(env) ?? []), 'proxy/pool/config.ts']);
  assert.ok(readBy.has('PUBLIC_PROXY_URL') && readBy.has('EMBEDDED_PG_PORT'), 'the scan sees the code');
  const table = configurationTable(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const missing = [...readBy].filter(([name]) => !table.has(name) && !(name in NOT_SETTINGS)).map(([name, where]) => `${name} (read in ${where.join(', ')})`);
  assert.deepEqual(missing, [], 'add these to the README configuration table (or, if not a setting, to NOT_SETTINGS with the reason)');
  const stale = Object.keys(NOT_SETTINGS).filter((name) => !readBy.has(name));
  assert.deepEqual(stale, [], 'no longer read: drop them from NOT_SETTINGS');
  const unread = [...table].filter((name) => !readBy.has(name) && !SDK_READS.has(name));
  assert.deepEqual(unread, [], 'the README lists these, but nothing reads them: drop them from the table');
});

test('a setting of the service is not a bare process.env read anywhere else: lib/config is its one reader', () => {
  const owners = new Set(['lib/config/settings.ts', 'lib/config/define.ts']);
  const settingNames = new Set(Object.values(SETTINGS).map((setting) => setting.env));
  const elsewhere: string[] = [];
  for (const file of ['app', 'components', 'lib', 'proxy/index.ts', 'proxy/server.ts'].flatMap((dir) => (dir.endsWith('.ts') ? [dir] : sourceFiles(dir)))) {
    if (owners.has(file)) continue;
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    for (const match of source.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]+)|\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\])/g)) {
      const name = (match[1] ?? match[2])!;
      if (settingNames.has(name)) elsewhere.push(`${name} in ${file}`);
    }
  }
  assert.deepEqual(elsewhere, [], 'read these through settings() (lib/config/settings.ts)');
});

test("the pool's settings that the service has too are the service's rows, not second declarations", () => {
  const service = new Map(Object.values(SETTINGS).map((setting) => [setting.env, setting]));
  const redeclared = Object.values(POOL_SETTINGS)
    .filter((setting) => service.has(setting.env) && service.get(setting.env) !== setting)
    .map((setting) => setting.env);
  assert.deepEqual(redeclared, []);
});
