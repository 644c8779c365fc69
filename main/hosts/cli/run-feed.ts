// What `run` tells the person watching it, as it happens and one line each: every file
// uploaded, skipped (and why), failed, deleted; what waits and why (the service asked us
// to wait until a time, offline since when, paused by you). With --json, one JSON object
// per line on stdout for scripts; otherwise lines on stderr.
import type { Engine } from '../../engine/core/engine.ts';
import { FolderSync } from '../../engine/folder-sync/folder-sync-feature.ts';
import type { JournalEntry } from '../../engine/folder-sync/sync-journal.ts';
import type { QueueStatus } from '../../engine/queue/index.ts';
import { clockTime, onSlowdown } from './slowdown-notes.ts';

export interface FeedEvent {
  type: string;
  at: string;
  [field: string]: unknown;
}

export interface FeedSink {
  /** One event: a line for people, or one JSON object per line. */
  event(event: FeedEvent, line: string): void;
}

/** Starts the feed; returns the function that stops it. */
export function followRun(engine: Engine, sink: FeedSink, json: boolean): () => void {
  const at = (ms = Date.now()): string => new Date(ms).toISOString();
  const offs: (() => void)[] = [];
  const folders = engine.features.find((f): f is FolderSync => f instanceof FolderSync);
  if (folders) offs.push(folders.journal.onEntry((entry) => fileEvent(entry, sink)));

  // Waits, each said once when it begins (the human output hears of the service's pauses
  // from the command's own note; --json gets them here).
  if (json) {
    offs.push(
      onSlowdown(engine.client.rateGate, (until) =>
        sink.event(
          { type: 'waiting', at: at(), reason: 'rate-limited', until: at(until) },
          `waiting: the service asked us to wait until ${clockTime(until)}`,
        ),
      ),
    );
  }
  let offlineSince: number | null = null;
  let userPaused = false;
  offs.push(
    engine.queue.events.on('queue:status', (status: QueueStatus) => {
      const offline = status.conditions.find((c) => c.name === 'offline');
      if (offline && offlineSince === null) {
        offlineSince = offline.since;
        sink.event(
          {
            type: 'waiting',
            at: at(),
            reason: 'offline',
            since: at(offline.since),
            message: offline.message,
          },
          `waiting: offline since ${clockTime(offline.since)} (${offline.message})`,
        );
      } else if (!offline && offlineSince !== null) {
        offlineSince = null;
        sink.event({ type: 'online', at: at() }, 'back online: syncing again');
      }
      if (status.userPaused !== userPaused) {
        userPaused = status.userPaused;
        sink.event(
          { type: userPaused ? 'paused' : 'resumed', at: at() },
          userPaused ? 'waiting: paused by you (brand-sync resume goes on)' : 'resumed',
        );
      }
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}

function fileEvent(entry: JournalEntry, sink: FeedSink): void {
  const file = `${entry.folder}/${entry.path}`;
  const base = {
    at: new Date(entry.at).toISOString(),
    brandId: entry.brandId,
    folder: entry.folder,
    path: entry.path,
  };
  switch (entry.type) {
    case 'uploaded':
      return sink.event(
        { type: 'uploaded', ...base, imageId: entry.imageId, existing: entry.existing },
        `uploaded ${file}${entry.existing ? ' (the service already had these bytes)' : ''}`,
      );
    case 'already':
      return sink.event(
        { type: 'already', ...base, imageId: entry.imageId },
        `already on the service: ${file} (nothing sent)`,
      );
    case 'skipped':
      return sink.event(
        { type: 'skipped', ...base, code: entry.code, reason: entry.reason },
        `skipped ${file}: ${entry.reason}`,
      );
    case 'failed':
      return sink.event(
        {
          type: 'failed',
          ...base,
          code: entry.code,
          reason: entry.reason,
          willRetry: entry.willRetry,
        },
        `failed ${file}: ${entry.code}: ${entry.reason}${entry.willRetry ? ' (will retry)' : ''}`,
      );
    case 'deleted':
      return sink.event(
        { type: 'deleted', ...base, message: entry.message },
        `deleted ${file}: ${entry.message}`,
      );
    case 'logo':
      return sink.event(
        { type: 'logo', ...base, status: entry.status },
        `logo set from ${file}${entry.status ? ` (${entry.status})` : ''}`,
      );
  }
}
