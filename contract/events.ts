// The numbered event stream: hints that state changed, so a face asks again for what it
// shows (a query is the truth; an event only says which one is stale). A subscriber that
// comes back with the last number it saw gets what it missed, or `resync` when too much was.
import { z } from 'zod';

export const notificationKinds = [
  'skill-updated',
  'brand-ready',
  'brand-failed',
  'upload-failed',
  'signed-out',
  'image-edited',
  'image-edit-failed',
] as const;

export const bridgeEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('brand'), brandId: z.string().nullable() }),
  z.object({
    type: z.literal('job'),
    jobId: z.number(),
    kind: z.string(),
    brandId: z.string().nullable(),
    state: z.string(),
    progress: z.object({ done: z.number(), total: z.number().nullable() }).nullable(),
  }),
  z.object({ type: z.literal('files'), brandId: z.string().nullable() }),
  z.object({
    type: z.literal('library'),
    brandId: z.string(),
    /** Items new to the mirror, to add in place; absent: read the Library again. */
    added: z.array(z.string()).optional(),
    /** Items that left the Library, to take out in place. */
    removed: z.array(z.string()).optional(),
    /** Items changed or removed that are not named: more than 0 means read the Library again. */
    changed: z.number().optional(),
  }),
  /** An image edit the engine follows moved; `finished` once completed or failed. */
  z.object({
    type: z.literal('image'),
    imageId: z.string(),
    brandId: z.string(),
    sourceImageId: z.string(),
    status: z.string(),
    finished: z.boolean(),
  }),
  z.object({ type: z.literal('skill'), brandId: z.string() }),
  z.object({ type: z.literal('edits'), brandId: z.string() }),
  z.object({ type: z.literal('credits') }),
  z.object({ type: z.literal('queue') }),
  z.object({ type: z.literal('connection'), online: z.boolean(), since: z.string() }),
  z.object({ type: z.literal('session') }),
  z.object({ type: z.literal('settings') }),
  z.object({
    type: z.literal('notify'),
    kind: z.enum(notificationKinds),
    title: z.string(),
    message: z.string(),
    brandId: z.string().nullable(),
  }),
  /** Too much was missed: ask every query again. */
  z.object({ type: z.literal('resync') }),
]);
export type BridgeEvent = z.infer<typeof bridgeEvent>;

/** An event with its number (strictly increasing per engine start) and time. */
export type NumberedEvent = BridgeEvent & { seq: number; at: string };
