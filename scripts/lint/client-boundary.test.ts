// The client-boundary lint rule on probes placed in the tree (never written to disk): what a client
// component may import (lib/client, schemas, types of anything) and what it may not reach, directly
// or through modules in between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { clientBoundary } from './client-boundary.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const linter = new Linter({ configType: 'flat' });
const config = [
  {
    files: ['**/*.tsx', '**/*.ts'],
    languageOptions: { parser: tsParser },
    plugins: { local: { rules: { 'client-boundary': clientBoundary } } },
    rules: { 'local/client-boundary': 'error' },
  },
] as Linter.Config[];

function problems(code: string, file = 'components/probe.tsx'): string[] {
  return linter.verify(code, config, { filename: path.join(ROOT, file) }).map((m) => `${m.line}: ${m.message}`);
}

test('a client component may import client helpers, shared schemas and types of server modules', () => {
  assert.deepEqual(
    problems(`'use client';
import { formatMoney } from '@/lib/client/money';
import { createRouterSchema } from '@/lib/routers/schemas';
import type { PrismaClient } from '@/lib/db';
import { type Durations } from '../lib/config/durations';
export const used = [formatMoney, createRouterSchema];`),
    [],
  );
});

test('it may not reach the database, Node or a Node-only package, directly or through a module in between', () => {
  assert.deepEqual(
    problems(`'use client';
import { db } from '@/lib/db';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { sessionInclude } from '../lib/sessions/sessions';
export const used = [db, readFileSync, pino, sessionInclude];`),
    [
      '2: a client component must not import server code: lib/db/index.ts',
      '3: a client component must not import server code: node:fs',
      '4: a client component must not import server code: pino',
      '5: a client component must not import server code: lib/sessions/sessions.ts → lib/db/index.ts',
    ],
  );
});

test('files that are not client components are not checked', () => {
  assert.deepEqual(problems(`import { db } from '@/lib/db';\nexport const used = db;`), []);
  assert.deepEqual(problems(`import { db } from '@/lib/db';\n'use client';\nexport const used = db;`), []);
});
