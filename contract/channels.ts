// The one map of the bridge: every query and command a face may call, with the schema of
// its input (parsed at the boundary: a malformed one never reaches the engine) and of its
// answer. IPC (preload) and HTTP (`POST /api/<name>`) are both generic over this map.
import { z } from 'zod';
import {
  activityDoc,
  brandDoc,
  creditDoc,
  editDoc,
  editsDoc,
  exportOutcomeDoc,
  filesDoc,
  imageDoc,
  imageEditDoc,
  imageEditQuoteDoc,
  jobDoc,
  libraryItemDoc,
  libraryPageDoc,
  queueDoc,
  searchDoc,
  sessionDoc,
  settingsDoc,
  skillDoc,
  skillFileDoc,
  statusDoc,
  themeSetting,
} from './shapes.ts';

const none = z.object({}).strict();
/** A brand ID, or (for scripts) the name of its folder. */
const brand = z.string().trim().min(1, 'brandId cannot be empty').max(300);
const uuid = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');
const httpsUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, doc: string) {
  return { input, output, doc };
}

export const queries = {
  session: channel(none, sessionDoc, 'signed in or not, how, and to which service; never the key'),
  status: channel(none, statusDoc, 'brands with status, queue, connection and credits'),
  credits: channel(
    none,
    z.object({
      credits: z.array(creditDoc),
      /** What recent actions cost, where the service reports it (image edits), newest first. */
      spent: z.array(
        z.object({
          at: z.string().nullable(),
          action: z.string(),
          cost: z.number(),
          workspaceId: z.string().nullable(),
          message: z.string(),
        }),
      ),
    }),
    'credits per workspace, and what recent actions cost',
  ),
  brands: channel(none, z.object({ brands: z.array(brandDoc) }), 'every brand known here'),
  brand: channel(z.object({ brandId: brand }).strict(), brandDoc, "one brand's details"),
  library: channel(
    z
      .object({
        /** Absent: the Library of every brand at once. */
        brandId: brand.optional(),
        type: z.string().trim().min(1).max(40).optional(),
        search: z.string().max(200).optional(),
        cursor: z.string().max(500).nullable().optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .strict(),
    libraryPageDoc,
    "a page of the brand's Library (or of every brand's) from the local mirror (works offline)",
  ),
  media: channel(
    z.object({ itemId: z.string().trim().min(1).max(200) }).strict(),
    libraryItemDoc,
    'one Library item',
  ),
  skill: channel(
    z.object({ brandId: brand }).strict(),
    skillDoc,
    'the Brand Skill on disk: version, files as a tree, profile (colours, fonts, logo)',
  ),
  skillFile: channel(
    z.object({ brandId: brand, path: z.string().min(1).max(1024) }).strict(),
    skillFileDoc,
    'one file of the Brand Skill on disk',
  ),
  files: channel(
    z
      .object({ brandId: brand.optional(), state: z.string().trim().min(1).max(40).optional() })
      .strict(),
    filesDoc,
    'the files of the brand folders with their sync state and reason',
  ),
  edits: channel(z.object({ brandId: brand }).strict(), editsDoc, "the brand's Brand Edits"),
  edit: channel(
    z.object({ brandId: brand, editId: uuid }).strict(),
    editDoc.extend({ source: z.string() }),
    'one Brand Edit with its change set',
  ),
  activity: channel(
    z.object({ limit: z.number().int().min(1).max(500).optional() }).strict(),
    activityDoc,
    'the queue: running, waiting and why, failed, done recently; the activity log',
  ),
  settings: channel(none, settingsDoc, 'the settings'),
  image: channel(z.object({ imageId: uuid }).strict(), imageDoc, 'one image and its status'),
  imageEdits: channel(
    z.object({ brandId: brand.optional() }).strict(),
    z.object({ edits: z.array(imageEditDoc) }),
    'the image edits started here, newest first: running ones and the last finished',
  ),
  imageEditQuote: channel(
    z.object({ brandId: brand, size: z.string().trim().min(1).max(10) }).strict(),
    imageEditQuoteDoc,
    'what an image edit costs, and whether the workspace can pay it',
  ),
  search: channel(
    z
      .object({
        text: z.string().max(200, 'text is at most 200 characters'),
        /** Library items at most (brands, colours and files are fewer). */
        limit: z.number().int().min(1).max(50).optional(),
      })
      .strict(),
    searchDoc,
    'brands, Library items of every brand (file name, description, source), Brand Skill colours and files matching words typed: the command palette, offline',
  ),
} as const;

export const brandCreationInput = z
  .object({
    website: httpsUrl.optional(),
    instagram: httpsUrl.optional(),
    /** PDFs: https URLs or paths of local files on the engine's machine. */
    pdfs: z.array(z.string().trim().min(1).max(4096)).max(30).optional(),
    instructions: z.string().max(4000).optional(),
    allowDuplicate: z.boolean().optional(),
    workspaceId: uuid.optional(),
  })
  .strict();

export const settingsChange = z
  .object({
    syncRoot: z.string().trim().min(1).max(4096).optional(),
    baseUrl: httpsUrl.optional(),
    skillVersionsKept: z.number().int().min(1).max(50).optional(),
    mediaCacheMaxBytes: z
      .number()
      .int()
      .min(0)
      .max(1024 * 1024 * 1024 * 1024)
      .optional(),
    startAtLogin: z.boolean().optional(),
    theme: themeSetting.optional(),
  })
  .strict();

export const commands = {
  signIn: channel(
    z
      .object({
        /** Crosses once, into the keychain; never sent back. */
        key: z.string().trim().min(1, 'the key cannot be empty').max(4096),
        kind: z.enum(['api-key', 'bearer']).default('api-key'),
        baseUrl: httpsUrl.optional(),
      })
      .strict(),
    sessionDoc,
    'check the key with the service, keep it in the OS keychain, start syncing',
  ),
  signOut: channel(none, sessionDoc, 'remove the key from the keychain; mirrored files stay'),
  pause: channel(none, queueDoc, 'stop taking new work (kept across restarts)'),
  resume: channel(none, queueDoc, 'take work again'),
  syncNow: channel(none, z.object({ queued: z.boolean() }), 'a full reconcile now'),
  createBrand: channel(
    brandCreationInput,
    z.object({ jobId: z.number(), mode: z.string(), brandId: z.string().nullable() }),
    'create a brand (idempotent under retries); follow it in status and activity',
  ),
  retryBrand: channel(
    z.object({ brandId: brand }).strict(),
    z.object({ jobId: z.number(), mode: z.string(), brandId: z.string().nullable() }),
    'create a failed brand again with the same sources (a new creation)',
  ),
  deleteBrand: channel(
    z.object({ brandId: brand }).strict(),
    z.object({ id: z.string(), name: z.string().nullable(), folderKept: z.string().nullable() }),
    'delete the brand on the service; its folder stays on disk',
  ),
  applyEdit: channel(
    z.object({ brandId: brand, editId: uuid }).strict(),
    z.object({ edit: editDoc, skill: exportOutcomeDoc }),
    'make the candidate the active brand, then bring its Brand Skill to disk',
  ),
  discardEdit: channel(
    z.object({ brandId: brand, editId: uuid }).strict(),
    z.object({ edit: editDoc }),
    'end the edit without changing the brand',
  ),
  answerEdit: channel(
    z
      .object({
        brandId: brand,
        editId: uuid,
        interactionId: uuid,
        text: z.string().max(10_000).optional(),
        imageIds: z.array(uuid).max(50).optional(),
        sources: z.array(httpsUrl).max(30).optional(),
      })
      .strict(),
    z.object({ edit: editDoc }),
    'answer the question an edit asks (input_required), within its bounds',
  ),
  imageEdit: channel(
    z
      .object({
        brandId: brand,
        imageId: uuid,
        prompt: z.string().trim().min(1, 'the prompt cannot be empty').max(2000),
        model: z.string().trim().min(1).max(80).optional(),
        size: z.string().trim().min(1).max(10).optional(),
        referenceIds: z.array(uuid).max(50).optional(),
      })
      .strict(),
    imageEditDoc,
    'edit a Library image with a prompt (costs credits: see imageEditQuote); the engine follows it to its end',
  ),
  retryJob: channel(
    z.object({ jobId: z.number().int().min(1) }).strict(),
    jobDoc,
    'run a failed job again',
  ),
  retryFile: channel(
    z.object({ brandId: brand, path: z.string().min(1).max(1024) }).strict(),
    z.object({ path: z.string(), state: z.string() }),
    'send a failed file of a brand folder again, as it is on disk now',
  ),
  cancelJob: channel(z.object({ jobId: z.number().int().min(1) }).strict(), jobDoc, 'cancel a job'),
  syncSkill: channel(
    z.object({ brandId: brand }).strict(),
    exportOutcomeDoc,
    "bring the brand's latest Brand Skill to disk now",
  ),
  updateSettings: channel(settingsChange, settingsDoc, 'change settings'),
  clearMediaCache: channel(none, settingsDoc, 'empty the offline media cache'),
  addFiles: channel(
    z
      .object({
        brandId: brand,
        files: z
          .array(
            z
              .object({
                name: z.string().min(1).max(255),
                /** The file's bytes, base64 (10 MB of file at most: the service's image limit). */
                dataBase64: z.string().max(14_000_000),
              })
              .strict(),
          )
          .min(1)
          .max(5),
      })
      .strict(),
    z.object({ added: z.array(z.object({ name: z.string(), path: z.string() })) }),
    "copy files dropped onto the window into the brand's folder (the folder stays the source of truth)",
  ),
  forgetBrand: channel(
    z.object({ brandId: brand }).strict(),
    z.object({ id: z.string(), folderKept: z.string().nullable() }),
    'forget a brand removed on the service (its folder stays on disk)',
  ),
  openFolder: channel(
    z.object({ brandId: brand.optional() }).strict(),
    z.object({ path: z.string(), opened: z.boolean() }),
    "open the brand's folder (or the sync root) in the file manager, where the host can",
  ),
} as const;

export type SettingsChange = z.infer<typeof settingsChange>;
export type BrandCreationInput = z.infer<typeof brandCreationInput>;
export type Queries = typeof queries;
export type Commands = typeof commands;
export type Channels = Queries & Commands;
export type ChannelName = keyof Channels;
export type QueryName = keyof Queries;
export type CommandName = keyof Commands;
export type Input<N extends ChannelName> = z.input<Channels[N]['input']>;
export type ParsedInput<N extends ChannelName> = z.output<Channels[N]['input']>;
export type Output<N extends ChannelName> = z.output<Channels[N]['output']>;

export const channels: Channels = { ...queries, ...commands };
export const channelNames = Object.keys(channels) as ChannelName[];

export function isChannelName(name: string): name is ChannelName {
  return Object.hasOwn(channels, name);
}
