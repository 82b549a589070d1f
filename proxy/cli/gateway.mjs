#!/usr/bin/env node
// The `gateway` command (docs/gateway.md, "Command line"). The tool is written in TypeScript; this
// launcher runs it compiled ahead (the package carries that copy; in a checkout, `npm start` and
// `npm test` make it) and only a checkout whose sources changed since falls back to tsx's loader.
// tsx is then given this project's own tsconfig: left to itself it would read whatever
// tsconfig.json sits in the directory the user runs the command from.
//
// Two shortcuts keep `gateway browse` quick. A well-formed browse command is run by the plain
// JavaScript client (proxy/cli/browse-client.mjs) without tsx, commander or the agent toolkit, so a
// step on a running session costs little more than Node's start; anything else (help, a usage
// error) goes through commander as usual. And a session's daemon is started without the rest of
// the command line's modules.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Every log line of every command names this process (lib/log.ts reads it when the logger is
// made, at import); an explicit SERVICE_NAME still wins.
process.env.SERVICE_NAME ??= 'gateway';

const argv = process.argv.slice(2);
const request = argv[0] === 'browse' ? (await import('./browse-args.mjs')).parseBrowseArgs(argv.slice(1)) : null;
if (request) {
  const { execute } = await import('./browse-client.mjs');
  process.exitCode = await execute(request);
} else {
  // The command compiled ahead (scripts/lib/build.ts) when it was made from these very sources;
  // otherwise tsx compiles the sources as they are (a checkout has it; the package needs it not).
  const { compiledFromTheseSources } = await import('./compiled-command.mjs');
  const compiled = compiledFromTheseSources(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));
  if (compiled) {
    process.setSourceMapsEnabled(true);
  } else {
    const { register } = await import('tsx/esm/api').catch(() => {
      console.error(
        'gateway: this copy has no compiled command matching its sources, and no tsx to run them (reinstall the package, or run `npm ci` in a checkout)',
      );
      process.exit(1);
    });
    const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
    register({ tsconfig: existsSync(tsconfig) ? tsconfig : false });
  }
  const fromCompiled = (name) => import(pathToFileURL(path.join(compiled, 'proxy', 'cli', `${name}.mjs`)).href);
  // Literal imports of the sources: the gateway's package reads its files from them (scripts/lib/gateway-package.ts).
  const load = {
    daemon: () => (compiled ? fromCompiled('browse-daemon') : import('./browse-daemon.ts')),
    main: () => (compiled ? fromCompiled('main') : import('./main.ts')),
  };
  // A command's stdout is its output (for `gateway mcp`, JSON-RPC and nothing else): the modules it
  // loads log to stderr (lib/log.ts). Set before they are imported, since the logger is made then.
  process.env.LOG_DESTINATION = 'stderr';
  if (argv[0] === 'browse-daemon' && argv[1] === '--session' && argv.length === 3) {
    const { runDaemon } = await load.daemon();
    process.exitCode = await runDaemon(argv[2]);
  } else {
    const { main } = await load.main();
    process.exitCode = await main(argv);
  }
}
