// BRAND arguments: today a brand ID; later also the name of a brand folder under the sync
// root. Every command resolves them here, so that change happens in one place.
import { isUuid } from '../engine/api/index.ts';
import type { CliContext } from './context.ts';
import { UsageError } from './output.ts';

export async function resolveBrand(_ctx: CliContext, arg: string): Promise<string> {
  const value = arg.trim();
  if (isUuid(value)) return value;
  throw new UsageError(
    `"${arg}" is not a brand ID (a UUID such as 0b8e…); brand folder names are not supported yet.`,
  );
}
