// BRAND as a person or a script names it (docs/product.md): a brand ID, or the name of its folder
// under the sync root; also the brand's name, in any case, when no other brand has it. Looked
// up in the local store only: it works offline and without a key. The CLI and the bridge
// both resolve through here.
import { isUuid } from '../api/index.ts';
import { folderNameKey } from '../folder-parts/brand-folders.ts';
import { brandDisplayName } from '../store/index.ts';
import type { Brand, Store } from '../store/index.ts';
import { CodedError } from '../core/coded-error.ts';

/** Candidates named in an error, at most. */
const MAX_CANDIDATES = 10;

export type BrandLookupErrorCode =
  'BRAND_EMPTY' | 'BRAND_UNKNOWN' | 'BRAND_AMBIGUOUS' | 'NO_BRANDS_YET';

export class BrandLookupError extends CodedError<BrandLookupErrorCode> {}

/**
 * The brand ID that `arg` names in this store: an ID as it is (known here or not), else
 * the brand whose folder has that name, else the one brand with that name (any case).
 */
export function lookupBrand(store: Store | null, arg: string): string {
  const value = requireArg(arg);
  // UUIDs ignore case; the store keeps them as the service sent them.
  if (isUuid(value)) {
    if (store === null) return value;
    return (store.brands.get(value) ?? store.brands.get(value.toLowerCase()))?.id ?? value;
  }
  if (store === null) throw noBrandsYet(value);
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
    throw new BrandLookupError(
      'BRAND_AMBIGUOUS',
      `"${value}" could be ${ambiguous.length} brands: ${candidates(ambiguous)}; pass the brand's ID or folder name.`,
    );
  }
  if (brands.length === 0) throw noBrandsYet(value);
  const near = brands.filter(
    (b) =>
      (b.folderName !== null && folderNameKey(b.folderName).includes(key)) ||
      (b.name !== null && folderNameKey(b.name).includes(key)),
  );
  throw new BrandLookupError(
    'BRAND_UNKNOWN',
    `no brand has the ID, folder or name "${value}"; ${near.length > 0 ? 'did you mean' : 'known brands'}: ${candidates(near.length > 0 ? near : brands)}.`,
  );
}

function noBrandsYet(value: string): BrandLookupError {
  return new BrandLookupError(
    'NO_BRANDS_YET',
    `"${value}" is not a brand ID, and no brands are known on this machine yet: run \`brand-sync sync --once\` first, or pass the brand's ID.`,
  );
}

function requireArg(arg: string): string {
  const value = arg.trim();
  if (value === '') {
    throw new BrandLookupError(
      'BRAND_EMPTY',
      'BRAND cannot be empty: pass a brand ID or folder name.',
    );
  }
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
