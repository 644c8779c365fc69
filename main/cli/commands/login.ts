// `login [--bearer]`: the key comes on stdin (never an argument: other users can read those
// in the process list), is checked with GET /credits, and only then stored in the OS
// keychain. `logout` removes it.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { ENV } from '../context.ts';
import { CommandFailure, UsageError } from '../output.ts';
import { createApiClient, isApiError, type Credentials } from '../../engine/api/index.ts';
import { Keychain, KeychainError } from '../../engine/keychain.ts';
import { readSecret } from '../read-secret.ts';

export function registerLogin(program: Command, deps: CliDeps): void {
  program
    .command('login')
    .description('read the API key from stdin, check it, and keep it in the OS keychain')
    .option('--bearer', 'the key is an OAuth access token (sent as Authorization: Bearer)')
    // An argument here is most likely the key itself: refused below without repeating it.
    .allowExcessArguments(true)
    .action(
      action(deps, async (ctx, command) => {
        if (command.args.length > 0) {
          throw new UsageError(
            'login takes no argument: the key comes on stdin, never as an argument (every process on this computer can read arguments). Type it at the prompt, or pipe it in: printf %s "$KEY" | brand-sync login',
          );
        }
        const baseUrl = requireBaseUrl(ctx.config.baseUrl);
        const secret = await readSecret('API key: ', ctx.signal);
        if (secret === '') throw new UsageError('no key on stdin: pipe the key in, or type it.');
        ctx.output.addSecret(secret);
        const credentials: Credentials = {
          kind: command.opts<{ bearer?: boolean }>().bearer ? 'bearer' : 'api-key',
          secret,
        };
        const client = createApiClient({ baseUrl, credentials, signal: ctx.signal });
        try {
          await client.getCredits({}, { signal: ctx.signal });
        } catch (error) {
          if (isApiError(error) && error.kind === 'auth') {
            throw new CommandFailure(
              error.code,
              'the service refused this key; nothing was stored.',
            );
          }
          throw error;
        }
        keychainCall(() => new Keychain(baseUrl).save(credentials));
        ctx.output.result(
          { signedIn: true, baseUrl, kind: credentials.kind },
          () => `Signed in to ${baseUrl}; the key is in the OS keychain.`,
        );
      }),
    );

  program
    .command('logout')
    .description('remove the API key from the OS keychain')
    .action(
      action(deps, async (ctx) => {
        const baseUrl = requireBaseUrl(ctx.config.baseUrl);
        const removed = keychainCall(() => new Keychain(baseUrl).remove());
        ctx.output.result({ signedOut: removed, baseUrl }, () =>
          removed
            ? `Signed out of ${baseUrl}: the key was removed from the keychain.`
            : `No key was stored for ${baseUrl}.`,
        );
      }),
    );
}

function requireBaseUrl(baseUrl: string | undefined): string {
  if (!baseUrl) {
    throw new UsageError(`no service configured: pass --base-url URL or set ${ENV.baseUrl}.`);
  }
  return baseUrl;
}

function keychainCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof KeychainError) throw new CommandFailure(error.code, error.message);
    throw error;
  }
}
