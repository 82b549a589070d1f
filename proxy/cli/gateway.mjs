#!/usr/bin/env node
// The `gateway` command (docs/gateway.md, "Command line"). The tool is written in TypeScript and
// shipped as source, so this launcher registers tsx's loader before importing it. tsx is given
// this package's own tsconfig: left to itself it would read whatever tsconfig.json sits in the
// directory the user runs the command from.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
register({ tsconfig: existsSync(tsconfig) ? tsconfig : false });
// A command's stdout is its output (for `gateway mcp`, JSON-RPC and nothing else): the modules it
// loads log to stderr (lib/log.ts). Set before main.ts is imported, since the logger is made then.
process.env.LOG_DESTINATION = 'stderr';
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
