// `gateway browse <verb>` (docs/gateway.md, "browse"): the verbs of proxy/cli/browse-args.mjs as
// commander commands, for help and usage errors. A well-formed command line never gets here: the
// launcher hands it to that client at once (proxy/cli/gateway.mjs), and this is the same client's
// way in after commander parsed the line. The daemon behind each session is proxy/cli/browse-daemon.ts,
// started as the hidden command `browse-daemon`.
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { execute } from './browse-client.mjs';
import {
  COMMON_OPTIONS,
  DEFAULT_SESSION,
  VERBS,
  checkRequest,
  optionValue,
  type BrowseFlags,
  type BrowseRequest,
  type OptionSpec,
  type VerbSpec,
} from './browse-args.mjs';
import { UsageError } from './output';

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.value ? `${spec.flag} <${spec.value}>` : spec.flag, spec.description);
  if (spec.choices) option.choices(spec.choices);
  else if (spec.type) {
    option.argParser((text: string) => {
      const value = optionValue(spec, text);
      if (value === null) {
        throw new InvalidArgumentError(
          spec.type === 'session'
            ? 'use 1 to 64 letters, digits, - or _'
            : spec.type === 'minutes'
              ? 'give a positive number of minutes'
              : 'give a positive whole number of milliseconds',
        );
      }
      return value;
    });
  }
  return option;
}

/** The request of a parsed verb command, or a usage error. */
function requestOf(verb: VerbSpec, parsed: Command): BrowseRequest {
  const options = parsed.optsWithGlobals();
  const flags: BrowseFlags = { session: DEFAULT_SESSION, json: false };
  for (const spec of [...COMMON_OPTIONS, ...(verb.options ?? [])]) {
    if (options[spec.key] !== undefined) (flags as unknown as Record<string, unknown>)[spec.key] = options[spec.key];
  }
  const args = (parsed.processedArgs as (string | undefined)[]).filter((arg): arg is string => arg !== undefined);
  const checked = checkRequest(verb.name, args, flags);
  if (checked.error !== undefined) throw new UsageError(checked.error);
  return checked.request;
}

/** Adds `browse` and its verbs (and the hidden `browse-daemon`); `run` is the client, replaced in tests. */
export function registerBrowse(program: Command, run: (request: BrowseRequest) => Promise<number> = execute): void {
  const browse = program
    .command('browse')
    .description('drive a browser from the shell, one step per command; it stays open between commands (one background process per --session)')
    .usage('<verb> [arguments] [options]')
    .configureHelp({
      ...program.configureHelp(),
      showGlobalOptions: true,
      // Verbs listed as they are written: `click @eN`, `press [@eN] <key>`.
      subcommandTerm: (command) => {
        const verb = VERBS.find((v) => v.name === command.name());
        return verb ? `${verb.name}${verb.usage ? ` ${verb.usage}` : ''}` : `${command.name()} [command]`;
      },
    });
  for (const spec of COMMON_OPTIONS) browse.addOption(toOption(spec));

  for (const verb of VERBS) {
    const command = browse
      .command(verb.name)
      .description(verb.summary)
      .usage(`${verb.usage ? `${verb.usage} ` : ''}[options]`);
    for (const spec of verb.args) {
      const argument = new Argument(spec.required ? `<${spec.name}>` : `[${spec.name}]`, spec.description);
      if (spec.choices) argument.choices(spec.choices);
      command.addArgument(argument);
    }
    for (const spec of verb.options ?? []) command.addOption(toOption(spec));
    command.action(async (...params: unknown[]) => {
      const code = await run(requestOf(verb, params.at(-1) as Command));
      if (code !== 0) process.exitCode = code;
    });
  }

  // The daemon of one session; the launcher starts it directly, this is the same way in through main.
  program
    .command('browse-daemon', { hidden: true })
    .requiredOption('--session <name>')
    .action(async (options: { session: string }) => {
      const { runDaemon } = await import('./browse-daemon');
      process.exitCode = await runDaemon(options.session);
    });
}
