// The repository stands alone: no text in it (README, docs, code comments, tests) points a reader
// at a document that is not in the repository (a sibling folder, a numbered external spec, design
// notes kept elsewhere), and every relative markdown link and every `*.md` path it mentions exists.
// What a reader needs is in docs/.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/** The name of the folder beside the repository that holds the documents it must not cite. */
const SIBLING = ['sha', 'red'].join('');

const ROOT = path.resolve(import.meta.dirname, '..');
const SKIP_DIRS = new Set(['node_modules', '.git', '.next', '.data', '.test-data', '.build', 'test-results', 'playwright-report', 'generated']);
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|ya?ml|sh|css|prisma|toml)$/;
const SKIP_FILES = new Set(['package-lock.json']);

/** References to documents that live outside the repository. */
export const OUTSIDE: { pattern: RegExp; why: string }[] = [
  // Spelled in pieces so this file does not itself read as such a reference.
  { pattern: new RegExp(String.raw`\.\./${SIBLING}\b|/work/${SIBLING}|\b${SIBLING}/spec\b`), why: 'a folder beside the repository' },
  { pattern: /\bspec\/\d-/, why: 'a spec file outside the repository' },
  { pattern: /\bspecs? ?\d\b/i, why: 'a numbered spec (the contract is docs/api.md, docs/connect.md, docs/gateway.md)' },
  { pattern: /\bdocument \d\b/i, why: 'a numbered document outside the repository' },
  { pattern: /\bresearch\//, why: 'research notes outside the repository' },
  { pattern: /\bspec folder\b/i, why: 'the spec folder outside the repository' },
];

export interface Problem {
  file: string;
  line: number;
  text: string;
  why: string;
}

/** Repository files to check: text, outside dependencies, build output and generated code. */
export function repositoryFiles(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return SKIP_DIRS.has(name) ? [] : repositoryFiles(full);
    const relative = path.relative(ROOT, full);
    return (TEXT.test(name) || relative.startsWith(`.ci${path.sep}`)) && !SKIP_FILES.has(name) ? [relative] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** The part of a line a reader reads as prose: all of a markdown line, the comment of a code line. */
function proseOf(file: string, line: string): string {
  if (file.endsWith('.md')) return line;
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return line;
  const comment = /(?<!:)\/\/(.*)$/.exec(line);
  return comment ? comment[1]! : '';
}

/**
 * The problems in a set of files (`contents`: repository-relative path → text). `exists` says
 * whether a repository-relative path is a file or folder of the repository.
 */
export function findProblems(contents: Map<string, string>, exists: (relative: string) => boolean): Problem[] {
  const problems: Problem[] = [];
  const all = [...contents.keys()];
  const isFile = (relative: string) => contents.has(relative) || exists(relative);
  for (const [file, text] of contents) {
    if (file === path.join('scripts', 'repo-standalone.test.ts')) continue; // the patterns themselves
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const at = (why: string) => problems.push({ file, line: i + 1, text: line.trim(), why });
      for (const { pattern, why } of OUTSIDE) if (pattern.test(line)) at(why);

      // Any `….md` path mentioned must be a file of the repository: relative to the mentioning
      // file, or to the root (comments name docs/x.md), or, for a bare name, some file of that name.
      for (const match of proseOf(file, line).matchAll(/(?<![\w/.-])((?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\.md)\b/g)) {
        const mention = match[1]!;
        const candidates = [path.normalize(path.join(path.dirname(file), mention)), path.normalize(mention)];
        const bare = !mention.includes('/');
        if (candidates.some(isFile) || (bare && all.some((f) => path.basename(f) === mention))) continue;
        at(`"${mention}" is not a file of the repository`);
      }

      if (!file.endsWith('.md')) return;
      // Relative markdown links: the target exists, and so does the heading an anchor names.
      for (const match of line.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [pathPart, anchor] = target.split('#') as [string, string | undefined];
        const resolved = pathPart === '' ? file : path.normalize(path.join(path.dirname(file), pathPart));
        if (resolved.startsWith('..')) {
          at(`link "${target}" leaves the repository`);
          continue;
        }
        if (!isFile(resolved)) {
          at(`link "${target}" points to a file that does not exist`);
          continue;
        }
        const linked = contents.get(resolved);
        if (anchor && resolved.endsWith('.md') && linked !== undefined && !anchorsIn(linked).has(anchor)) {
          at(`link "${target}": ${resolved} has no heading for #${anchor}`);
        }
      }
    });
  }
  return problems;
}

test('the checks catch references to documents outside the repository and broken links', () => {
  const contents = new Map([
    ['lib/a.ts', `// see ../${SIBLING}/spec/2-connect-and-data-api.md\n// the ranges of spec 1\n// ARCHITECTURE.md, "Layers"\n// as Spec 2's table says`],
    [
      'docs/b.md',
      '# Title\n\n[api](api.md), [gone](missing.md), [up](../../outside.md), [anchor](b.md#title), [bad anchor](#nowhere), [web](https://example.com)',
    ],
    ['docs/api.md', '# API'],
  ]);
  const found = findProblems(contents, () => false)
    .map((p) => `${p.file}:${p.line} ${p.why}`)
    .sort();
  assert.deepEqual(found, [
    'docs/b.md:3 "../../outside.md" is not a file of the repository',
    'docs/b.md:3 "missing.md" is not a file of the repository',
    'docs/b.md:3 link "#nowhere": docs/b.md has no heading for #nowhere',
    'docs/b.md:3 link "../../outside.md" leaves the repository',
    'docs/b.md:3 link "missing.md" points to a file that does not exist',
    `lib/a.ts:1 "../${SIBLING}/spec/2-connect-and-data-api.md" is not a file of the repository`,
    'lib/a.ts:1 a folder beside the repository',
    'lib/a.ts:1 a spec file outside the repository',
    'lib/a.ts:2 a numbered spec (the contract is docs/api.md, docs/connect.md, docs/gateway.md)',
    'lib/a.ts:3 "ARCHITECTURE.md" is not a file of the repository',
    'lib/a.ts:4 a numbered spec (the contract is docs/api.md, docs/connect.md, docs/gateway.md)',
  ]);
});

test('README, docs, code and comments point at nothing outside the repository, and every link resolves', () => {
  const files = repositoryFiles();
  assert.ok(files.includes('README.md') && files.some((f) => f.startsWith(`docs${path.sep}`)), 'the scan sees README.md and docs/');
  const contents = new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));
  const problems = findProblems(contents, (relative) => existsSync(path.join(ROOT, relative)));
  assert.deepEqual(
    problems.map((p) => `${p.file}:${p.line}: ${p.why}: ${p.text}`),
    [],
  );
});
