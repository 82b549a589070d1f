#!/usr/bin/env node
// The `gateway` command (docs/gateway.md, "Command line"). The tool is written in TypeScript and
// shipped as source, so this launcher registers tsx's loader before importing it. tsx is given
// this package's own tsconfig: left to itself it would read whatever tsconfig.json sits in the
// directory the user runs the command from.
//
// Two shortcuts keep `gateway browse` quick. A well-formed browse command is run by the plain
// JavaScript client (proxy/cli/browse-client.mjs) without tsx, commander or the agent toolkit, so a
// step on a running session costs little more than Node's start; anything else (help, a usage
// error) goes through commander as usual. And a session's daemon is started without the rest of
// the command line's modules.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Every log line of every command names this process (lib/log.ts reads it when the logger is
// made, at import); an explicit SERVICE_NAME still wins.
process.env.SERVICE_NAME ??= 'gateway';

const argv = process.argv.slice(2);
const browse = argv[0] === 'browse' ? await import('./browse-client.mjs') : null;
const request = browse?.parseBrowseArgs(argv.slice(1));
if (request) {
  process.exitCode = await browse.execute(request);
} else {
  const { register } = await import('tsx/esm/api');
  const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  register({ tsconfig: existsSync(tsconfig) ? tsconfig : false });
  // A command's stdout is its output (for `gateway mcp`, JSON-RPC and nothing else): the modules it
  // loads log to stderr (lib/log.ts). Set before they are imported, since the logger is made then.
  process.env.LOG_DESTINATION = 'stderr';
  if (argv[0] === 'browse-daemon' && argv[1] === '--session' && argv.length === 3) {
    const { runDaemon } = await import('./browse-daemon.ts');
    process.exitCode = await runDaemon(argv[2]);
  } else {
    const { main } = await import('./main.ts');
    process.exitCode = await main(argv);
  }
}
