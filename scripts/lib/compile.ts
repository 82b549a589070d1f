// TypeScript compiled ahead into plain JavaScript: the services `npm start` and the test stack run
// (scripts/lib/build.ts) and the test files (scripts/test.ts). Under `--import tsx` every module a
// process loads (the packages too) goes through tsx's loader hooks, which on Node 20 run on a
// thread of their own: loading the proxy's code that way cost about two seconds of CPU, against
// one compiled.
//
// One esbuild call bundles the entries (with the chunks they share); packages stay imports, so
// they load from node_modules as before. Every module keeps its own `import.meta.url`, `dirname`
// and `filename` (a module finds its fixtures, scripts and the Prisma engine beside its source),
// computed at run time from where the compiled file lies: the output may move with its sources
// (the gateway's package carries both, scripts/lib/gateway-package.ts) and still find them. Inline
// source maps make stack traces name the .ts files and lines (run with `--enable-source-maps`).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, transform, type Loader, type Plugin } from 'esbuild';

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx' };

/** Stands, in the compiled code, for the way from each output file to the sources' root (written when the files are). */
const ROOT_MARK = '__compiled_sources_root__';

/**
 * Replaces `import.meta.url`, `.dirname` and `.filename` in each module of ours with its source's:
 * names of its own, set by a banner from the source's path under `root` and the compiled file's
 * own `import.meta.url`.
 */
function importMetaOfSource(root: string): Plugin {
  let modules = 0;
  return {
    name: 'import-meta-of-source',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta')) return undefined;
        const meta = `__importMeta${(modules += 1)}`;
        const fromRoot = path.relative(root, args.path).split(path.sep).join('/');
        // esbuild's define replaces the expressions only (not the same words inside a string); the
        // banner's lines are in the inline source map of this step, which the bundle's follows.
        const { code } = await transform(source, {
          loader: LOADERS[path.extname(args.path)] ?? 'ts',
          jsx: 'automatic',
          sourcemap: 'inline',
          sourcefile: args.path,
          banner: [
            `import { fileURLToPath as ${meta}_path } from 'node:url';`,
            `const ${meta}_url = new URL(${JSON.stringify(fromRoot)}, new URL('${ROOT_MARK}', import.meta.url)).href;`,
            `const ${meta}_filename = ${meta}_path(${meta}_url);`,
            `const ${meta}_dirname = ${meta}_path(new URL('.', ${meta}_url)).replace(/[\\/]$/, '');`,
          ].join('\n'),
          define: { 'import.meta.url': `${meta}_url`, 'import.meta.dirname': `${meta}_dirname`, 'import.meta.filename': `${meta}_filename` },
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/**
 * Compiles `files` (paths relative to the working directory) into `outDir`, which it empties
 * first; answers each file's compiled entry. Throws esbuild's error (file and line) when a file
 * does not compile.
 */
export async function compileEntries(files: string[], outDir: string): Promise<Map<string, string>> {
  return (await compileWithInputs(files, outDir)).entries;
}

/**
 * As compileEntries, and the project's files the output was made from (paths relative to it).
 * `sourcesRoot`: where the sources will lie beside the output when it runs (the working directory
 * unless the output is copied elsewhere with them).
 */
export async function compileWithInputs(
  files: string[],
  outDir: string,
  sourcesRoot = process.cwd(),
): Promise<{ entries: Map<string, string>; inputs: string[] }> {
  await rm(outDir, { recursive: true, force: true });
  if (files.length === 0) return { entries: new Map(), inputs: [] };
  const { metafile, outputFiles } = await build({
    entryPoints: files,
    outdir: outDir,
    outbase: '.',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    sourcesContent: false,
    // A package that is CommonJS-only still reaches `require` from a module of ours.
    banner: { js: "import { createRequire as __testCreateRequire } from 'node:module'; const require = __testCreateRequire(import.meta.url);" },
    plugins: [importMetaOfSource(process.cwd())],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  for (const output of outputFiles) {
    const toRoot = `${path.relative(path.dirname(output.path), sourcesRoot).split(path.sep).join('/') || '.'}/`;
    await mkdir(path.dirname(output.path), { recursive: true });
    await writeFile(output.path, output.text.replaceAll(ROOT_MARK, toRoot));
  }
  const entries = new Map(files.map((file) => [file, path.join(outDir, file.replace(/\.[cm]?[jt]sx?$/, '.mjs'))]));
  return { entries, inputs: Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/')) };
}
