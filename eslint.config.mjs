// ESLint 9 flat config: Next's rules (core web vitals and TypeScript, from eslint-config-next) and
// the layer rule of docs/architecture.md. `npm run lint`; `npm test` runs it as one counted check.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { clientBoundary } from './scripts/lint/client-boundary.mjs';

// Where React code lives (pages, components, the browser-side helpers of lib/client). Everywhere
// else is Node code, where the React plugins' rules have nothing to find; off there, they no longer
// cost over half of a cold run's time (react-hooks' compiler-based rules analyse every function).
const REACT_FILES = ['app/**', 'components/**', 'lib/client/**', '**/*.tsx', '**/*.jsx'];
const REACT_PLUGINS = ['react', 'react-hooks', 'jsx-a11y', '@next/next'];
const reactRulesOff = Object.fromEntries(
  nextVitals
    .flatMap((config) => Object.entries(config.plugins ?? {}))
    .filter(([name]) => REACT_PLUGINS.includes(name))
    .flatMap(([name, plugin]) => Object.keys(plugin.rules ?? {}).map((rule) => [`${name}/${rule}`, 'off'])),
);

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', '.build/**', '.data/**', '.test-data/**', 'lib/db/generated/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**']),
  {
    rules: {
      // Pages and route handlers sit on top of components/ and lib/, never the other way round.
      // Resolves relative paths and the `@/` alias alike.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: ['./components', './lib'], from: './app', message: 'components/ and lib/ must not import from app/: move what both need into lib/' },
            // The domain is lib/; the proxy is one of its edges (tests of lib/ may drive the proxy).
            { target: './lib', from: './proxy', message: 'lib/ must not import from proxy/: move what both need into lib/' },
          ],
        },
      ],
      // `_`-prefixed names are unused on purpose (a callback's shape, a property destructured away).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // A `let` that a shutdown closure reads before its one assignment cannot be a `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  { ignores: REACT_FILES, rules: reactRulesOff },
  {
    // Client components bundle for the browser: none may reach the database, Node or its packages.
    files: REACT_FILES,
    plugins: { local: { rules: { 'client-boundary': clientBoundary } } },
    rules: { 'local/client-boundary': 'error' },
  },
  {
    files: ['lib/**/*.test.ts'],
    rules: { 'import/no-restricted-paths': ['error', { zones: [{ target: ['./lib'], from: './app' }] }] },
  },
  {
    // Tests and benchmarks read the untyped JSON answers of real servers.
    files: ['e2e/**', 'bench/**', '**/*.test.ts', '**/testing.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A failing message-less assert(value) makes Node 20 quote the call from the .ts file at the
    // position of tsx's transformed code, which can spin for minutes instead of failing (see
    // scripts/lib/assert-messages.mjs). That preload gives assert.ok(value) a message; it cannot
    // reach the bare assert(value) form, so that form is not used.
    files: ['e2e/**', '**/*.test.ts', '**/testing.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='Identifier'][callee.name='assert'][arguments.length=1]",
          message:
            'Write assert.ok(value), or give assert(value, message) a message: a failing message-less assert(value) can hang its file for minutes under tsx.',
        },
      ],
    },
  },
  {
    // Plain JavaScript (the launcher and the browse client, the lint rules): TypeScript does not
    // check these, so a name used without its import is caught here. Node's globals only.
    files: ['**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'Buffer', 'URL', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'structuredClone'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
    rules: { 'no-undef': 'error' },
  },
  {
    // Scripts evaluated inside pages: their last expression is their value.
    files: ['proxy/data-api/page-scripts/**', 'proxy/agent/page-scripts/**'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
]);
