#!/usr/bin/env node
// Runs one of the project's TypeScript programs: `node scripts/run.mjs <file.ts> [arguments…]`
// (`npm run seed`, `operator`, `reset-password`, `db:migrate`, `web`, `proxy`, and the processes
// the tests start). It runs the copy compiled ahead by `npm start` or `npm test`
// (scripts/lib/build.ts) when that copy holds the program and was made from these very sources;
// otherwise tsx compiles the sources as they are. Either way the program runs in this process (a
// signal sent to it reaches the program), sees the arguments after its file, and its own path as
// process.argv[1], as under tsx. (Not for a program that starts itself again with process.execArgv,
// as scripts/start.ts does: without a compiled copy, its child would have no TypeScript loader.)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledFromTheseSources } from '../proxy/cli/compiled-command.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [file] = process.argv.splice(2, 1);
if (!file || !/\.[cm]?ts$/.test(file)) {
  console.error('usage: node scripts/run.mjs <program.ts> [arguments…]');
  process.exit(2);
}
const source = path.resolve(file);
const dir = compiledFromTheseSources(ROOT);
const compiled = dir && path.join(dir, path.relative(ROOT, source).replace(/\.[cm]?ts$/, '.mjs'));
process.argv[1] = source;
if (compiled && existsSync(compiled)) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: path.join(ROOT, 'tsconfig.json') });
  await import(pathToFileURL(source).href);
}
