// Typed settings: each has a key, a schema and a default. Parts of the engine declare
// their own; the ones the store, queue and Library mirror use are here.
import { z } from 'zod';

export interface Setting<T> {
  key: string;
  schema: z.ZodType<T>;
  fallback: T;
  /** Why it exists / what it does, for the settings screen and for readers. */
  description: string;
}

export function defineSetting<T>(
  key: string,
  schema: z.ZodType<T>,
  fallback: T,
  description: string,
): Setting<T> {
  return { key, schema, fallback, description };
}

export const queuePausedSetting = defineSetting(
  'queue.paused',
  z.boolean(),
  false,
  'The user paused the job queue; it stays paused across restarts until resumed.',
);

export const mediaCacheMaxBytesSetting = defineSetting(
  'library.mediaCacheMaxBytes',
  z.number().int().min(0),
  512 * 1024 * 1024,
  'Size cap of the offline Library image cache; least recently viewed images are evicted first.',
);

export const libraryFullPassIntervalSetting = defineSetting(
  'library.fullPassIntervalMs',
  z.number().int().min(60_000),
  24 * 60 * 60 * 1000,
  'How often a Library is read in full to find items that left it (refreshes read only new items).',
);

export const rateLimitedUntilSetting = defineSetting(
  'queue.rateLimitedUntil',
  z.number().nullable(),
  null,
  'Until when the service asked this key to wait (429 with Retry-After): kept so that another process (`brand-sync files`) can say so.',
);
