// TypeScript compiled ahead into plain JavaScript: the services `npm start` and the test stack run
// (scripts/lib/build.ts) and the test files (scripts/test.ts). Under `--import tsx` every module a
// process loads (the packages too) goes through tsx's loader hooks, which on Node 20 run on a
// thread of their own: loading the proxy's code that way cost about two seconds of CPU, against
// one compiled.
//
// One esbuild call bundles the entries (with the chunks they share); packages stay imports, so
// they load from node_modules as before. Every module keeps its own `import.meta.url`, `dirname`
// and `filename` (a module finds its fixtures, scripts and the Prisma engine beside its source),
// and inline source maps make stack traces name the .ts files and lines (run with
// `--enable-source-maps`).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transform, type Loader, type Plugin } from 'esbuild';

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx' };

/** Replaces `import.meta.url`, `.dirname` and `.filename` in each module of ours with its source's. */
const importMetaOfSource: Plugin = {
  name: 'import-meta-of-source',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      // esbuild's define replaces the expressions only (not the same words inside a string); the
      // inline source map of this step is followed by the bundle's, so lines stay the source's.
      const { code } = await transform(source, {
        loader: LOADERS[path.extname(args.path)] ?? 'ts',
        jsx: 'automatic',
        sourcemap: 'inline',
        sourcefile: args.path,
        define: {
          'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
          'import.meta.dirname': JSON.stringify(path.dirname(args.path)),
          'import.meta.filename': JSON.stringify(args.path),
        },
      });
      return { contents: code, loader: 'js' };
    });
  },
};

/**
 * Compiles `files` (paths relative to the working directory) into `outDir`, which it empties
 * first; answers each file's compiled entry. Throws esbuild's error (file and line) when a file
 * does not compile.
 */
export async function compileEntries(files: string[], outDir: string): Promise<Map<string, string>> {
  return (await compileWithInputs(files, outDir)).entries;
}

/** As compileEntries, and the project's files the output was made from (paths relative to it). */
export async function compileWithInputs(files: string[], outDir: string): Promise<{ entries: Map<string, string>; inputs: string[] }> {
  await rm(outDir, { recursive: true, force: true });
  if (files.length === 0) return { entries: new Map(), inputs: [] };
  const { metafile } = await build({
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
    plugins: [importMetaOfSource],
    metafile: true,
    logLevel: 'silent',
  });
  const entries = new Map(files.map((file) => [file, path.join(outDir, file.replace(/\.[cm]?[jt]sx?$/, '.mjs'))]));
  return { entries, inputs: Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/')) };
}
