// The `gateway` command line (docs/gateway.md, "Command line"). Exit codes: 0 done, 1 failed at
// run time (unreachable endpoint, unwritable file), 2 not understood (unknown command or flag,
// missing argument).
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { registerBrowse } from './browse';
import { CliError, err, out, paint, UsageError } from './output';
import type { McpOptions } from './mcp';

const USAGE_ERROR = 2;

/**
 * A command's action, its module loaded when that command runs: serve and check load the gateway and
 * the provider checks, login and whoami a WebSocket client, mcp the agent toolkit and the MCP SDK.
 * Help, version and usage errors need none of them.
 */
function lazy<A extends unknown[]>(load: () => Promise<(...args: A) => void | Promise<void>>): (...args: A) => Promise<void> {
  return async (...args) => {
    await (
      await load()
    )(...args);
  };
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function buildProgram(): Command {
  const version = packageVersion();
  const program = newProgram(version);
  registerGatewayCommands(program);
  registerAgentCommands(program, version);
  registerBrowse(program);
  program
    .command('version')
    .description('print the installed version')
    .action(() => {
      out(version);
    });
  return program;
}

/** The program itself: its name, version and help, and how it answers an error. */
function newProgram(version: string): Command {
  return (
    new Command('gateway')
      .description('The command line of the self-hosted browser gateway (docs: docs/gateway.md).')
      .version(version, '-v, --version', 'print the installed version')
      .helpOption('-h, --help', 'show help for a command')
      .helpCommand('help [command]', 'show help for a command')
      // Set before the commands are added, so each inherits it.
      .exitOverride()
      .showHelpAfterError('(run "gateway help" for usage)')
      .configureHelp({ styleTitle: (title) => `\x1b[1m${title}\x1b[22m`, sortSubcommands: false })
      .configureOutput({ outputError: (text, write) => write(`${paint(process.stderr).red(text.trimEnd())}\n`) })
  );
}

/** Running a gateway and pointing the other commands at one. */
function registerGatewayCommands(program: Command): void {
  program
    .command('serve')
    .description('start the gateway from gateway.yml: /v1/connect, /v1/status, /mcp, webhooks and the dashboard')
    .option('--config <path>', "the gateway.yml to read (default: GW_CONFIG_PATH, then the data directory's gateway.yml, then ./gateway.yml)")
    .option('--port <number>', 'port to listen on (default: PORT, then gateway.port, 9500)')
    .action(lazy(async () => (await import('./serve')).serve));

  program
    .command('check')
    .description('try every provider of the configuration file; one line each, exit code 0 only when all answer')
    .option('--config <path>', "the gateway.yml to read (default: GW_CONFIG_PATH, then the data directory's gateway.yml, then ./gateway.yml)")
    .action(lazy(async () => (await import('./check')).check));

  program
    .command('login')
    .description('check that a gateway answers, then save its address and token for the other commands')
    .option('--endpoint <url>', 'gateway base URL, a /v1/connect URL or a browser /devtools/ URL (default: GW_ENDPOINT)')
    .option('--token <token>', 'the token it expects (default: GW_TOKEN)')
    .action(lazy(async () => (await import('./account')).login));

  program
    .command('logout')
    .description('delete the saved address and token')
    .action(lazy(async () => (await import('./account')).logout));

  program
    .command('whoami')
    .description('show the address and token in use, where each comes from, and whether the gateway answers')
    .action(lazy(async () => (await import('./account')).whoami));
}

/** What coding agents use: the skill file and the MCP server. */
function registerAgentCommands(program: Command, version: string): void {
  program
    .command('skills')
    .description('write the agent skill file (SKILL.md) that teaches coding agents to use "gateway browse"')
    .option('--dir <path>', 'write it into this folder (default: the skill folders of Claude Code and Codex, if installed; else print it)')
    .action(lazy(async () => (await import('./skill')).skills));

  program
    .command('mcp')
    .description('serve the browser tools to an agent tool (Claude Desktop, Claude Code, Cursor…) as an MCP server on stdin/stdout')
    .option(
      '--cdp-endpoint <url>',
      "use as the only provider (default: launch a local Chrome or Chromium on first use): a browser's ws://…/devtools/browser/… address, http://host:port (or ws://host:port) of a browser started with --remote-debugging-port, or a gateway's or router's connect URL (ws(s)://host:port/v1/connect?token=…, or http(s)://…); with --config or --port, the internal gateway's only provider",
    )
    .option(
      '--config <path>',
      'a gateway.yml for the internal gateway (started inside this process, on loopback): its settings, and its providers unless --cdp-endpoint is given',
    )
    .addOption(
      new Option('--headless', 'start the local Chromium without a window (the default on Linux without DISPLAY or WAYLAND_DISPLAY)').conflicts('cdpEndpoint'),
    )
    .option(
      '--port <number>',
      "internal gateway, default 9500 (with --config, PORT and then the file's gateway.port come first); with --cdp-endpoint, its browsers then go through a gateway on this port; no effect without --cdp-endpoint or --config",
    )
    .action(
      lazy(async () => {
        const { mcp } = await import('./mcp');
        return (options: McpOptions) => mcp(options, version);
      }),
    );
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  process.exitCode = undefined;
  try {
    const program = buildProgram();
    // commander answers `help <unknown>` with the general help; name the mistake instead.
    if (argv[0] === 'help' && argv[1] && !program.commands.some((command) => command.name() === argv[1] || argv[1] === 'help')) {
      program.error(`error: unknown command '${argv[1]}'`);
    }
    await program.parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : USAGE_ERROR;
    const message = error instanceof CliError ? error.message : `unexpected failure: ${(error as Error).stack ?? error}`;
    err(`${paint(process.stderr).red('error:')} ${message}`);
    return error instanceof UsageError ? USAGE_ERROR : 1;
  }
}
