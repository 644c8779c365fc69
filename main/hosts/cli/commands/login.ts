// `login [--bearer]`: the key comes on stdin (never an argument: other users can read those
// in the process list); the engine's sign-in checks it with GET /credits and only then stores
// it in the OS keychain. `logout` removes it. This file reads the key and words the outcome.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { ENV } from '../context.ts';
import { CommandFailure, UsageError } from '../output.ts';
import {
  apiErrorBehind,
  osKeyStore,
  signIn,
  SignInError,
  signOut,
} from '../../../engine/account/sign-in.ts';
import { KeychainError } from '../../../engine/account/keychain.ts';
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
        ctx.output.addSecret(secret);
        const kind = command.opts<{ bearer?: boolean }>().bearer ? 'bearer' : 'api-key';
        const signedIn = await engineCall(() =>
          signIn({ baseUrl, secret, kind, signal: ctx.signal, keyStore: osKeyStore }),
        );
        ctx.output.result(
          { signedIn: true, baseUrl, kind: signedIn.kind },
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
        const { removed } = await engineCall(() => signOut(osKeyStore, baseUrl));
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

/**
 * The engine's refusals as this command has always printed them (scripts read these lines):
 * its own sentences for an empty stdin and a refused key, the API error's own line when the
 * service was not reached, the keychain's words under their code.
 */
async function engineCall<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof SignInError) {
      if (error.code === 'INVALID_KEY') {
        throw new UsageError('no key on stdin: pipe the key in, or type it.');
      }
      if (error.code === 'INVALID_INPUT') throw new UsageError(error.message);
      const api = apiErrorBehind(error);
      if (error.code === 'AUTH_REFUSED' && api !== null) {
        throw new CommandFailure(api.code, 'the service refused this key; nothing was stored.');
      }
      if (api !== null) throw api;
    }
    if (error instanceof KeychainError) throw new CommandFailure(error.code, error.message);
    throw error;
  }
}
