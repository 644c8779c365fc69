// The documents that cross the bridge, as zod schemas: the faces' types come from here.
// Server data stays open: statuses, kinds and codes are plain strings (the service may add
// values), and every record keeps the fields it documents, null where nothing is known.
import { z } from 'zod';

const iso = z.string().nullable();

/** A file the face may show (thumbnail, Brand Skill file, logo): the host turns it into a URL. */
export const fileRef = z.object({
  area: z.enum(['media', 'skill', 'folder']),
  brandId: z.string(),
  /** media: the Library item ID; skill: a path inside `Brand Skill/`; folder: inside the brand folder. */
  path: z.string(),
});
export type FileRef = z.infer<typeof fileRef>;

export const sessionDoc = z.object({
  signedIn: z.boolean(),
  /** How the secret is sent; the secret itself never crosses. */
  authKind: z.enum(['api-key', 'bearer']).nullable(),
  /** Where it came from: the OS keychain, BRAND_SYNC_API_KEY / _ACCESS_TOKEN, or the demo. */
  source: z.enum(['keychain', 'environment', 'demo']).nullable(),
  baseUrl: z.string().nullable(),
  demo: z.boolean(),
  /** Why the engine is not working for this account (a revoked key, a banned account). */
  problem: z.object({ code: z.string(), message: z.string(), since: iso }).nullable(),
  keychain: z.object({ available: z.boolean(), message: z.string().nullable() }),
});
export type SessionDoc = z.infer<typeof sessionDoc>;

export const brandFailure = z.object({
  code: z.string().nullable(),
  message: z.string().nullable(),
  /** What to do about it, in plain words (from the failure code). */
  advice: z.string().nullable(),
});

export const brandSummary = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string().nullable(),
  failure: brandFailure.nullable(),
  folder: z.string().nullable(),
  folderPath: z.string().nullable(),
  deletedRemotely: z.boolean(),
  workspaceId: z.string().nullable(),
  logo: fileRef.nullable(),
  skill: z.object({
    activeSkillId: z.string().nullable(),
    installedSkillId: z.string().nullable(),
    installedAt: iso,
  }),
  files: z.record(z.string(), z.number()),
  pendingUploads: z.number(),
  pendingEdits: z.number(),
  library: z.object({ items: z.number(), lastRefreshAt: iso }),
  lastSyncedAt: iso,
});
export type BrandSummary = z.infer<typeof brandSummary>;

export const creditDoc = z.object({
  workspaceId: z.string().nullable(),
  name: z.string().nullable(),
  personal: z.boolean(),
  balance: z.number().nullable(),
  unlimited: z.boolean(),
  syncedAt: iso,
});
export type CreditDoc = z.infer<typeof creditDoc>;

export const queueDoc = z.object({
  /** Paused by the user (kept across restarts). */
  userPaused: z.boolean(),
  /** Not taking work: paused by the user, offline, or an account problem. */
  paused: z.boolean(),
  conditions: z.array(
    z.object({
      name: z.string(),
      code: z.string(),
      message: z.string(),
      since: iso,
      nextProbeAt: iso,
    }),
  ),
  /** The service asked us to wait (429 Retry-After) until then. */
  rateLimitedUntil: iso,
  running: z.number(),
  counts: z.record(z.string(), z.number()),
});
export type QueueDoc = z.infer<typeof queueDoc>;

export const connectionDoc = z.object({
  /** null: not known yet (nothing was asked of the service since the start). */
  online: z.boolean().nullable(),
  since: iso,
  message: z.string().nullable(),
});

export const statusDoc = z.object({
  signedIn: z.boolean(),
  brands: z.array(brandSummary),
  brandsSyncedAt: iso,
  queue: queueDoc,
  connection: connectionDoc,
  credits: z.array(creditDoc),
  files: z.record(z.string(), z.number()),
  lastErrors: z.array(
    z.object({ at: iso, code: z.string(), message: z.string(), brandId: z.string().nullable() }),
  ),
});
export type StatusDoc = z.infer<typeof statusDoc>;

export const brandDoc = brandSummary.extend({
  url: z.string().nullable(),
  summary: z.string().nullable(),
  colors: z.array(z.string()),
  fonts: z.array(z.string()),
  workspaceName: z.string().nullable(),
  createdAt: iso,
});
export type BrandDoc = z.infer<typeof brandDoc>;

export const libraryItemDoc = z.object({
  id: z.string(),
  brandId: z.string(),
  type: z.string(),
  source: z.string().nullable(),
  mimeType: z.string().nullable(),
  fileSize: z.number().nullable(),
  durationMs: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  description: z.string().nullable(),
  addedAt: iso,
  createdAt: iso,
  /** The cached file, when one is on this computer (offline); else null. */
  cached: z.boolean(),
  file: fileRef,
  /**
   * The file's name, as a drag or a download names it: the local file it was uploaded from,
   * else one made of its description (or type and ID) and the extension of its type.
   */
  name: z.string(),
  /**
   * The brand-folder path of the local file it was uploaded from (the local index, by image ID
   * and so by hash: every local copy of uploaded bytes carries their image ID); null: none.
   */
  localPath: z.string().nullable().optional(),
  /** What the window calls it: the local file's name, else its description, else a plain label. */
  caption: z.string().optional(),
});
export type LibraryItemDoc = z.infer<typeof libraryItemDoc>;

/** What the command palette finds, from the local mirror and the disk (offline). */
export const searchDoc = z.object({
  text: z.string(),
  brands: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string().nullable(),
      deletedRemotely: z.boolean(),
    }),
  ),
  items: z.array(libraryItemDoc.extend({ brandName: z.string() })),
  colors: z.array(
    z.object({
      brandId: z.string(),
      brandName: z.string(),
      hex: z.string(),
      name: z.string().nullable(),
    }),
  ),
  skillFiles: z.array(
    z.object({
      brandId: z.string(),
      brandName: z.string(),
      path: z.string(),
      name: z.string(),
      mimeType: z.string(),
      size: z.number(),
      file: fileRef,
    }),
  ),
});
export type SearchDoc = z.infer<typeof searchDoc>;

export const libraryPageDoc = z.object({
  /** null: the Library of every brand. */
  brandId: z.string().nullable(),
  items: z.array(libraryItemDoc),
  nextCursor: z.string().nullable(),
  /** Items matching the type filter; null with a text search (known once every page is read). */
  total: z.number().nullable(),
  types: z.array(z.object({ type: z.string(), count: z.number() })),
  lastRefreshAt: iso,
});
export type LibraryPageDoc = z.infer<typeof libraryPageDoc>;

export const skillEntryDoc = z.object({
  path: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number(),
});

export const skillDoc = z.object({
  brandId: z.string(),
  installed: z.boolean(),
  skillId: z.string().nullable(),
  activeSkillId: z.string().nullable(),
  installedAt: iso,
  exportedAt: iso,
  path: z.string().nullable(),
  versionsKept: z.number(),
  versions: z.array(
    z.object({ skillId: z.string().nullable(), installedAt: iso, current: z.boolean() }),
  ),
  tree: z.array(skillEntryDoc),
  profile: z
    .object({
      name: z.string().nullable(),
      colors: z.array(z.object({ hex: z.string(), name: z.string().nullable() })),
      fonts: z.array(z.object({ family: z.string(), role: z.string().nullable() })),
      logo: fileRef.nullable(),
    })
    .nullable(),
});
export type SkillDoc = z.infer<typeof skillDoc>;

export const skillFileDoc = z.object({
  brandId: z.string(),
  path: z.string(),
  size: z.number(),
  mimeType: z.string(),
  /** The text of a text file up to 1 MB; null for binary or larger files (use `file`). */
  text: z.string().nullable(),
  file: fileRef,
});

export const fileDoc = z.object({
  brandId: z.string(),
  folder: z.string().nullable(),
  path: z.string(),
  state: z.string(),
  /** The state in words, as the user should read it ("waiting: the service asked us to wait until 14:53"). */
  detail: z.string(),
  reason: z.string().nullable(),
  code: z.string().nullable(),
  willRetry: z.boolean().nullable(),
  size: z.number(),
  bytesSent: z.number(),
  sha256: z.string().nullable(),
  imageId: z.string().nullable(),
  existing: z.boolean().nullable(),
  updatedAt: z.string(),
});

export const filesDoc = z.object({
  brand: z
    .object({ id: z.string(), name: z.string().nullable(), folder: z.string().nullable() })
    .nullable(),
  state: z.string().nullable(),
  counts: z.record(z.string(), z.number()),
  files: z.array(fileDoc),
});
export type FilesDoc = z.infer<typeof filesDoc>;

/** One Brand Edit in the engine's stable shape: the same keys every time, null where unknown. */
const str = z.string().nullable();
const bound = z.object({ min: z.number().nullable(), max: z.number().nullable() }).nullable();
const fontDoc = z.object({ source: str, family: str }).nullable();
export const editDoc = z.object({
  id: z.string(),
  brandId: str,
  status: z.string(),
  statusMessage: str,
  changeSummary: str,
  baseSkillId: str,
  targetSkillId: str,
  error: z.object({ code: str, message: str, retryable: z.boolean().nullable() }).nullable(),
  interaction: z
    .object({
      id: str,
      subject: str,
      prompt: str,
      kind: str,
      accepts: z
        .object({
          text: z
            .object({
              required: z.boolean().nullable(),
              minLength: z.number().nullable(),
              maxLength: z.number().nullable(),
            })
            .nullable(),
          images: bound,
          sources: bound,
        })
        .nullable(),
    })
    .nullable(),
  profileChanges: z.array(
    z.object({
      kind: str,
      path: str,
      operation: str,
      previous: z.unknown(),
      next: z.unknown(),
    }),
  ),
  markdownChanges: z.array(
    z.object({
      path: str,
      operation: str,
      additions: z.number().nullable(),
      deletions: z.number().nullable(),
      truncated: z.boolean(),
      hunks: z.array(
        z.object({
          oldStart: z.number().nullable(),
          oldLines: z.number().nullable(),
          newStart: z.number().nullable(),
          newLines: z.number().nullable(),
          lines: z.array(
            z.object({ kind: str, text: z.string(), noNewlineAtEndOfFile: z.boolean() }),
          ),
        }),
      ),
    }),
  ),
  assetChanges: z.array(
    z.object({
      kind: str,
      role: str,
      operation: str,
      previousAssetId: str,
      nextAssetId: str,
    }),
  ),
  targetProfile: z
    .object({
      name: str,
      primaryLogoImageId: str,
      colors: z.array(z.string()),
      typography: z.object({ heading: fontDoc, body: fontDoc }).nullable(),
    })
    .nullable(),
  replacement: z
    .object({ replacesEditId: str, replacedByEditId: str, discardReason: str })
    .nullable(),
  createdAt: str,
  updatedAt: str,
});
export type EditDocShape = z.infer<typeof editDoc>;

export const editsDoc = z.object({
  brandId: z.string(),
  /** 'service': fresh; 'store': as last synced, the service did not answer. */
  source: z.string(),
  syncedAt: iso,
  edits: z.array(editDoc),
});

export const jobDoc = z.object({
  id: z.number(),
  kind: z.string(),
  /** What the job is about, in the user's words: area ("upload") and subject ("Acme/a.png"). */
  area: z.string(),
  subject: z.string(),
  brandId: z.string().nullable(),
  state: z.string(),
  progress: z.object({ done: z.number(), total: z.number().nullable() }).nullable(),
  attempts: z.number(),
  /** Why it waits and until when (retry-wait, or a queue-wide condition). */
  waiting: z.object({ code: z.string(), message: z.string(), until: iso }).nullable(),
  error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean() }).nullable(),
  updatedAt: iso,
  finishedAt: iso,
});
export type JobDoc = z.infer<typeof jobDoc>;

export const activityDoc = z.object({
  queue: queueDoc,
  connection: connectionDoc,
  active: z.array(jobDoc),
  failed: z.array(jobDoc),
  done: z.array(jobDoc),
  /** Brand Edits that wait for the person (approve or answer), per brand: the inbox's "Needs you". */
  editsWaiting: z.array(z.object({ brandId: z.string(), brand: z.string(), count: z.number() })),
  log: z.array(
    z.object({
      id: z.number(),
      at: iso,
      level: z.string(),
      code: z.string(),
      message: z.string(),
      brandId: z.string().nullable(),
    }),
  ),
});
export type ActivityDoc = z.infer<typeof activityDoc>;

export const themeSetting = z.enum(['system', 'light', 'dark']);

export const settingsDoc = z.object({
  syncRoot: z.string(),
  /** Set for this process by a flag or the environment: the stored value does not apply. */
  syncRootFixed: z.boolean(),
  baseUrl: z.string().nullable(),
  baseUrlFixed: z.boolean(),
  dataDir: z.string(),
  skillVersionsKept: z.number(),
  mediaCache: z.object({ maxBytes: z.number(), usedBytes: z.number(), files: z.number() }),
  startAtLogin: z.object({
    supported: z.boolean(),
    enabled: z.boolean(),
    /** Why it is not offered here (the browser host cannot start at login). */
    reason: z.string().nullable(),
  }),
  theme: themeSetting,
});
export type SettingsDoc = z.infer<typeof settingsDoc>;

export const imageDoc = z
  .object({
    id: z.string(),
    status: z.string(),
    brandId: z.string().nullable(),
    url: z.string().nullable(),
    failureReason: z.string().nullable(),
    file: fileRef.nullable(),
  })
  .loose();

/** An image edit the engine started and follows (or followed) to its end. */
export const imageEditDoc = z.object({
  imageId: z.string(),
  brandId: z.string(),
  sourceImageId: z.string(),
  prompt: z.string(),
  size: z.string(),
  cost: z.number(),
  /** The service's status as sent; only completed and failed are finished. */
  status: z.string(),
  finished: z.boolean(),
  failureReason: z.string().nullable(),
  advice: z.string().nullable(),
  startedAt: iso,
  finishedAt: iso,
  /** The result, from the media cache, once completed. */
  file: fileRef.nullable(),
});
export type ImageEditDoc = z.infer<typeof imageEditDoc>;

export const imageEditQuoteDoc = z.object({
  cost: z.number(),
  workspace: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  /** null: the balance could not be checked (the service decides). */
  balance: z.number().nullable(),
  unlimited: z.boolean(),
  enough: z.boolean().nullable(),
  message: z.string(),
  limits: z.object({
    maxPrompt: z.number(),
    maxReferences: z.number(),
    models: z.array(z.string()),
    sizes: z.array(z.string()),
  }),
});

export const exportOutcomeDoc = z.object({
  ok: z.boolean(),
  outcome: z.string().nullable(),
  skillId: z.string().nullable(),
  path: z.string().nullable(),
  message: z.string(),
});
