// The `brand-sync` command line: global options, one module per command group, and bad
// usage turned into exit code 2 with one clear line. New command groups register here.
import { Command, CommanderError, Option } from 'commander';
import type { CliDeps } from './action.ts';
import { registerBrands } from './commands/brands.ts';
import { registerCredits } from './commands/credits.ts';
import { registerDemo } from './commands/demo.ts';
import { registerLogin } from './commands/login.ts';
import { registerEdits } from './commands/edits.ts';
import { registerExports } from './commands/exports.ts';
import { registerFiles } from './commands/files.ts';
import { registerLibrary } from './commands/library.ts';
import { registerImages } from './commands/images.ts';
import { registerPause } from './commands/pause.ts';
import { registerRun } from './commands/run.ts';
import { registerServe } from './commands/serve.ts';
import { registerSimulator } from './commands/simulator.ts';
import { registerSkills } from './commands/skills.ts';
import { registerStatus } from './commands/status.ts';
import { registerSync } from './commands/sync.ts';
import { registerVideos } from './commands/videos.ts';
import { ENV } from './context.ts';
import { EXIT, Output, type ExitCode } from './output.ts';

const REGISTER = [
  registerLogin,
  registerStatus,
  registerSync,
  registerRun,
  registerPause,
  registerServe,
  registerFiles,
  registerCredits,
  registerBrands,
  registerLibrary,
  registerSimulator,
  registerExports,
  registerSkills,
  registerEdits,
  registerImages,
  registerVideos,
  registerDemo,
];

export function buildProgram(deps: CliDeps): Command {
  const program = new Command('brand-sync')
    .description('Keeps your brands on the Brand Asset Service in sync with folders on disk.')
    .addOption(new Option('--base-url <url>', 'the service base URL, with /v1').env(ENV.baseUrl))
    .addOption(new Option('--data-dir <dir>', 'where Brand Sync keeps its data').env(ENV.dataDir))
    .addOption(
      new Option('--root <dir>', 'the sync root holding one folder per brand').env(ENV.root),
    )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => (deps.streams?.stdout ?? ((t: string) => process.stdout.write(t)))(text),
      writeErr: (text) => (deps.streams?.stderr ?? ((t: string) => process.stderr.write(t)))(text),
      // One line: "brand-sync: unknown command 'lst' (Did you mean list?); see --help".
      outputError: (text, write) =>
        write(
          `brand-sync: ${text
            .replace(/^error: /, '')
            .trim()
            .split(/\s*\n\s*/)
            .join(' ')}; see --help\n`,
        ),
    })
    .addHelpText(
      'after',
      `
The API key is kept in the OS keychain by \`login\`; where no keychain can be reached,
${ENV.apiKey} supplies it for one process. It is never an argument.
Exit codes: 0 done, 1 the operation failed, 2 bad usage.`,
    );
  for (const register of REGISTER) register(program, deps);
  return program;
}

/** Runs one command line; resolves with its exit code (it never throws, never exits). */
export async function runCli(
  argv: readonly string[],
  deps: Omit<CliDeps, 'setExitCode'>,
): Promise<ExitCode> {
  let code: ExitCode = EXIT.ok;
  const program = buildProgram({ ...deps, setExitCode: (c) => (code = c) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version asked for are success; help shown for a missing command is bad usage.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
        return EXIT.ok;
      return EXIT.usage;
    }
    return new Output({ json: false, ...(deps.streams ? { streams: deps.streams } : {}) }).failure(
      error,
    );
  }
}
