// BRAND arguments (docs/product.md): resolved by the engine's lookup (main/engine/views/brand-lookup.ts) in
// the local store, opened read-only: it works offline, without a key, while the engine
// runs, and never creates or changes the database. Every command resolves BRAND here.
import { BrandLookupError, lookupBrand } from '../../engine/views/brand-lookup.ts';
import { openStoreReadOnly } from '../../engine/store/index.ts';
import type { Store } from '../../engine/store/index.ts';
import type { CliContext } from './context.ts';
import { UsageError } from './output.ts';

/** The brand ID that `arg` names; a UsageError when none or more than one brand fits. */
export async function resolveBrand(ctx: CliContext, arg: string): Promise<string> {
  const store = arg.trim() === '' ? null : openStoreReadOnly(ctx.config.dataDir);
  try {
    return lookupIn(store, arg);
  } finally {
    store?.close();
  }
}

/** The same lookup in an open store; its refusals are bad usage (exit 2). */
export function lookupIn(store: Store | null, arg: string): string {
  try {
    return lookupBrand(store, arg);
  } catch (error) {
    if (error instanceof BrandLookupError) throw new UsageError(error.message);
    throw error;
  }
}
