// OS notifications for what the window toasts (a Brand Skill updated, a brand ready or
// failed, an upload failed, signed out), not more than one per kind a minute; a click opens
// the window where it matters. Electron's Notification is given in (a fake in tests).
import type { NumberedEvent } from '../../../contract/index.ts';

export const NOTIFY_EVERY_MS = 60_000;

export interface ShownNotification {
  title: string;
  body: string;
  /** The window's place to open on click (a hash route). */
  target: string;
}

export function createNotifier(options: {
  show(notification: ShownNotification): void;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const last = new Map<string, number>();
  return (event: NumberedEvent): boolean => {
    if (event.type !== 'notify') return false;
    const at = now();
    const previous = last.get(event.kind);
    if (previous !== undefined && at - previous < NOTIFY_EVERY_MS) return false;
    last.set(event.kind, at);
    const target =
      event.brandId === null
        ? event.kind === 'upload-failed'
          ? '#/activity'
          : '#/brands'
        : `#/brand/${encodeURIComponent(event.brandId)}/${event.kind === 'upload-failed' ? 'files' : event.kind === 'skill-updated' ? 'skill' : 'library'}`;
    options.show({ title: event.title, body: event.message, target });
    return true;
  };
}
