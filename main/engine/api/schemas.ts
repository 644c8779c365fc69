// Response schemas of the Brand Asset Service. They accept what the service may add:
// objects are loose (unknown fields kept), enumerated values are plain strings (known
// values are handled in code), and only the fields the interface document marks as
// always present are required. Everything else is optional, and `null` is accepted
// wherever a value is "when known".
import { z } from 'zod';

const str = z.string();
const optStr = z.string().nullish();
const optInt = z.number().int().nullish();
const optBool = z.boolean().nullish();

/** Every success body is `{data: …}` (interface document, Conventions). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ data });
}

/** `{error: {code, status, message, data?}}`; read leniently since it only explains a failure. */
export const ErrorEnvelope = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    status: z.number().optional(),
    message: z.string().optional(),
    data: z.unknown().optional(),
  }),
});

// ---- Account ---------------------------------------------------------------------------

export const CreditBalance = z.looseObject({ balance: z.number(), unlimited: z.boolean() });
export type CreditBalance = z.infer<typeof CreditBalance>;

/** assumed: not in the interface document (docs/service.md, Workspaces and account). */
export const Workspace = z.looseObject({
  id: z.string().nullable(),
  name: str,
  is_personal: optBool,
});
export type Workspace = z.infer<typeof Workspace>;
export const WorkspaceList = z.looseObject({ workspaces: z.array(Workspace) });

/** assumed: not in the interface document (docs/service.md, Workspaces and account). */
export const Account = z.looseObject({ email: optStr, name: optStr });
export type Account = z.infer<typeof Account>;

// ---- Brands ----------------------------------------------------------------------------

export const BrandFailure = z.looseObject({ code: optStr, message: optStr });

/** Only id and status are documented; the rest is the assumption of docs/service.md (Brand record). */
export const Brand = z.looseObject({
  id: str,
  status: str,
  name: optStr,
  url: optStr,
  logoUrl: optStr,
  colors: z.unknown().optional(),
  fonts: z.unknown().optional(),
  summary: optStr,
  workspaceId: optStr,
  workspaceName: optStr,
  failure: BrandFailure.nullish(),
  skillId: optStr,
  createdAt: optStr,
});
export type Brand = z.infer<typeof Brand>;

/**
 * assumed: not in the interface document (docs/service.md, `GET /brands` list shape): `brands`, or
 * `items` in its place; `nextCursor` null or absent on the last page.
 */
export const BrandListPage = z
  .looseObject({
    brands: z.array(Brand).optional(),
    items: z.array(Brand).optional(),
    nextCursor: optStr,
    hasMore: optBool,
  })
  .refine((page) => page.brands !== undefined || page.items !== undefined, {
    message: 'expected a "brands" (or "items") array',
    path: ['brands'],
  })
  .transform((page) => ({
    items: page.brands ?? page.items ?? [],
    nextCursor: page.nextCursor ?? null,
    hasMore: page.hasMore ?? (page.nextCursor != null && page.nextCursor !== ''),
  }));

export const BrandCreation = z.looseObject({ id: str, status: str });
export type BrandCreation = z.infer<typeof BrandCreation>;

/**
 * assumed: not in the interface document (docs/service.md, a website that matches an existing
 * brand; the shape is ours): `409 DUPLICATE_BRAND` whose `data.brands` lists the matches.
 */
export const DUPLICATE_BRAND_CODE = 'DUPLICATE_BRAND';
export const DuplicateBrands = z.looseObject({
  brands: z.array(z.looseObject({ id: str, name: optStr, url: optStr, status: optStr })),
});
export type DuplicateBrand = z.infer<typeof DuplicateBrands>['brands'][number];

/** assumed: not in the interface document (docs/service.md, `DELETE /brands/{id}` answer). */
export const DeletedBrand = z.looseObject({
  id: optStr,
  name: optStr,
  workspaceId: optStr,
  workspaceName: optStr,
});
export type DeletedBrand = z.infer<typeof DeletedBrand>;

// ---- Beta Brand Skills -----------------------------------------------------------------

export const BrandSkillCreation = z.looseObject({ id: str, brandId: str, status: str });
export type BrandSkillCreation = z.infer<typeof BrandSkillCreation>;

/** assumed: not in the interface document (docs/service.md, The beta Skill's ZIP): the ZIP is `{url}` or `{contentBase64}`. */
export const BrandSkillZip = z.looseObject({ url: optStr, contentBase64: optStr });

export const BrandSkill = z.looseObject({
  id: str,
  status: str,
  brandId: optStr,
  zip: BrandSkillZip.nullish(),
});
export type BrandSkill = z.infer<typeof BrandSkill>;

// ---- Exports ---------------------------------------------------------------------------

export const BrandExport = z.looseObject({
  id: str,
  skillId: str,
  status: str,
  download: z.looseObject({ url: str }).nullish(),
  failure: z.looseObject({ retryable: optBool, code: optStr, message: optStr }).nullish(),
});
export type BrandExport = z.infer<typeof BrandExport>;

// ---- Media, Library, images ------------------------------------------------------------

/** The document marks every field of a media file as required; "when known" ones may be null. */
export const MediaFile = z.looseObject({
  id: str,
  type: str,
  source: str,
  brandSessionId: str,
  workspaceId: z.string().nullable(),
  mimeType: str,
  url: str,
  fileSize: z.number().int().min(0),
  durationMs: optInt,
  width: optInt,
  height: optInt,
  description: optStr,
  inLibrary: z.boolean(),
  addedToLibraryAt: optStr,
  generationId: optStr,
  createdAt: str,
});
export type MediaFile = z.infer<typeof MediaFile>;

export const LibraryPage = z
  .looseObject({
    items: z.array(MediaFile),
    nextCursor: optStr,
    hasMore: z.boolean(),
  })
  .transform((page) => ({ ...page, nextCursor: page.nextCursor ?? null }));
export type LibraryPage = z.infer<typeof LibraryPage>;

export const Image = z.looseObject({
  id: str,
  status: str,
  source: optStr,
  failureReason: optStr,
  prompt: optStr,
  description: optStr,
  imageUrl: optStr,
  aspectRatio: optStr,
  width: optInt,
  height: optInt,
  actionType: optStr,
  variantGroupId: optStr,
  workspaceId: optStr,
  workspaceName: optStr,
  createdAt: optStr,
});
export type Image = z.infer<typeof Image>;

/** assumed: not in the interface document (docs/service.md, image edit): `{id, status: pending}`, id the new image. */
export const ImageEditResult = z.looseObject({ id: str, status: optStr });
export type ImageEditResult = z.infer<typeof ImageEditResult>;

// ---- Uploads ---------------------------------------------------------------------------

export const ImageUploadResult = z.looseObject({
  id: str,
  imageUrl: optStr,
  width: optInt,
  height: optInt,
  mimeType: optStr,
  existing: optBool,
});
export type ImageUploadResult = z.infer<typeof ImageUploadResult>;

export const LogoUpdate = z.looseObject({ id: str, status: str });
export type LogoUpdate = z.infer<typeof LogoUpdate>;

/** assumed: not in the interface document (docs/service.md, Staging a local file). */
export const StagedUpload = z.looseObject({ id: str, uploadUrl: str, expiresAt: optStr });
export type StagedUpload = z.infer<typeof StagedUpload>;

// ---- Brand Edits -----------------------------------------------------------------------

const DiffLine = z.looseObject({ kind: optStr, text: optStr, noNewlineAtEndOfFile: optBool });
const Hunk = z.looseObject({
  oldStart: optInt,
  oldLines: optInt,
  newStart: optInt,
  newLines: optInt,
  lines: z.array(DiffLine).nullish(),
});
const ChangeSet = z.looseObject({
  schemaVersion: optInt,
  baseSkillId: optStr,
  targetSkillId: optStr,
  profileChanges: z
    .array(
      z.looseObject({
        kind: optStr,
        path: optStr,
        operation: optStr,
        previous: z.unknown().optional(),
        next: z.unknown().optional(),
      }),
    )
    .nullish(),
  markdownChanges: z
    .array(
      z.looseObject({
        path: optStr,
        operation: optStr,
        additions: optInt,
        deletions: optInt,
        hunks: z.array(Hunk).nullish(),
        truncated: optBool,
      }),
    )
    .nullish(),
  assetChanges: z
    .array(
      z.looseObject({
        kind: optStr,
        role: optStr,
        operation: optStr,
        previousAssetId: optStr,
        nextAssetId: optStr,
      }),
    )
    .nullish(),
});
const Bounds = z.looseObject({ min: optInt, max: optInt });
const Font = z.looseObject({ source: optStr, family: optStr });

/** Which edit-record fields are optional is not shown: only id and status are required. */
export const BrandEdit = z.looseObject({
  id: str,
  status: str,
  brandId: optStr,
  baseSkillId: optStr,
  target: z.looseObject({ skillId: optStr }).nullish(),
  changeSet: ChangeSet.nullish(),
  targetProfile: z
    .looseObject({
      name: optStr,
      primaryLogo: z.looseObject({ imageId: optStr }).nullish(),
      colors: z.array(z.looseObject({ hex: optStr })).nullish(),
      typography: z.looseObject({ heading: Font.nullish(), body: Font.nullish() }).nullish(),
    })
    .nullish(),
  interaction: z
    .looseObject({
      id: optStr,
      subject: optStr,
      prompt: optStr,
      kind: optStr,
      accepts: z
        .looseObject({
          text: z
            .looseObject({ required: optBool, minLength: optInt, maxLength: optInt })
            .nullish(),
          images: Bounds.nullish(),
          sources: Bounds.nullish(),
        })
        .nullish(),
    })
    .nullish(),
  replacement: z
    .looseObject({ replacesEditId: optStr, replacedByEditId: optStr, discardReason: optStr })
    .nullish(),
  changeSummary: optStr,
  statusMessage: optStr,
  error: z.looseObject({ code: optStr, message: optStr, retryable: optBool }).nullish(),
  createdAt: optStr,
  updatedAt: optStr,
});
export type BrandEdit = z.infer<typeof BrandEdit>;

/** assumed: not in the interface document (docs/service.md, Listing Brand Edits). */
export const BrandEditPage = z
  .looseObject({ items: z.array(BrandEdit), nextCursor: optStr, hasMore: optBool })
  .transform((page) => ({
    items: page.items,
    nextCursor: page.nextCursor ?? null,
    hasMore: page.hasMore ?? (page.nextCursor != null && page.nextCursor !== ''),
  }));

/** A page of any list, after normalisation. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}
