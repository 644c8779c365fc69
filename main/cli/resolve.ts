// BRAND arguments (PRODUCT.md): a brand ID, or the name of its folder under the sync root;
// also the brand's name, in any case, when no other brand has it. Names are looked up in
// the local store, opened read-only: it works offline, without a key, while the engine
// runs, and never creates or changes the database. Every command resolves BRAND here.
import { isUuid } from '../engine/api/index.ts';
import { folderNameKey } from '../engine/folders/brand-folders.ts';
import { brandDisplayName, openStoreReadOnly } from '../engine/store/index.ts';
import type { Brand, Store } from '../engine/store/index.ts';
import type { CliContext } from './context.ts';
import { UsageError } from './output.ts';

/** Candidates named in an error, at most. */
const MAX_CANDIDATES = 10;

/** The brand ID that `arg` names; a UsageError when none or more than one brand fits. */
export async function resolveBrand(ctx: CliContext, arg: string): Promise<string> {
  const value = requireArg(arg);
  if (isUuid(value)) return value;
  const store = openStoreReadOnly(ctx.config.dataDir);
  if (store === null) {
    throw noBrandsYet(value);
  }
  try {
    return lookupBrand(store, value);
  } finally {
    store.close();
  }
}

/**
 * The brand ID that `arg` names in this store: an ID as it is (known here or not), else
 * the brand whose folder has that name, else the one brand with that name (any case).
 */
export function lookupBrand(store: Store, arg: string): string {
  const value = requireArg(arg);
  // UUIDs ignore case; the store keeps them as the service sent them.
  if (isUuid(value))
    return (store.brands.get(value) ?? store.brands.get(value.toLowerCase()))?.id ?? value;
  const key = folderNameKey(value);
  const brands = store.brands.list({ includeDeleted: true });
  const byFolder = brands.filter(
    (b) => b.folderName !== null && folderNameKey(b.folderName) === key,
  );
  // Two folders differing only in case can exist on a case-sensitive disk: the exact one wins.
  const exactFolder = byFolder.filter((b) => b.folderName === value);
  const folderMatch = byFolder.length === 1 ? byFolder : exactFolder;
  if (folderMatch.length === 1) return (folderMatch[0] as Brand).id;
  const byName = brands.filter((b) => b.name !== null && folderNameKey(b.name) === key);
  if (byFolder.length === 0 && byName.length === 1) return (byName[0] as Brand).id;
  const ambiguous = [...new Set([...byFolder, ...byName])];
  if (ambiguous.length > 1) {
    throw new UsageError(
      `"${value}" could be ${ambiguous.length} brands: ${candidates(ambiguous)}; pass the brand's ID or folder name.`,
    );
  }
  if (brands.length === 0) {
    throw noBrandsYet(value);
  }
  const near = brands.filter(
    (b) =>
      (b.folderName !== null && folderNameKey(b.folderName).includes(key)) ||
      (b.name !== null && folderNameKey(b.name).includes(key)),
  );
  throw new UsageError(
    `no brand has the ID, folder or name "${value}"; ${near.length > 0 ? 'did you mean' : 'known brands'}: ${candidates(near.length > 0 ? near : brands)}.`,
  );
}

function noBrandsYet(value: string): UsageError {
  return new UsageError(
    `"${value}" is not a brand ID, and no brands are known on this machine yet: run \`brand-sync sync --once\` first, or pass the brand's ID.`,
  );
}

function requireArg(arg: string): string {
  const value = arg.trim();
  if (value === '') throw new UsageError('BRAND cannot be empty: pass a brand ID or folder name.');
  return value;
}

/** `Acme (folder "Acme", ID 0b8e…)`, at most MAX_CANDIDATES of them. */
function candidates(brands: readonly Brand[]): string {
  const shown = brands.slice(0, MAX_CANDIDATES).map((b) => {
    const folder = b.folderName === null ? 'no folder' : `folder "${b.folderName}"`;
    const gone = b.deletedRemotely ? ', deleted on the service' : '';
    return `${brandDisplayName(b)} (${folder}, ID ${b.id}${gone})`;
  });
  const more = brands.length - shown.length;
  return (
    shown.join(', ') + (more > 0 ? ` and ${more} more (\`brand-sync status\` lists them)` : '')
  );
}
